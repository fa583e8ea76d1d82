"""Suit pictures for buttons, drawn with the cards' own shapes (no font glyphs)."""

from __future__ import annotations

import pygame

from game.ui.art import card_art
from game.ui.widgets.button import Icon
from game.ui.widgets.geometry import Colour


def suit_colour(suit: int, four_colour: bool = False) -> tuple[int, int, int]:
    """The ink of suit ``suit`` (0..3 = S H D C) as the cards print it."""
    table = card_art.FOUR_COLOUR if four_colour else card_art.TWO_COLOUR
    return table[card_art.SUITS[suit]]


def suit_icon(suit: int, four_colour: bool = False, chip: bool = True) -> Icon:
    """An ``Icon`` drawing suit ``suit`` with the cards' own shapes (no font glyphs).

    With ``chip`` the suit sits on a small paper disc so black suits stay
    readable on a dark button.
    """
    letter = card_art.SUITS[suit]
    ink = suit_colour(suit, four_colour)

    def draw(surface: pygame.Surface, rect: pygame.Rect, _colour: Colour) -> None:
        side = min(rect.width, rect.height)
        centre = rect.center
        if chip:
            pygame.draw.circle(surface, card_art.PAPER, centre, side // 2)
            pygame.draw.circle(surface, (120, 120, 126), centre, side // 2, width=1)
            card_art.draw_suit(surface, letter, centre, side * 0.62, ink)
        else:
            card_art.draw_suit(surface, letter, centre, side, ink)

    return draw
