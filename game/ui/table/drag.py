"""Mouse and keyboard play from the bottom hand: drag, click and arrow keys."""

from __future__ import annotations

# The controller asks the table (through ``HandHost``) which cards are legal
# right now, never deciding that itself. A legal card lifts when grabbed and
# follows the pointer; dropped on the trick area it is played from where it
# was let go, dropped anywhere else it slides back to its place with a hint.
# An illegal card can be picked up too, so the player sees the reason
# straight away ("You must follow hearts"), but it never lifts and always
# slides back. A click on a legal card plays it.
#
# From the keyboard a card is picked first and played second, always: the
# picked card (``selected``) stands raised with a ring. Left and Right pick
# one (the first legal card, when none is picked yet); Enter or Space plays
# the picked card and, with none picked, picks one (the card picked last
# this turn if it is still there, else the first legal card). Nothing is
# picked when the turn begins, nor after a dialog or the cover closes over
# the table (the table puts the card down, ``put_down``), so no Enter meant
# for another screen ever plays a card: the first Enter picks, the second
# plays.
#
# Slides back are little tweens of their own, driven by ``update(dt)`` like
# everything else on the table.

from dataclasses import dataclass
from typing import Protocol

import pygame

from game.ui.table.layout import TableLayout, hand_positions
from game.ui.tween import Tween, ease_out_cubic, lerp

CLICK_SLOP = 7  # pixels of movement still counted as a click
RETURN_SECONDS = 0.22


class HandHost(Protocol):
    """What the drag controller needs from the table scene."""

    layout: TableLayout

    def hand_cards(self) -> list[int]: ...
    def playable_cards(self) -> set[int] | None: ...
    def input_enabled(self) -> bool: ...
    def play_card(self, card: int, drop_at: tuple[float, float] | None) -> bool: ...
    def refuse_card(self, card: int) -> None: ...
    def hint(self, text_key: str) -> None: ...
    def speed(self) -> float: ...


@dataclass
class Returning:
    index: int
    card: int
    x: float
    y: float
    tween: Tween


class DragController:
    def __init__(self, host: HandHost) -> None:
        self.host = host
        self.hover = -1
        self.selected = -1
        # The card picked before the table was covered (a dialog opened): Enter picks it again.
        self.put_down_index = -1
        self.pressed_index = -1
        self.pressed_card = -1
        self.press_pos = (0, 0)
        self.pointer = (0, 0)
        self.grab_offset = (0, 0)
        self.dragging = False
        self.pressed_legal = False
        self.returning: list[Returning] = []

    # ------------------------------------------------------------------ geometry
    def _positions(self) -> list[pygame.Rect]:
        cards = self.host.hand_cards()
        playable = self.host.playable_cards()
        lifted = {i for i, c in enumerate(cards) if playable is not None and c in playable}
        return [rect for rect, _ in hand_positions(self.host.layout, len(cards), lifted)]

    def card_at(self, pos: tuple[int, int]) -> int:
        """Index of the topmost hand card under ``pos`` (later cards lie on top), or -1."""
        for index, rect in reversed(list(enumerate(self._positions()))):
            if rect.collidepoint(pos):
                return index
        return -1

    def slot_centre(self, index: int) -> tuple[int, int]:
        positions = self._positions()
        if 0 <= index < len(positions):
            return positions[index].center
        return self.host.layout.hand_rect.center

    def drop_zone(self) -> pygame.Rect:
        layout = self.host.layout
        # Generous: anywhere over the middle of the table counts as the trick area.
        return layout.trick_rect.inflate(round(layout.trick_card_w * 1.2), round(layout.trick_card_h * 0.6))

    # ------------------------------------------------------------------ state for drawing
    @property
    def hidden(self) -> set[int]:
        hidden = {r.index for r in self.returning}
        if self.dragging and self.pressed_index >= 0:
            hidden.add(self.pressed_index)
        return hidden

    def dragged_card(self) -> tuple[int, tuple[int, int], bool] | None:
        """(card, centre, legal) of the card under the pointer while dragging."""
        if not self.dragging or self.pressed_index < 0:
            return None
        centre = (self.pointer[0] - self.grab_offset[0], self.pointer[1] - self.grab_offset[1])
        return self.pressed_card, centre, self.pressed_legal

    def put_down(self) -> None:
        """Put the picked card back down, remembering it for the next Enter (see the module docstring)."""
        if self.selected >= 0:
            self.put_down_index = self.selected
        self.selected = -1

    def forget_pick(self) -> None:
        """A new turn or position: no card is picked, none is remembered."""
        self.selected = -1
        self.put_down_index = -1

    def first_pick(self) -> int:
        """The card Enter picks when none is: the one put down this turn, if still legal, else the
        first legal card (an index into the hand; 0 if none is legal)."""
        cards = self.host.hand_cards()
        playable = self.host.playable_cards() or set()
        if 0 <= self.put_down_index < len(cards) and cards[self.put_down_index] in playable:
            return self.put_down_index
        return next((i for i, c in enumerate(cards) if c in playable), 0)

    def reset(self) -> None:
        """Forget any grab (the hand changed under us, or the turn ended)."""
        self.pressed_index = -1
        self.pressed_card = -1
        self.dragging = False
        self.returning.clear()
        cards = self.host.hand_cards()
        if self.selected >= len(cards):
            self.selected = len(cards) - 1

    # ------------------------------------------------------------------ events
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEMOTION:
            self.pointer = event.pos
            self.hover = self.card_at(event.pos) if self.host.input_enabled() else -1
            if self.pressed_index >= 0 and not self.dragging:
                dx, dy = event.pos[0] - self.press_pos[0], event.pos[1] - self.press_pos[1]
                if dx * dx + dy * dy > CLICK_SLOP * CLICK_SLOP:
                    self.dragging = True
            return self.pressed_index >= 0
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return self._press(event.pos)
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            return self._release(event.pos)
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        return False

    def _press(self, pos: tuple[int, int]) -> bool:
        if not self.host.input_enabled():
            return False
        index = self.card_at(pos)
        if index < 0:
            return False
        cards = self.host.hand_cards()
        card = cards[index]
        playable = self.host.playable_cards() or set()
        self.pressed_index = index
        self.pressed_card = card
        self.pressed_legal = card in playable
        self.press_pos = pos
        self.pointer = pos
        centre = self.slot_centre(index)
        self.grab_offset = (pos[0] - centre[0], pos[1] - centre[1])
        self.dragging = False
        self.selected = index
        if not self.pressed_legal:
            self.host.refuse_card(card)
        return True

    def _release(self, pos: tuple[int, int]) -> bool:
        if self.pressed_index < 0:
            return False
        index, card, legal, dragged = self.pressed_index, self.pressed_card, self.pressed_legal, self.dragging
        self.pressed_index = -1
        self.dragging = False
        self.pointer = pos
        drop_centre = (pos[0] - self.grab_offset[0], pos[1] - self.grab_offset[1])
        if not self.host.input_enabled():
            if dragged:
                self._slide_back(index, card, drop_centre)
            return True
        if not dragged:
            if legal:
                self.host.play_card(card, None)
            return True
        if legal and self.drop_zone().collidepoint(pos):
            if self.host.play_card(card, drop_centre):
                return True
        elif legal:
            self.host.hint("table.drop_hint")
        else:
            self.host.refuse_card(card)
        self._slide_back(index, card, drop_centre)
        return True

    def _slide_back(self, index: int, card: int, start: tuple[float, float]) -> None:
        target = self.slot_centre(index)
        entry = Returning(index, card, start[0], start[1], None)  # type: ignore[arg-type]  # the tween is set below, once the callbacks closing over the entry exist

        def move(p: float) -> None:
            entry.x = lerp(start[0], target[0], p)
            entry.y = lerp(start[1], target[1], p)

        def done() -> None:
            if entry in self.returning:
                self.returning.remove(entry)

        entry.tween = Tween(
            0, 1, RETURN_SECONDS * self.host.speed(), easing=ease_out_cubic, on_update=move, on_finish=done
        )
        self.returning.append(entry)
        entry.tween.update(0.0)

    def _key(self, event: pygame.event.Event) -> bool:
        if not self.host.input_enabled():
            return False
        cards = self.host.hand_cards()
        if not cards:
            return False
        if event.key in (pygame.K_LEFT, pygame.K_RIGHT):
            step = -1 if event.key == pygame.K_LEFT else 1
            if self.selected < 0:
                self.selected = self.first_pick()
            else:
                self.selected = (self.selected + step) % len(cards)
            return True
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if not 0 <= self.selected < len(cards):
                self.selected = self.first_pick()  # the first Enter picks; the next one plays
                return True
            card = cards[self.selected]
            playable = self.host.playable_cards() or set()
            if card in playable:
                self.host.play_card(card, None)
            else:
                self.host.refuse_card(card)
            return True
        return False

    def update(self, dt: float) -> None:
        for entry in list(self.returning):
            entry.tween.update(dt)
