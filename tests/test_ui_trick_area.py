"""The trick on the felt, checked by its geometry and by what is drawn.

* The faint oval the view draws (from ``layout.trick_rect``) holds every trick card, at
  every player count (3 to 6 for Wizard, 4 for Bid Whist) and size: with
  five or six players the cards lay past its rim. Grown to hold them, it
  still runs behind no name plate.
* The "Led" and "Winning" tags leave every card's corner indices in view:
  they sat on a card's lower edge, over its own bottom-right index, and with
  five or six players over a neighbour's top-left index too. The check draws
  the real trick with and without the tags and compares the pixels inside
  the index boxes the card art reports; the tags also stay on screen and off
  the name plates.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from game.rules import get_game
from game.ui.table.layout import TableLayout, compute_layout
from game.ui.table.model import TableModel
from game.ui.table.view import TableView
from ui_states import WINDOW_SIZES, PreviewApp, preview_table_view, window_for_module

TABLES = [("wizard", 3), ("wizard", 4), ("wizard", 5), ("wizard", 6), ("bidwhist", 4)]
# Cards with a two-character rank index where it is widest ("10") and a court card.
TRICK_CARDS = [8, 21, 36, 49, 11, 24]


display = window_for_module((1280, 720))


def _ids(value):
    if isinstance(value, tuple) and isinstance(value[0], int):
        return f"{value[0]}x{value[1]}"
    return f"{value[0]}{value[1]}" if isinstance(value, tuple) else str(value)


def at_every_table_and_size(test):
    """Run ``test(table, size)`` for each table of ``TABLES`` at each window size."""
    by_table = pytest.mark.parametrize("table", TABLES, ids=_ids)(test)
    return pytest.mark.parametrize("size", WINDOW_SIZES, ids=_ids)(by_table)


def _ring_mask(view: TableView, layout: TableLayout) -> pygame.mask.Mask:
    """The pixels of the oval as the view draws it."""
    picture = pygame.Surface(layout.size, pygame.SRCALPHA)
    picture.fill((0, 0, 0, 0))
    view._draw_table_ring(picture, layout)
    return pygame.mask.from_surface(picture, 1)


def _turned(
    view: TableView, layout: TableLayout, seat: int, corners_only: bool
) -> tuple[pygame.mask.Mask, tuple[int, int]]:
    """The mask of a seat's trick card (or of its two index boxes), turned as the view turns the
    card, and where its top-left lies on screen."""
    width, height = layout.trick_card_w, layout.trick_card_h
    card = pygame.Surface((width, height), pygame.SRCALPHA)
    if corners_only:
        box = pygame.Rect((0, 0), view.art(width).corner_index_size())
        card.fill((255, 255, 255, 255), box)
        box.bottomright = (width, height)
        card.fill((255, 255, 255, 255), box)
    else:
        card.fill((255, 255, 255, 255))
    place = layout.place(seat)
    turned = view.rotations.get(card, place.trick_angle)
    rect = turned.get_rect(center=place.trick_centre)
    return pygame.mask.from_surface(turned, 127), rect.topleft


@at_every_table_and_size
def test_the_ring_holds_every_trick_card(table, size):
    game, players = table
    view = preview_table_view(PreviewApp(size))
    layout = compute_layout(size, players, 0)
    ring = _ring_mask(view, layout)
    outside = []
    for place in layout.seats:
        card, at = _turned(view, layout, place.seat, corners_only=False)
        if ring.overlap_area(card, at) < card.count():
            outside.append((place.seat, card.count() - ring.overlap_area(card, at)))
    assert not outside, f"{game} with {players} at {size}: trick cards past the ring (seat, pixels): {outside}"
    assert pygame.Rect(0, 0, *layout.size).contains(layout.trick_rect)
    # Grown to hold five or six cards, it still runs behind no name plate.
    behind = [
        place.seat
        for place in layout.seats
        if ring.overlap_area(pygame.mask.Mask(place.plate.size, fill=True), place.plate.topleft)
    ]
    assert not behind, f"{game} with {players} at {size}: the ring runs behind the plates of seats {behind}"


def _draw_trick(
    view: TableView, model: TableModel, layout: TableLayout, winning_seat: int, tags: bool
) -> pygame.Surface:
    surface = pygame.Surface(layout.size)
    surface.fill((20, 90, 50))
    with pytest.MonkeyPatch.context() as patch:
        if not tags:
            # The same trick with the tags left out: whatever differs from it is a tag.
            patch.setattr(view, "_trick_tag", lambda *args, **kwargs: None)
        view._draw_trick(surface, model, layout, winning_seat)
    return surface


def _changed(first: pygame.Surface, second: pygame.Surface) -> pygame.mask.Mask:
    """The pixels where two pictures differ."""
    up = first.copy()
    up.blit(second, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    down = second.copy()
    down.blit(first, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    up.blit(down, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
    same = pygame.mask.from_threshold(up, (0, 0, 0, 255), (1, 1, 1, 255))
    same.invert()
    return same


@at_every_table_and_size
def test_the_led_and_winning_tags_leave_every_corner_index_in_view(table, size):
    game, players = table
    view = preview_table_view(PreviewApp(size))
    layout = compute_layout(size, players, 0)
    indices = pygame.mask.Mask(layout.size)
    for place in layout.seats:
        boxes, at = _turned(view, layout, place.seat, corners_only=True)
        indices.draw(boxes, at)
    model = TableModel.empty(get_game(game), players)
    covered, astray = [], []
    for leader in range(players):
        # A full trick led by ``leader``, won by the leader (two tags on one card) or by the next seat.
        model.trick = [((leader + step) % players, TRICK_CARDS[step]) for step in range(players)]
        model.trick_winner = -1
        for winning in (leader, (leader + 1) % players):
            tags = _changed(
                _draw_trick(view, model, layout, winning, True), _draw_trick(view, model, layout, winning, False)
            )
            assert tags.count() > 0, "no tag drawn"
            if indices.overlap_area(tags, (0, 0)):
                covered.append((leader, winning, indices.overlap_area(tags, (0, 0))))
            for tag in tags.get_bounding_rects():
                if not pygame.Rect(0, 0, *layout.size).contains(tag) or any(
                    tag.colliderect(place.plate) for place in layout.seats
                ):
                    astray.append((leader, winning, tag))
    assert not covered, f"{game} with {players} at {size}: index pixels under a tag (led, winning, px): {covered}"
    assert not astray, f"{game} with {players} at {size}: tags off screen or on a plate: {astray}"
