"""The problems the session layer raises (a match that cannot be set up), in English."""

from __future__ import annotations

from game.rules.problems import register_problems

# Every problem this layer raises, with its English template; the window words
# each from the catalogue key "problem.<code>" (``game.rules.problems``).
PROBLEM_TEXTS: dict[str, str] = {
    # A seat of a saved or set-up match that no one can play.
    "save.controller": "seat {seat} is played by {value}, which is neither a person nor a computer player",
}

register_problems(PROBLEM_TEXTS)
