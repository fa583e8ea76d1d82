"""Render every card into one contact-sheet PNG for eyeballing the card art."""

from __future__ import annotations

# Usage::
#
#     python tools/card_sheet.py [OUTPUT.png] [--four-colour]
#
# The sheet shows the 54 Bid Whist cards, the Wizard and Jester cards and
# every card back, first at 90 px wide and then at 48 px wide, on the table felt. It
# runs without a window (SDL's dummy video driver), so it works on CI too.

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame

from game.settings.app_settings import CARD_BACKS
from game.ui.art.card_art import RANKS, SUITS, CardArt
from game.ui.art.table_art import draw_felt

DEFAULT_OUTPUT = "/tmp/card_sheet.png"
SHEET_WIDTHS = (90, 48)
GAP = 8


def sheet_rows() -> list[list[str]]:
    """One row per suit, then the specials; "back:NAME" stands for the card back NAME."""
    rows = [[rank + suit for rank in RANKS] for suit in SUITS]
    rows.append(["BJ", "LJ", "WZ", "JE", *(f"back:{name}" for name in CARD_BACKS), "slot", "glow", "dim"])
    return rows


def card_image(art: CardArt, code: str) -> pygame.Surface:
    if code.startswith("back:"):
        return CardArt(art.width, art.four_colour, back=code.split(":", 1)[1]).back()
    if code == "slot":
        return art.placeholder()
    if code == "glow":
        image = art.face("AS").copy()
        image.blit(art.highlight_overlay(), (0, 0))
        return image
    if code == "dim":
        image = art.face("AS").copy()
        image.blit(art.dim_overlay(), (0, 0))
        return image
    return art.face(code)


def render_sheet(four_colour: bool) -> pygame.Surface:
    rows = sheet_rows()
    columns = max(len(row) for row in rows)
    arts = [CardArt(width, four_colour=four_colour) for width in SHEET_WIDTHS]
    section_heights = [len(rows) * (art.size[1] + GAP) + GAP * 2 for art in arts]
    width = max(columns * (art.size[0] + GAP) + GAP for art in arts)
    sheet = draw_felt((width, sum(section_heights))).copy()
    y = GAP
    for art, section_height in zip(arts, section_heights):
        card_w, card_h = art.size
        for row_index, row in enumerate(rows):
            for column, code in enumerate(row):
                sheet.blit(card_image(art, code), (GAP + column * (card_w + GAP), y + row_index * (card_h + GAP)))
        y += section_height
    return sheet


def main(argv: list[str]) -> int:
    four_colour = "--four-colour" in argv
    paths = [arg for arg in argv if not arg.startswith("--")]
    output = paths[0] if paths else DEFAULT_OUTPUT
    pygame.init()
    pygame.image.save(render_sheet(four_colour), output)
    print(f"wrote {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
