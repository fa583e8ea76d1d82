"""Procedural card art for Trick Table."""

from __future__ import annotations

# Every card face, the card backs and the small helper overlays are drawn here
# with pygame primitives when they are first asked for; no image files are
# shipped and no font glyphs are used for the suit symbols (those are polygons
# and circles, so they look the same on every machine). Text such as ranks and
# the words on the special cards uses pygame's bundled default font; the words
# and corner letters of the special cards (BIG JOKER, WIZARD, ...) come from the
# catalogue (``card.face.*``), so they are drawn in the player's language.
#
# Drawing happens on an oversized canvas (``SUPERSAMPLE`` times the final size)
# that is then smooth-scaled down. That gives anti-aliased edges from the plain,
# fast ``pygame.draw`` functions and keeps small cards (about 44 px wide) crisp.
#
# Cards are cached per code (and, for the special cards that carry words, per
# language), so the render loop can call :meth:`CardArt.face` every frame for
# free after the first call, and a language switch shows the new words at once.
#
# Three card backs can be chosen in Settings, by the names of
# ``game.settings.app_settings.CARD_BACKS``: the blue lattice with the four suits in a round
# medallion (the classic), a red tartan with a gold-edged lozenge, and gold
# rays on charcoal around an eight-pointed star. Each has the same white
# margin, so a back stands out from every felt. A ``CardArt`` draws one back;
# the app keeps one per card width, colour mode and back.
#
# Card codes are a rank followed by a suit (``"TH"`` is the ten of hearts, shown
# as "10"), ``"BJ"``/``"LJ"`` for the big (red) and little (black) jokers of
# Bid Whist, and ``"WZ"``/``"JE"`` for the Wizard and Jester cards of Wizard.

import math
from collections.abc import Callable, Sequence
from typing import Any

import pygame

from game.settings.app_settings import CARD_BACKS
from game.ui import theme
from game.ui.text import current_language, t

RANKS = "23456789TJQKA"
SUITS = "SHDC"
BIG_JOKER = "BJ"
LITTLE_JOKER = "LJ"
WIZARD = "WZ"
JESTER = "JE"
SPECIAL_CODES = (BIG_JOKER, LITTLE_JOKER, WIZARD, JESTER)

# Every drawing is made this many times larger, then smooth-scaled down.
SUPERSAMPLE = 4
# Below this width a pip layout gets too busy, so number cards show one big suit.
COMPACT_WIDTH = 64
HEIGHT_RATIO = 1.4

Colour = tuple[int, int, int]
Point = tuple[float, float]

PAPER: Colour = (252, 250, 244)
BORDER: Colour = (118, 118, 124)
INK_BLACK: Colour = (28, 28, 34)
INK_RED: Colour = (200, 28, 40)
GOLD: Colour = (236, 190, 72)
SILVER: Colour = (206, 212, 222)

# The tartan back: crimson cloth, darker bands, cream and gold threads.
TARTAN_RED: Colour = (150, 26, 42)
TARTAN_DARK: Colour = (60, 8, 20)
TARTAN_CREAM: Colour = (244, 226, 196)
TARTAN_GOLD: Colour = (226, 176, 70)
# The sunburst back: charcoal, with rays a step lighter.
SUNBURST_DARK: Colour = (30, 32, 40)
SUNBURST_RAY: Colour = (58, 60, 74)

TWO_COLOUR: dict[str, Colour] = {"S": INK_BLACK, "H": INK_RED, "D": INK_RED, "C": INK_BLACK}
# Colour-blind-safe four-colour deck. Besides hue, the luminances are spread out
# (spades darkest, then clubs, hearts, diamonds) so the suits stay apart even for
# readers who cannot tell red from green; the shapes differ as well.
FOUR_COLOUR: dict[str, Colour] = {
    "S": (24, 24, 30),
    "C": (0, 112, 48),
    "H": (214, 26, 38),
    "D": (32, 118, 232),
}


# --------------------------------------------------------------------------
# Suit shapes
#
# A shape is a list of primitives in unit coordinates: the shape fits the box
# (-0.5, -0.5)..(0.5, 0.5) with y pointing down. Keeping them abstract lets the
# same shape be placed at any size and turned upside down by negating points.
# --------------------------------------------------------------------------

# ("poly", (points,)) or ("circle", (centre, radius)). The arguments stay Any: draw_shape
# unpacks the pair as (kind, args) and picks by kind, which mypy cannot narrow a union of
# the two tuple shapes through.
Primitive = tuple[str, tuple[Any, ...]]


def _heart_outline(steps: int = 72) -> list[Point]:
    """The classic parametric heart curve, normalised to the unit box."""
    raw = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        raw.append((x, y))
    return _normalise(raw)


def _normalise(points: Sequence[Point]) -> list[Point]:
    """Scale points so their bounding box's longer side is 1, centred on 0."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    span = max(max(xs) - min(xs), max(ys) - min(ys))
    cx = (max(xs) + min(xs)) / 2
    cy = (max(ys) + min(ys)) / 2
    return [((x - cx) / span, (y - cy) / span) for x, y in points]


def _heart_shape() -> list[Primitive]:
    # The curve is slightly wider than tall; squash x a touch for a neater heart.
    return [("poly", ([(x * 0.96, y) for x, y in _heart_outline()],))]


def _spade_shape() -> list[Primitive]:
    # An upside-down heart sitting on a flared stem.
    body = [(x * 0.96, -y * 0.80 - 0.08) for x, y in _heart_outline()]
    stem = [(0.0, 0.05), (0.13, 0.5), (-0.13, 0.5)]
    return [("poly", (body,)), ("poly", (stem,))]


def _diamond_shape() -> list[Primitive]:
    # Gently concave sides read as a playing-card diamond rather than a rhombus.
    points: list[Point] = []
    corners = [(0.0, -0.5), (0.38, 0.0), (0.0, 0.5), (-0.38, 0.0)]
    for i, start in enumerate(corners):
        end = corners[(i + 1) % 4]
        for step in range(8):
            f = step / 8
            bow = 0.035 * math.sin(math.pi * f)
            mx, my = start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f
            # Pull each side toward the centre a little.
            length = math.hypot(mx, my) or 1.0
            points.append((mx - bow * mx / length, my - bow * my / length))
    return [("poly", (points,))]


def _club_shape() -> list[Primitive]:
    r = 0.205
    return [
        ("circle", ((0.0, -0.27), r)),
        ("circle", ((-0.245, 0.06), r)),
        ("circle", ((0.245, 0.06), r)),
        ("poly", ([(0.0, -0.2), (0.16, 0.1), (-0.16, 0.1)],)),
        ("poly", ([(0.0, 0.0), (0.13, 0.5), (-0.13, 0.5)],)),
    ]


def _star_shape(points: int = 5, inner: float = 0.42) -> list[Primitive]:
    outline = []
    for i in range(points * 2):
        angle = -math.pi / 2 + math.pi * i / points
        radius = 0.5 if i % 2 == 0 else 0.5 * inner
        outline.append((radius * math.cos(angle), radius * math.sin(angle) + 0.03))
    return [("poly", (outline,))]


SUIT_SHAPES: dict[str, list[Primitive]] = {
    "S": _spade_shape(),
    "H": _heart_shape(),
    "D": _diamond_shape(),
    "C": _club_shape(),
}
STAR_SHAPE = _star_shape()


def draw_shape(
    surface: pygame.Surface,
    shape: list[Primitive],
    centre: Point,
    size: float,
    colour: Colour,
    upside_down: bool = False,
) -> None:
    """Draw a unit-box shape centred at ``centre`` scaled to ``size`` pixels."""
    flip = -1.0 if upside_down else 1.0
    cx, cy = centre

    def place(p: Point) -> Point:
        return (cx + flip * p[0] * size, cy + flip * p[1] * size)

    for kind, args in shape:
        if kind == "poly":
            pygame.draw.polygon(surface, colour, [place(p) for p in args[0]])
        else:
            (point, radius) = args
            pygame.draw.circle(surface, colour, place(point), radius * size)


def draw_suit(
    surface: pygame.Surface,
    suit: str,
    centre: Point,
    size: float,
    colour: Colour,
    upside_down: bool = False,
) -> None:
    """Draw the suit symbol ``suit`` (one of S H D C) as filled shapes."""
    draw_shape(surface, SUIT_SHAPES[suit], centre, size, colour, upside_down)


# --------------------------------------------------------------------------
# Small drawing helpers
# --------------------------------------------------------------------------

# A capital with neither marks nor a descender: its ink is the face's capital height.
CAPITAL_MEASURE = "H"


def text_image(
    text: str, colour: Colour, height: float, max_width: float | None = None, capitals: bool = False
) -> pygame.Surface:
    """Render ``text`` cropped to its ink and scaled so the glyphs are ``height`` tall.

    Cropping to the ink (instead of the font's line box) lets the layout place
    letters exactly; text wider than ``max_width`` is squeezed horizontally,
    which is how "10" fits the same index column as a single letter. With
    ``capitals`` a word's capital letters are ``height`` tall, whatever marks
    stand above or below them: "KÜÇÜK" is as tall as "LITTLE", its dots and
    cedilla reaching beyond, rather than shrunk so they fit.
    """
    # The interface's bold face (see game.ui.theme), big enough that scaling only shrinks it.
    face = theme.face(max(8, round(height * 1.6)), bold=True)
    rendered = face.render(text, True, colour)
    ink = rendered.subsurface(rendered.get_bounding_rect()).copy()
    measure = face.render(CAPITAL_MEASURE, True, colour).get_bounding_rect() if capitals else ink.get_rect()
    scale = height / max(1, measure.height)
    width = ink.get_width() * scale
    if max_width is not None and width > max_width:
        width = max_width
    return pygame.transform.smoothscale(ink, (max(1, round(width)), max(1, round(ink.get_height() * scale))))


def blit_centred(target: pygame.Surface, image: pygame.Surface, centre: Point) -> None:
    target.blit(image, image.get_rect(center=(round(centre[0]), round(centre[1]))))


def mix(a: Colour, b: Colour, amount: float) -> Colour:
    """Blend colour ``a`` toward ``b``; ``amount`` 0 gives ``a``, 1 gives ``b``."""
    return tuple(round(x + (y - x) * amount) for x, y in zip(a, b))  # type: ignore[return-value]  # tuple() of a generator is typed tuple[int, ...]; two colours give three channels


def vertical_gradient(size: tuple[int, int], top: Colour, bottom: Colour) -> pygame.Surface:
    """An opaque top-to-bottom gradient on a per-pixel-alpha surface (so it can be masked)."""
    # A two-pixel-tall strip smooth-scaled up is far faster than drawing lines.
    strip = pygame.Surface((1, 2), pygame.SRCALPHA)
    strip.set_at((0, 0), top)
    strip.set_at((0, 1), bottom)
    return pygame.transform.smoothscale(strip, size)


def rounded_mask(size: tuple[int, int], radius: int) -> pygame.Surface:
    mask = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=radius)
    return mask


def _finish(surface: pygame.Surface) -> pygame.Surface:
    # convert_alpha() needs a display; offscreen (tests, tools) we keep the raw surface.
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        return surface.convert_alpha()
    return surface


# --------------------------------------------------------------------------
# Card art
# --------------------------------------------------------------------------


class CardArt:
    """Draws and caches every card image at one card size.

    ``face(code)`` returns the face for a card code, ``back()`` the card back,
    ``placeholder()`` an empty slot outline, and ``highlight_overlay()`` /
    ``dim_overlay()`` translucent layers to mark playable and unplayable cards.
    """

    def __init__(self, card_width: int, four_colour: bool = False, back: str = CARD_BACKS[0]) -> None:
        if card_width < 8:
            raise ValueError(f"card_width must be at least 8 px, got {card_width}")
        if back not in CARD_BACKS:
            raise ValueError(f"no card back named {back!r}; the backs are {', '.join(CARD_BACKS)}")
        self.width = int(card_width)
        self.height = round(card_width * HEIGHT_RATIO)
        self.four_colour = four_colour
        self.back_design = back
        self._palette = FOUR_COLOUR if four_colour else TWO_COLOUR
        self._faces: dict[tuple[str, str], pygame.Surface] = {}
        self._extras: dict[str, pygame.Surface] = {}
        # Canvas (supersampled) dimensions used while drawing.
        self._w = self.width * SUPERSAMPLE
        self._h = self.height * SUPERSAMPLE
        self._radius = max(2, round(self._w * 0.075))
        self._compact = self.width < COMPACT_WIDTH

    # ----- public API ---------------------------------------------------

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def suit_colour(self, suit: str) -> Colour:
        """Ink colour of ``suit`` in the current colour mode."""
        return self._palette[suit]

    def face(self, code: str) -> pygame.Surface:
        """The face image for ``code`` (cached; do not draw on it)."""
        # Only the special cards carry words; a number card looks the same in every language.
        key = (code, current_language() if code in SPECIAL_CODES else "")
        cached = self._faces.get(key)
        if cached is None:
            cached = self._faces[key] = self._finish_card(self._draw_face(code))
        return cached

    def back(self) -> pygame.Surface:
        """The back of a card, in this art's design (cached; do not draw on it)."""
        draw = {"lattice": self._draw_back, "tartan": self._draw_tartan_back, "sunburst": self._draw_sunburst_back}[
            self.back_design
        ]
        return self._extra("back", draw, rounded=True)

    def placeholder(self) -> pygame.Surface:
        return self._extra("placeholder", self._draw_placeholder, rounded=False)

    def highlight_overlay(self) -> pygame.Surface:
        return self._extra("highlight", self._draw_highlight, rounded=False)

    def dim_overlay(self) -> pygame.Surface:
        return self._extra("dim", self._draw_dim, rounded=False)

    # ----- plumbing -----------------------------------------------------

    def _extra(self, key: str, draw: Callable[[], pygame.Surface], rounded: bool) -> pygame.Surface:
        cached = self._extras.get(key)
        if cached is None:
            canvas = draw()
            cached = self._finish_card(canvas) if rounded else self._downscale(canvas)
            self._extras[key] = cached
        return cached

    def _canvas(self, fill: Colour | None = None) -> pygame.Surface:
        canvas = pygame.Surface((self._w, self._h), pygame.SRCALPHA)
        if fill is not None:
            canvas.fill(fill)
        return canvas

    def _finish_card(self, canvas: pygame.Surface) -> pygame.Surface:
        """Round the corners, draw the border and scale the canvas to card size."""
        canvas.blit(rounded_mask(canvas.get_size(), self._radius), (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        pygame.draw.rect(canvas, BORDER, canvas.get_rect(), width=SUPERSAMPLE, border_radius=self._radius)
        return self._downscale(canvas)

    def _downscale(self, canvas: pygame.Surface) -> pygame.Surface:
        return _finish(pygame.transform.smoothscale(canvas, self.size))

    def _parse(self, code: str) -> tuple[str, str]:
        if isinstance(code, str) and len(code) == 2 and code[0] in RANKS and code[1] in SUITS:
            return code[0], code[1]
        raise ValueError(
            f"unknown card code {code!r}: expected a rank ({' '.join(RANKS)}) followed by a "
            f"suit ({' '.join(SUITS)}), e.g. 'TH', or one of {', '.join(SPECIAL_CODES)}"
        )

    def _draw_face(self, code: str) -> pygame.Surface:
        special = {
            BIG_JOKER: lambda: self._draw_joker(big=True),
            LITTLE_JOKER: lambda: self._draw_joker(big=False),
            WIZARD: self._draw_wizard,
            JESTER: self._draw_jester,
        }
        if code in special:
            return special[code]()
        rank, suit = self._parse(code)
        canvas = self._canvas(PAPER)
        colour = self._palette[suit]
        self._draw_indices(canvas, "10" if rank == "T" else rank, colour, SUIT_SHAPES[suit])
        if rank in "JQK":
            self._draw_court(canvas, rank, suit, colour)
        elif rank == "A":
            self._draw_ace(canvas, suit, colour)
        elif self._compact:
            draw_suit(canvas, suit, (self._w / 2, self._h / 2), self._w * 0.42, colour)
        else:
            self._draw_pips(canvas, int(rank) if rank != "T" else 10, suit, colour)
        return canvas

    # ----- corner index -------------------------------------------------

    def _index_metrics(self) -> tuple[float, float, float, float]:
        """(column centre x, top y, rank height, pip size) for the corner index.

        Small cards get a relatively bigger index because in a fanned hand the
        corner is often all the player can see.
        """
        w = self._w
        if self._compact:
            return (w * 0.14, w * 0.065, w * 0.24, w * 0.25)
        return (w * 0.11, w * 0.07, w * 0.17, w * 0.15)

    def corner_index_size(self) -> tuple[int, int]:
        """Width and height, in card pixels, of the box a corner index (rank over suit)
        takes at the top-left corner; the same box turned round sits at the bottom-right.
        Whatever is drawn over a card must leave these two boxes in view."""
        cx, top, rank_h, pip_size = self._index_metrics()
        return (math.ceil(cx * 2 / SUPERSAMPLE), math.ceil((top + rank_h * 1.25 + pip_size * 1.1) / SUPERSAMPLE))

    def _draw_indices(
        self,
        canvas: pygame.Surface,
        label: str,
        colour: Colour,
        pip_shape: list[Primitive],
        pip_scale: float = 1.0,
    ) -> None:
        """Rank + pip at top-left, and the same turned round at bottom-right."""
        cx, top, rank_h, pip_size = self._index_metrics()
        column = round(cx * 2)
        corner = pygame.Surface((column, round(top + rank_h * 1.25 + pip_size * 1.1)), pygame.SRCALPHA)
        rank_img = text_image(label, colour, rank_h, max_width=column * 0.86)
        corner.blit(rank_img, rank_img.get_rect(midtop=(round(cx), round(top))))
        draw_shape(corner, pip_shape, (cx, top + rank_h * 1.22 + pip_size / 2), pip_size * pip_scale, colour)
        canvas.blit(corner, (0, 0))
        canvas.blit(pygame.transform.rotate(corner, 180), corner.get_rect(bottomright=(self._w, self._h)))

    # ----- number cards -------------------------------------------------

    # Traditional pip positions: (column, row) with columns -1/0/1 and rows 0..1.
    PIP_LAYOUTS: dict[int, list[tuple[int, float]]] = {
        2: [(0, 0), (0, 1)],
        3: [(0, 0), (0, 0.5), (0, 1)],
        4: [(-1, 0), (1, 0), (-1, 1), (1, 1)],
        5: [(-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)],
        6: [(-1, 0), (1, 0), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
        7: [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
        8: [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (0, 0.75), (-1, 1), (1, 1)],
        9: [(-1, 0), (1, 0), (-1, 1 / 3), (1, 1 / 3), (0, 0.5), (-1, 2 / 3), (1, 2 / 3), (-1, 1), (1, 1)],
        10: [
            (-1, 0),
            (1, 0),
            (0, 1 / 6),
            (-1, 1 / 3),
            (1, 1 / 3),
            (-1, 2 / 3),
            (1, 2 / 3),
            (0, 5 / 6),
            (-1, 1),
            (1, 1),
        ],
    }

    def _draw_pips(self, canvas: pygame.Surface, count: int, suit: str, colour: Colour) -> None:
        w, h = self._w, self._h
        pip_size = w * 0.17
        column_gap = w * 0.18
        top, bottom = h * 0.21, h * 0.79
        for column, row in self.PIP_LAYOUTS[count]:
            centre = (w / 2 + column * column_gap, top + row * (bottom - top))
            # Pips below the middle are printed upside down, as on real cards.
            draw_suit(canvas, suit, centre, pip_size, colour, upside_down=row > 0.5)

    def _draw_ace(self, canvas: pygame.Surface, suit: str, colour: Colour) -> None:
        w, h = self._w, self._h
        centre = (w / 2, h / 2)
        ring = w * (0.30 if self._compact else 0.31)
        pygame.draw.circle(canvas, mix(colour, PAPER, 0.86), centre, ring)
        pygame.draw.circle(canvas, mix(colour, PAPER, 0.45), centre, ring, width=max(1, SUPERSAMPLE))
        draw_suit(canvas, suit, centre, ring * 1.3, colour)

    # ----- court cards --------------------------------------------------

    def _court_panel(self) -> pygame.Rect:
        w, h = self._w, self._h
        left = w * (0.28 if self._compact else 0.24)
        top = h * 0.1
        return pygame.Rect(round(left), round(top), round(w - 2 * left), round(h - 2 * top))

    def _draw_court(self, canvas: pygame.Surface, rank: str, suit: str, colour: Colour) -> None:
        panel = self._court_panel()
        line = max(1, SUPERSAMPLE)
        radius = round(panel.width * 0.12)
        pygame.draw.rect(canvas, mix(colour, PAPER, 0.84), panel, border_radius=radius)
        pygame.draw.rect(canvas, colour, panel, width=line * 2, border_radius=radius)
        inner = panel.inflate(-line * 6, -line * 6)
        pygame.draw.rect(canvas, mix(colour, PAPER, 0.5), inner, width=line, border_radius=max(1, radius - line * 3))

        cx = panel.centerx
        # Small cards have a narrow panel, so the letter takes a larger share of it.
        letter_h = panel.width * (0.7 if self._compact else 0.55)
        emblem = panel.width * (0.5 if self._compact else 0.42)
        letter = text_image(rank, colour, letter_h)
        blit_centred(canvas, letter, (cx, panel.centery))
        crown_y = panel.centery - letter_h / 2 - emblem * 0.55 - panel.height * 0.04
        suit_y = panel.centery + letter_h / 2 + emblem * 0.55 + panel.height * 0.04
        _COURT_EMBLEMS[rank](canvas, (cx, crown_y), emblem, colour)
        draw_suit(canvas, suit, (cx, suit_y), emblem * 0.9, colour)

    # ----- special cards ------------------------------------------------

    def _special_frame(self, top: Colour, bottom: Colour, trim: Colour) -> pygame.Surface:
        """A full-bleed coloured card with an inner trim line."""
        canvas = vertical_gradient((self._w, self._h), top, bottom)
        inset = round(self._w * 0.045)
        rect = canvas.get_rect().inflate(-inset * 2, -inset * 2)
        pygame.draw.rect(canvas, trim, rect, width=max(1, SUPERSAMPLE), border_radius=max(1, self._radius - inset))
        return canvas

    def _caption(self, canvas: pygame.Surface, text: str, colour: Colour, y: float, height: float) -> None:
        max_width = self._w * 0.5  # stay clear of the corner indices
        image = text_image(text, colour, height, max_width=max_width, capitals=True)
        blit_centred(canvas, image, (self._w / 2, y))

    def _draw_joker(self, big: bool) -> pygame.Surface:
        if big:
            top, bottom, ink, accent = (196, 30, 42), (128, 12, 26), GOLD, (255, 226, 140)
        else:
            top, bottom, ink, accent = (58, 58, 66), (14, 14, 18), SILVER, (255, 255, 255)
        canvas = self._special_frame(top, bottom, ink)
        w, h = self._w, self._h
        size_word = "card.face.big" if big else "card.face.little"
        self._draw_indices(canvas, t(size_word + ".index"), ink, STAR_SHAPE, pip_scale=1.1)
        word_h = w * 0.1
        self._caption(canvas, t(size_word), accent, h * 0.24, word_h * (1.25 if big else 1.0))
        _draw_jester_hat(canvas, (w / 2, h * 0.5), w * (0.6 if big else 0.5), ink, accent, accent)
        self._caption(canvas, t("card.face.joker"), ink, h * 0.71, word_h)
        return canvas

    def _draw_wizard(self) -> pygame.Surface:
        canvas = self._special_frame((70, 52, 160), (20, 18, 70), GOLD)
        w, h = self._w, self._h
        _scatter_stars(canvas, (250, 240, 200))
        self._draw_indices(canvas, t("card.face.wizard.index"), GOLD, STAR_SHAPE, pip_scale=1.1)
        _draw_wizard_hat(canvas, (w / 2, h * 0.47), w * 0.44, (120, 96, 230), GOLD)
        self._caption(canvas, t("card.face.wizard"), GOLD, h * 0.71, w * 0.1)
        return canvas

    def _draw_jester(self) -> pygame.Surface:
        canvas = self._special_frame((64, 168, 84), (22, 104, 50), (250, 220, 70))
        w, h = self._w, self._h
        self._draw_indices(canvas, t("card.face.jester.index"), (255, 230, 90), JESTER_HAT_PIP, pip_scale=1.1)
        _draw_jester_hat(canvas, (w / 2, h * 0.47), w * 0.66, (250, 214, 50), (214, 44, 64), (250, 214, 50))
        self._caption(canvas, t("card.face.jester"), (255, 236, 120), h * 0.71, w * 0.1)
        return canvas

    # ----- back, slot and overlays --------------------------------------

    def _draw_back(self) -> pygame.Surface:
        """The classic back: a blue lattice with the four suits in a round medallion."""
        w, h = self._w, self._h
        canvas = self._canvas(PAPER)
        navy, light = (30, 58, 118), (60, 98, 170)
        pattern = vertical_gradient(self._field_size(), (40, 72, 140), (22, 44, 96))
        _draw_lattice(pattern, light, spacing=w * 0.12, line=max(1, SUPERSAMPLE))
        self._back_field(canvas, pattern, navy, (190, 205, 235))
        self._draw_back_medallion(canvas, (w / 2, h / 2), w * 0.23, navy)
        return canvas

    def _back_field(self, canvas: pygame.Surface, pattern: pygame.Surface, edge: Colour, trim: Colour) -> None:
        """Lay ``pattern`` into the back's field inside the white margin, with an edge and a trim line."""
        margin = round(self._w * 0.06)
        field = canvas.get_rect().inflate(-2 * margin, -2 * margin)
        inner_radius = max(1, self._radius - margin)
        pattern.blit(rounded_mask(field.size, inner_radius), (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        canvas.blit(pattern, field)
        pygame.draw.rect(canvas, edge, field, width=max(1, SUPERSAMPLE), border_radius=inner_radius)
        pygame.draw.rect(
            canvas, trim, field.inflate(-margin, -margin), width=max(1, SUPERSAMPLE), border_radius=inner_radius
        )

    def _field_size(self) -> tuple[int, int]:
        margin = round(self._w * 0.06)
        return (self._w - 2 * margin, self._h - 2 * margin)

    def _draw_tartan_back(self) -> pygame.Surface:
        """Red plaid: dark bands crossing both ways with fine cream lines, a lozenge in the middle."""
        w, h = self._w, self._h
        canvas = self._canvas(PAPER)
        size = self._field_size()
        pattern = pygame.Surface(size, pygame.SRCALPHA)
        pattern.fill(TARTAN_RED)
        bands = pygame.Surface(size, pygame.SRCALPHA)
        pitch = w * 0.3
        band = max(2, round(w * 0.11))
        line = max(1, SUPERSAMPLE)
        # Bands drawn with alpha over each other darken where they cross, as woven plaid does.
        for index in range(int(max(size) / pitch) + 2):
            offset = round(index * pitch + pitch * 0.2)
            pygame.draw.rect(bands, (*TARTAN_DARK, 120), (offset, 0, band, size[1]))
            pygame.draw.rect(bands, (*TARTAN_DARK, 120), (0, offset, size[0], band))
        pattern.blit(bands, (0, 0))
        for index in range(int(max(size) / pitch) + 2):
            middle = round(index * pitch + pitch * 0.2 + band / 2)
            thin = round(index * pitch + pitch * 0.75)
            for position, colour in ((middle, TARTAN_CREAM), (thin, TARTAN_GOLD)):
                pygame.draw.line(pattern, colour, (position, 0), (position, size[1]), line)
                pygame.draw.line(pattern, colour, (0, position), (size[0], position), line)
        self._back_field(canvas, pattern, TARTAN_DARK, TARTAN_CREAM)
        # The lozenge: a diamond of cream on gold, with a red diamond pip.
        cx, cy = w / 2, h / 2
        half_w, half_h = w * 0.24, h * 0.2
        outer = [(cx, cy - half_h), (cx + half_w, cy), (cx, cy + half_h), (cx - half_w, cy)]
        inner = [(cx, cy - half_h * 0.8), (cx + half_w * 0.8, cy), (cx, cy + half_h * 0.8), (cx - half_w * 0.8, cy)]
        pygame.draw.polygon(canvas, GOLD, outer)
        pygame.draw.polygon(canvas, PAPER, inner)
        draw_suit(canvas, "D", (cx, cy), half_h * 0.9, TARTAN_RED)
        return canvas

    def _draw_sunburst_back(self) -> pygame.Surface:
        """Gold rays on charcoal from the middle out, ringed, around an eight-pointed star."""
        w, h = self._w, self._h
        canvas = self._canvas(PAPER)
        size = self._field_size()
        pattern = pygame.Surface(size, pygame.SRCALPHA)
        pattern.fill(SUNBURST_DARK)
        cx, cy = size[0] / 2, size[1] / 2
        reach = math.hypot(cx, cy) + 2
        rays = 24
        for ray in range(0, rays, 2):
            start = 2 * math.pi * ray / rays
            end = 2 * math.pi * (ray + 1) / rays
            wedge = [
                (cx, cy),
                (cx + reach * math.cos(start), cy + reach * math.sin(start)),
                (cx + reach * math.cos(end), cy + reach * math.sin(end)),
            ]
            pygame.draw.polygon(pattern, SUNBURST_RAY, wedge)
        ring = max(1, SUPERSAMPLE)
        for radius in (w * 0.3, w * 0.38):
            pygame.draw.circle(pattern, GOLD, (cx, cy), radius, width=ring)
        self._back_field(canvas, pattern, SUNBURST_DARK, GOLD)
        centre = (w / 2, h / 2)
        pygame.draw.circle(canvas, SUNBURST_DARK, centre, w * 0.22)
        pygame.draw.circle(canvas, GOLD, centre, w * 0.22, width=max(1, SUPERSAMPLE * 2))
        star = _eight_point_star(centre, w * 0.17, w * 0.07)
        pygame.draw.polygon(canvas, GOLD, star)
        pygame.draw.circle(canvas, SUNBURST_DARK, centre, w * 0.035)
        return canvas

    def _draw_back_medallion(self, canvas: pygame.Surface, centre: Point, radius: float, navy: Colour) -> None:
        """A round badge with the four suits, the project's emblem."""
        pygame.draw.circle(canvas, PAPER, centre, radius)
        pygame.draw.circle(canvas, GOLD, centre, radius, width=max(1, SUPERSAMPLE * 2))
        pygame.draw.circle(canvas, navy, centre, radius * 0.82, width=max(1, SUPERSAMPLE))
        offset = radius * 0.4
        size = radius * 0.62
        spots = {"S": (0, -1), "H": (1, 0), "C": (0, 1), "D": (-1, 0)}
        for suit, (dx, dy) in spots.items():
            colour = self._palette[suit] if self.four_colour else (INK_RED if suit in "HD" else navy)
            draw_suit(canvas, suit, (centre[0] + dx * offset, centre[1] + dy * offset), size, colour)

    def _draw_placeholder(self) -> pygame.Surface:
        canvas = self._canvas()
        rect = canvas.get_rect().inflate(-SUPERSAMPLE * 2, -SUPERSAMPLE * 2)
        pygame.draw.rect(canvas, (255, 255, 255, 26), rect, border_radius=self._radius)
        pygame.draw.rect(canvas, (255, 255, 255, 120), rect, width=SUPERSAMPLE * 2, border_radius=self._radius)
        return canvas

    def _draw_highlight(self) -> pygame.Surface:
        # Concentric outlines fading inward give a soft gold glow along the edge.
        canvas = self._canvas()
        rings = 5
        step = max(1, round(self._w * 0.012))
        for i in range(rings):
            alpha = round(230 * (1 - i / rings) ** 1.6)
            rect = canvas.get_rect().inflate(-2 * i * step, -2 * i * step)
            pygame.draw.rect(
                canvas, (255, 208, 64, alpha), rect, width=step, border_radius=max(1, self._radius - i * step)
            )
        return canvas

    def _draw_dim(self) -> pygame.Surface:
        canvas = self._canvas()
        pygame.draw.rect(canvas, (10, 16, 24, 120), canvas.get_rect(), border_radius=self._radius)
        return canvas


# --------------------------------------------------------------------------
# Emblems for court and special cards (all plain polygons and circles)
# --------------------------------------------------------------------------


def _draw_crown(surface: pygame.Surface, centre: Point, size: float, colour: Colour) -> None:
    """King: a tall three-point crown with balls on the points."""
    cx, cy = centre
    s = size
    outline = [
        (cx - 0.5 * s, cy + 0.3 * s),
        (cx - 0.5 * s, cy - 0.25 * s),
        (cx - 0.25 * s, cy + 0.02 * s),
        (cx, cy - 0.35 * s),
        (cx + 0.25 * s, cy + 0.02 * s),
        (cx + 0.5 * s, cy - 0.25 * s),
        (cx + 0.5 * s, cy + 0.3 * s),
    ]
    pygame.draw.polygon(surface, colour, outline)
    for px, py in ((-0.5, -0.3), (0.0, -0.42), (0.5, -0.3)):
        pygame.draw.circle(surface, colour, (cx + px * s, cy + py * s), 0.08 * s)


def _draw_tiara(surface: pygame.Surface, centre: Point, size: float, colour: Colour) -> None:
    """Queen: a lower five-point coronet with round tips."""
    cx, cy = centre
    s = size
    peaks = [-0.45, -0.225, 0.0, 0.225, 0.45]
    outline = [(cx - 0.5 * s, cy + 0.3 * s)]
    for i, px in enumerate(peaks):
        height = 0.25 if i in (0, 4) else (0.3 if i == 2 else 0.1)
        outline.append((cx + px * s, cy - height * s))
        if i < 4:
            outline.append((cx + (px + 0.1125) * s, cy + 0.08 * s))
    outline.append((cx + 0.5 * s, cy + 0.3 * s))
    pygame.draw.polygon(surface, colour, outline)
    for i, px in enumerate(peaks):
        height = 0.25 if i in (0, 4) else (0.3 if i == 2 else 0.1)
        pygame.draw.circle(surface, colour, (cx + px * s, cy - height * s - 0.06 * s), 0.065 * s)


def _draw_cap(surface: pygame.Surface, centre: Point, size: float, colour: Colour) -> None:
    """Jack: a rounded cap on a brim, with a feather sweeping up from the side."""
    cx, cy = centre
    s = size
    dome = [
        (cx - 0.04 * s + 0.32 * s * math.cos(a), cy + 0.22 * s - 0.36 * s * math.sin(a))
        for a in (math.pi * i / 24 for i in range(25))
    ]
    pygame.draw.polygon(surface, colour, dome)
    brim = pygame.Rect(0, 0, round(1.0 * s), round(0.16 * s))
    brim.midtop = (round(cx), round(cy + 0.18 * s))
    pygame.draw.rect(surface, colour, brim, border_radius=round(0.08 * s))
    feather = _tapered_curve((0.14, 0.08), (0.48, 0.0), (0.42, -0.42), base=0.16, tip=0.02)
    pygame.draw.polygon(surface, colour, [(cx + x * s, cy + y * s) for x, y in feather])


_COURT_EMBLEMS: dict[str, Callable[[pygame.Surface, Point, float, Colour], None]] = {
    "K": _draw_crown,
    "Q": _draw_tiara,
    "J": _draw_cap,
}


def _quad_curve(start: Point, control: Point, end: Point, steps: int = 14) -> list[Point]:
    """Points along a quadratic Bezier curve (start included, end excluded)."""
    points = []
    for i in range(steps):
        t = i / steps
        u = 1 - t
        points.append(
            (
                u * u * start[0] + 2 * u * t * control[0] + t * t * end[0],
                u * u * start[1] + 2 * u * t * control[1] + t * t * end[1],
            )
        )
    return points


def _tapered_curve(start: Point, control: Point, end: Point, base: float, tip: float, steps: int = 18) -> list[Point]:
    """A filled stroke along a quadratic curve that narrows from ``base`` to ``tip`` width."""
    spine = _quad_curve(start, control, end, steps) + [end]
    left: list[Point] = []
    right: list[Point] = []
    for i, (x, y) in enumerate(spine):
        nxt = spine[min(i + 1, len(spine) - 1)]
        prev = spine[max(i - 1, 0)]
        dx, dy = nxt[0] - prev[0], nxt[1] - prev[1]
        length = math.hypot(dx, dy) or 1.0
        half = (base + (tip - base) * i / (len(spine) - 1)) / 2
        nx, ny = -dy / length * half, dx / length * half
        left.append((x + nx, y + ny))
        right.append((x - nx, y - ny))
    return left + right[::-1]


def _mirror(points: list[Point]) -> list[Point]:
    return [(-x, y) for x, y in points]


def _jester_hat_parts() -> dict[str, list[Primitive]]:
    """The fool's cap in unit coordinates, split into parts that can be coloured apart.

    Two side horns curl outward and droop, the middle one points up; each ends
    in a bell, and all three sit on a band.
    """
    k = 0.7  # designed on a slightly larger grid; this fits it into the unit box
    left = _tapered_curve((-0.22, 0.22), (-0.3, -0.55), (-0.66, -0.02), base=0.34, tip=0.05)
    middle = _tapered_curve((0.0, 0.22), (0.04, -0.2), (0.0, -0.56), base=0.3, tip=0.05)
    band = [(-0.5, 0.14), (0.0, 0.1), (0.5, 0.14), (0.48, 0.4), (0.0, 0.36), (-0.48, 0.4)]
    tips = ((-0.66, 0.02), (0.0, -0.6), (0.66, 0.02))
    left, middle, band = ([(x * k, y * k) for x, y in part] for part in (left, middle, band))
    bells: list[Primitive] = [("circle", ((x * k, y * k), 0.09 * k)) for x, y in tips]
    return {
        "left": [("poly", (left,))],
        "right": [("poly", (_mirror(left),))],
        "middle": [("poly", (middle,))],
        "band": [("poly", (band,))],
        "bells": bells,
    }


JESTER_HAT_PARTS = _jester_hat_parts()
# The whole hat in one colour, used as the Jester's corner pip.
JESTER_HAT_PIP: list[Primitive] = [prim for part in JESTER_HAT_PARTS.values() for prim in part]


def _draw_jester_hat(
    surface: pygame.Surface, centre: Point, size: float, horns: Colour, accent: Colour, bells: Colour
) -> None:
    """The fool's cap with two-tone horns (outer ``horns``, middle and band ``accent``)."""
    colours = {"left": horns, "right": horns, "middle": accent, "band": accent, "bells": bells}
    for part, colour in colours.items():
        draw_shape(surface, JESTER_HAT_PARTS[part], centre, size, colour)


def _draw_wizard_hat(surface: pygame.Surface, centre: Point, size: float, main: Colour, trim: Colour) -> None:
    """A tall pointed hat with a bent tip, a brim and a star on the front."""
    cx, cy = centre
    s = size
    cone = [
        (cx - 0.32 * s, cy + 0.35 * s),
        (cx - 0.05 * s, cy - 0.4 * s),
        (cx + 0.08 * s, cy - 0.55 * s),
        (cx + 0.3 * s, cy - 0.5 * s),
        (cx + 0.06 * s, cy - 0.36 * s),
        (cx + 0.32 * s, cy + 0.35 * s),
    ]
    pygame.draw.polygon(surface, main, cone)
    brim = pygame.Rect(0, 0, round(1.0 * s), round(0.22 * s))
    brim.center = (round(cx), round(cy + 0.36 * s))
    pygame.draw.ellipse(surface, main, brim)
    band = [
        (cx - 0.29 * s, cy + 0.22 * s),
        (cx + 0.29 * s, cy + 0.22 * s),
        (cx + 0.31 * s, cy + 0.31 * s),
        (cx - 0.31 * s, cy + 0.31 * s),
    ]
    pygame.draw.polygon(surface, trim, band)
    draw_shape(surface, STAR_SHAPE, (cx, cy - 0.02 * s), 0.3 * s, trim)


def _scatter_stars(surface: pygame.Surface, colour: Colour) -> None:
    # Fixed positions (not random) so the Wizard looks the same on every run.
    w, h = surface.get_size()
    spots = [
        (0.72, 0.16, 0.05),
        (0.3, 0.3, 0.035),
        (0.8, 0.4, 0.04),
        (0.22, 0.58, 0.04),
        (0.76, 0.62, 0.03),
        (0.6, 0.26, 0.025),
        (0.38, 0.86, 0.035),
        (0.66, 0.88, 0.03),
    ]
    for fx, fy, fs in spots:
        draw_shape(surface, STAR_SHAPE, (fx * w, fy * h), fs * w * 2, colour)


def _eight_point_star(centre: Point, outer: float, inner: float) -> list[Point]:
    """The outline of a star of eight points, one pointing straight up."""
    cx, cy = centre
    points = []
    for index in range(16):
        angle = -math.pi / 2 + math.pi * index / 8
        radius = outer if index % 2 == 0 else inner
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _draw_lattice(surface: pygame.Surface, colour: Colour, spacing: float, line: int) -> None:
    """Diagonal criss-cross lines with a small dot at every crossing."""
    w, h = surface.get_size()
    step = max(2.0, spacing)
    count = int((w + h) / step) + 2
    for i in range(-count, count + 1):
        offset = i * step
        pygame.draw.line(surface, colour, (offset, 0), (offset + h, h), line)  # x - y = offset
        pygame.draw.line(surface, colour, (offset, 0), (offset - h, h), line)  # x + y = offset
    # The two families cross at (k, m) * step / 2 whenever k and m share parity.
    half = step / 2
    for m in range(int(h / half) + 2):
        for k in range(m % 2, int(w / half) + 2, 2):
            pygame.draw.circle(surface, colour, (k * half, m * half), line * 1.6)
