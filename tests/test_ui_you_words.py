"""The table speaks to the player looking in their own words.

The upper-left panel names who is choosing: "Bruno chooses uptown or
downtown", "Ada chooses trump". When the chooser was the player at the
screen, whose seat is called "You" by default, it read "You chooses uptown
or downtown". The player looking is now told "You choose ..."; anyone else
is still named.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from game.rules import BidMode, get_game
from game.rules.tricks import PUBLIC_SEAT
from game.ui.table.model import TableModel
from game.ui.text import t
from ui_states import PreviewApp, preview_table_view

NAMES = ["You", "Ada", "Bruno", "Cleo"]


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.init()
    pygame.display.set_mode((800, 600))
    yield


def _chooser_line(lines) -> str:
    return lines[-1][1]


@pytest.mark.parametrize(
    "viewer, expected",
    [
        (0, t("table.you_choose_direction")),
        (2, t("table.choosing_direction", name="You")),
        (PUBLIC_SEAT, t("table.choosing_direction", name="You")),
    ],
)
def test_the_no_trump_declarer_choosing_the_ranking(viewer, expected):
    model = TableModel.empty(get_game("bidwhist"), 4)
    model.contract_mode, model.contract_books, model.declarer, model.direction = BidMode.NOTRUMP, 4, 0, -1
    view = preview_table_view(PreviewApp((800, 600)))
    view.viewer = viewer
    lines, _ = view._contract_indicator(model, NAMES)
    assert _chooser_line(lines) == expected


@pytest.mark.parametrize(
    "viewer, expected", [(1, t("table.you_choose_trump")), (0, t("table.dealer_chooses", name="Ada"))]
)
def test_the_wizard_dealer_naming_trump(viewer, expected):
    model = TableModel.empty(get_game("wizard"), 4)
    model.dealer, model.turn_up_known, model.trump_pending, model.round_number = 1, True, True, 3
    view = preview_table_view(PreviewApp((800, 600)))
    view.viewer = viewer
    lines, _ = view._prediction_indicator(model, NAMES)
    assert _chooser_line(lines) == expected
