"""The problems the interface itself raises, in English."""

from __future__ import annotations

from game.rules.problems import register_problems

# Every problem the interface raises (a folder it cannot list, a fault of the
# program), with its English template; the window words each from the
# catalogue key "problem.<code>" (``game.rules.problems``).
PROBLEM_TEXTS: dict[str, str] = {
    # The statistics screen's history folder that cannot be listed.
    "stats.folder_unreadable": "{source}: {reason}",
    # An error the program did not expect (a fault of its own), with the English it was raised with.
    "unexpected": "{detail}",
    "unexpected.no_detail": "something unexpected went wrong in Trick Table",
}

register_problems(PROBLEM_TEXTS)
