"""The Bid Whist progress panel once a hand's outcome is settled.

While the hand is still played it read "You & Bruno went down with 2 books":
true that the contract could no longer be made, but the books were not the
last word. Settled in play, the lines now say so with the books so far;
"went down with", "made it with" only once the hand is over.

While a hand is open the panel says what each side needs and has. Once the
defenders had set the contract it read "Ada & Cleo have set it (7 of 1)" over
"You & Bruno need 13 books, have 6": a count of more than its total, and the
declarers still asked for books they could no longer take. Settled either
way, both lines now say how it ended, each in its team's colour.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game.rules import Phase, get_game
from game.ui import theme
from game.ui.table.model import TableModel
from game.ui.text import t, team_words
from ui_states import PreviewApp, preview_table_view, window_for_module

NAMES = ["You", "Ada", "Bruno", "Cleo"]
US, THEM = team_words(["You", "Bruno"]), team_words(["Ada", "Cleo"])


display = window_for_module((800, 600))


def _lines(
    books: list[int], contract_books: int = 4, phase: Phase | None = Phase.HAND_OVER
) -> list[tuple[str, tuple[int, int, int]]]:
    """The panel for "You" (seat 0, team 0) declaring ``contract_books`` uptown, spades trump."""
    model = TableModel.empty(get_game("bidwhist"), 4)
    model.contract_mode, model.contract_books, model.declarer, model.trump = 0, contract_books, 0, 0
    model.phase = phase
    model.books = list(books)
    # A stand-in app holding what the view reads: settings, fonts, card art.
    return preview_table_view(PreviewApp((800, 600))).progress_lines(model, NAMES)


def test_while_open_both_sides_say_what_they_need():
    # Four bid: ten books to make it, four to set it.
    assert _lines([5, 2], phase=Phase.PLAY) == [
        (t("table.progress_declarers", team=US, need=10, have=5), theme.TEAM_COLOURS[0]),
        (t("table.progress_defenders", team=THEM, need=4, have=2), theme.TEAM_COLOURS[1]),
    ]


def test_once_set_the_declarers_went_down_and_the_defenders_set_it():
    lines = _lines([6, 4])
    assert lines == [
        (t("table.progress_down", team=US, need=10, have=6), theme.TEAM_COLOURS[0]),
        (t("table.progress_set", team=THEM, need=4, have=4), theme.TEAM_COLOURS[1]),
    ]
    assert all("need" not in text for text, _ in lines), lines


def test_once_made_the_defenders_could_not_set_it():
    lines = _lines([10, 3])
    assert lines == [
        (t("table.progress_made", team=US, need=10, have=10), theme.TEAM_COLOURS[0]),
        (t("table.progress_not_set", team=THEM, need=4, have=3), theme.TEAM_COLOURS[1]),
    ]
    assert all("need" not in text for text, _ in lines), lines


def test_settled_in_play_the_lines_give_the_books_so_far_not_the_end():
    set_early = _lines([2, 4], phase=Phase.PLAY)
    assert set_early == [
        (t("table.progress_cannot_make", team=US, need=10, have=2), theme.TEAM_COLOURS[0]),
        (t("table.progress_set_so_far", team=THEM, need=4, have=4), theme.TEAM_COLOURS[1]),
    ]
    assert set_early[0][0] == "You & Bruno cannot make it, have 2"
    made_early = _lines([10, 1], phase=Phase.PLAY)
    assert made_early == [
        (t("table.progress_made_so_far", team=US, need=10, have=10), theme.TEAM_COLOURS[0]),
        (t("table.progress_cannot_set", team=THEM, need=4, have=1), theme.TEAM_COLOURS[1]),
    ]
    # Between a deal and the next sync the phase is unknown: not yet over either.
    assert _lines([2, 4], phase=None)[0][0] == set_early[0][0]
    assert all("went down" not in text and "with" not in text for text, _ in set_early + made_early)
    # As short as the lines they replace, so the panel's type need not shrink for them.
    longest_open = max(len(text) for text, _ in _lines([5, 2], phase=Phase.PLAY))
    assert all(len(text) <= longest_open + 2 for text, _ in set_early + made_early)
