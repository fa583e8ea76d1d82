"""The kitty dialog's "kitty" tags leave the cards' corner indices in view, and
its contract line is worded as the table's contract panel words it.

The tag that marks a card the kitty brought sat centred on the card's lower
edge, over its bottom-right index (rank and suit), so the player could not
read the very cards the tag was pointing at. The check draws each kitty
card with and without its tag and compares the pixels inside the two index
boxes the card art reports, at the sizes a player uses; the tag still lies
on its card, where it is seen.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from game.rules import apply
from game.ui.dialogs.kitty_dialog import KittyDialog
from game.ui.table.animations import contract_words
from game.ui.text import t
from ui_states import (
    WINDOW_SIZES,
    PreviewApp,
    as_app,
    contract_state,
    discard_state,
    window_for_module,
)


display = window_for_module((1280, 720))


def _drawn(choice, size: tuple[int, int], tagged: bool) -> pygame.Surface:
    surface = pygame.Surface(size)
    surface.fill((30, 60, 45))
    choice.from_kitty = tagged
    choice.draw(surface)
    choice.from_kitty = True
    return surface


@pytest.mark.parametrize("size", WINDOW_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("selected", [False, True], ids=["kept", "raised"])
def test_kitty_tags_leave_the_corner_indices_in_view(size, selected):
    app = PreviewApp(size)
    state = discard_state()
    # The stand-in has the few App features the dialog uses (see ui_states).
    dialog = KittyDialog(as_app(app), state.view(state.current_player), lambda cards: None)
    dialog.relayout(size)
    kitty_cards = [choice for choice in dialog.cards if choice.from_kitty]
    assert kitty_cards, "the dialog marks no card as the kitty's"
    for choice in kitty_cards:
        choice.selected = selected
        card = choice.shown_rect
        index_w, index_h = app.card_art(card.width).corner_index_size()
        with_tag, without_tag = _drawn(choice, size, True), _drawn(choice, size, False)
        changed = []
        for x in range(card.left, card.right):
            for y in range(card.top, card.bottom):
                if with_tag.get_at((x, y)) != without_tag.get_at((x, y)):
                    changed.append((x - card.left, y - card.top))
        assert changed, f"{choice.code}: no kitty tag drawn on the card"
        under = [
            (x, y)
            for x, y in changed
            if (x < index_w and y < index_h) or (x >= card.width - index_w and y >= card.height - index_h)
        ]
        assert not under, (
            f"{choice.code} at {size}: the kitty tag covers {len(under)} pixels of the "
            f"corner indices ({index_w}x{index_h} px boxes), e.g. {under[:3]}"
        )


@pytest.mark.parametrize("mode", [0, 1, 2], ids=["uptown", "downtown", "no trump"])
def test_the_dialog_words_the_contract_as_the_table_does(mode):
    # "Contract: 3 uptown, Hearts" beside the table's "3 uptown, hearts trump", and
    # built by joining English words in code; now one wording, from the catalog.
    state = contract_state(mode)
    state, _ = apply(state, state.legal_actions()[0])  # the first suit, or uptown for no trump
    view = state.view(state.current_player)
    dialog = KittyDialog(as_app(PreviewApp((800, 600))), view, lambda cards: None)
    words = contract_words(view.contract_books, view.contract_mode, view.trump, view.direction)
    assert dialog.contract_line() == t("kitty.contract", contract=words)
    assert words.split(", ")[1][0].islower(), words
