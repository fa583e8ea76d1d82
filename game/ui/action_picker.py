"""A plain chooser of legal actions, used only while a proper dialog is missing.

The bidding panel, contract chooser and kitty dialog are separate modules;
if one of them cannot be imported (a broken install, or during development)
the table still has to let the human act, so it falls back to this list of
buttons, one per legal action. The kitty falls back to discarding the six
cards just taken.
"""

from __future__ import annotations

from typing import Callable

import pygame

from game.rules import Action, ActionKind, BidMode, PlayerView
from game.ui.text import t
from game.ui.widgets import Button, DialogScene, area_above_hand

SUIT_KEYS = ("table.suit.spades", "table.suit.hearts", "table.suit.diamonds", "table.suit.clubs")


def action_label(action: Action) -> str:
    kind = action.kind
    if kind == ActionKind.PASS:
        return t("table.bid_pass")
    if kind == ActionKind.BID:
        return t(f"table.bid_{BidMode(action.mode).label}", n=action.value)
    if kind == ActionKind.PREDICT:
        return str(action.value)
    if kind == ActionKind.TRUMP:
        return t(SUIT_KEYS[action.value]).capitalize()
    if kind == ActionKind.DIRECTION:
        return t("table.uptown") if action.value == 0 else t("table.downtown")
    return str(action)


class ActionPicker(DialogScene):
    def __init__(self, app, view: PlayerView, on_action: Callable[[Action], None] | None = None,
                 on_discards: Callable[[list[int]], None] | None = None) -> None:
        super().__init__(app)
        self.title = t("picker.title")
        if on_discards is not None:
            cards = list(view.kitty)[:6] or list(view.hand)[:6]
            self.buttons = [Button((0, 0, 1, 1), t("picker.discard_kitty"),
                                   lambda: self.finish(on_discards, cards), kind="primary")]
        else:
            self.buttons = [Button((0, 0, 1, 1), action_label(a), (lambda a=a: self.finish(on_action, a)))
                            for a in view.legal_actions if a.kind != ActionKind.DISCARD]
        self.relayout()

    def layout(self, size: tuple[int, int]) -> None:
        area = area_above_hand(size)
        count = max(1, len(self.buttons))
        columns = min(count, 8)
        rows = (count + columns - 1) // columns
        bw, bh, gap = 120, 44, 8
        pw = columns * bw + (columns + 1) * gap
        ph = 60 + rows * (bh + gap) + gap
        self.panel_rect = pygame.Rect(0, 0, min(pw, area.width), min(ph, area.height))
        self.panel_rect.center = area.center
        for index, button in enumerate(self.buttons):
            r, c = divmod(index, columns)
            button.set_rect((self.panel_rect.left + gap + c * (bw + gap), self.panel_rect.top + 56 + r * (bh + gap),
                             bw, bh))
        self.focus.set_widgets(self.buttons)
