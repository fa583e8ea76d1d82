"""Tests for the procedural card and table art (run headless)."""

from __future__ import annotations

import os

# Must be set before pygame is imported so no window or audio device is needed.
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pytest

from game.ui.art.card_art import RANKS, SUITS, CardArt
from game.ui.art.table_art import draw_felt, make_app_icon

ALL_CODES = [rank + suit for suit in SUITS for rank in RANKS] + ["BJ", "LJ", "WZ", "JE"]


@pytest.fixture(scope="module", params=[90, 44], ids=["large", "small"])
def art(request: pytest.FixtureRequest) -> CardArt:
    return CardArt(request.param)


def test_deck_has_every_bid_whist_and_wizard_code() -> None:
    assert len(ALL_CODES) == 56  # 52 + two jokers + Wizard + Jester


def test_size_uses_the_card_aspect_ratio() -> None:
    assert CardArt(90).size == (90, 126)
    assert CardArt(44).size == (44, 62)


@pytest.mark.parametrize("code", ALL_CODES)
def test_every_code_renders_at_card_size(art: CardArt, code: str) -> None:
    image = art.face(code)
    assert isinstance(image, pygame.Surface)
    assert image.get_size() == art.size
    assert image.get_flags() & pygame.SRCALPHA


def test_corners_are_transparent_and_centre_is_opaque(art: CardArt) -> None:
    image = art.face("7C")
    width, height = art.size
    assert image.get_at((0, 0)).a == 0
    assert image.get_at((width - 1, height - 1)).a == 0
    assert image.get_at((width // 2, height // 2)).a == 255


def test_faces_are_cached(art: CardArt) -> None:
    assert art.face("QS") is art.face("QS")
    assert art.face("WZ") is art.face("WZ")


def test_back_placeholder_and_overlays_are_card_sized_and_cached(art: CardArt) -> None:
    for make in (art.back, art.placeholder, art.highlight_overlay, art.dim_overlay):
        image = make()
        assert image.get_size() == art.size
        assert make() is image


def test_overlays_are_translucent(art: CardArt) -> None:
    centre = (art.size[0] // 2, art.size[1] // 2)
    assert 0 < art.dim_overlay().get_at(centre).a < 255
    edge = (art.size[0] // 2, 1)
    assert art.highlight_overlay().get_at(edge).a > 0


def test_four_colour_hearts_and_diamonds_differ() -> None:
    art = CardArt(90, four_colour=True)
    centre = (45, 63)  # the ace's big suit shape covers the card centre
    hearts = art.face("AH").get_at(centre)
    diamonds = art.face("AD").get_at(centre)
    assert hearts[:3] != diamonds[:3]
    assert art.suit_colour("H") != art.suit_colour("D")


def test_two_colour_hearts_and_diamonds_share_red() -> None:
    art = CardArt(90)
    assert art.suit_colour("H") == art.suit_colour("D")
    assert art.suit_colour("S") == art.suit_colour("C")


def test_four_colour_suits_all_differ() -> None:
    art = CardArt(60, four_colour=True)
    assert len({art.suit_colour(suit) for suit in SUITS}) == 4


@pytest.mark.parametrize("code", ["", "1H", "10H", "TX", "XX", "AS ", "as", "JOKER"])
def test_unknown_code_raises_clear_value_error(code: str) -> None:
    with pytest.raises(ValueError, match="unknown card code"):
        CardArt(60).face(code)


def test_too_small_width_is_rejected() -> None:
    with pytest.raises(ValueError):
        CardArt(4)


def test_app_icon_sizes() -> None:
    assert make_app_icon().get_size() == (256, 256)
    assert make_app_icon(32).get_size() == (32, 32)


def test_felt_is_cached_per_size() -> None:
    felt = draw_felt((320, 200))
    assert felt.get_size() == (320, 200)
    assert draw_felt((320, 200)) is felt
    assert draw_felt((200, 320)).get_size() == (200, 320)
