"""Colours, fonts and sizes shared by every screen, so the look is set in one place."""

from __future__ import annotations

# Every piece of text in the interface is drawn with one type family, Source
# Sans Pro, through ``font()`` here. It comes from the pinned
# ``font-source-sans-pro`` package (SIL Open Font License; the licence file
# ships beside the fonts and goes into the build with them), which brings true
# regular and bold faces with full Latin Extended-A, so Dutch and Turkish
# names and text (ş ğ ı İ ç ö ü é ë) render. A bold face designed as such
# keeps the spaces between words and the shapes of letters that pygame's
# software emboldening of its tiny default font ran together at small sizes
# ("Twoteams", "kit ty").
#
# If the package is missing (a broken install), the interface falls back to
# pygame's built-in font and logs one warning saying what to install; it never
# stops the program.
#
# Sizes: callers ask for a nominal ``size``, chosen when the interface used
# pygame's default font, which pygame draws at about two thirds of the size
# asked for. ``font()`` turns it into a pixel size with ``FONT_SCALE`` so text
# keeps taking about the room the layouts were made for; ``face()`` takes a
# pixel size directly.

import importlib
import logging
import os

import pygame

log = logging.getLogger("tricktable.theme")

TEXT = (250, 250, 246)  # near white: the only light that reads at 4.5:1 on the bright felt centre
TEXT_DIM = (170, 180, 170)
TEXT_DARK = (30, 30, 30)
ACCENT = (242, 193, 78)  # gold: whose turn, highlights
PANEL = (22, 42, 34, 235)  # dialog background (with alpha)
PANEL_EDGE = (120, 160, 130)
BUTTON = (52, 96, 74)
BUTTON_HOVER = (64, 116, 88)  # lighter than BUTTON, still dark enough for TEXT at 4.5:1
BUTTON_PRESSED = (40, 74, 58)
BUTTON_DISABLED = (60, 66, 62)
BUTTON_TEXT_DISABLED = (130, 134, 130)
DANGER = (220, 90, 80)
TEAM_COLOURS = ((120, 190, 255), (255, 160, 110))

# The type family: the package that ships it, and its regular and bold faces.
FONT_PACKAGE = "font_source_sans_pro"
FONT_FACES = {False: "SourceSansPro-Regular.ttf", True: "SourceSansPro-Bold.ttf"}
FONT_LICENCE = "LICENSE.txt"
#: Pixels of Source Sans Pro per nominal size unit: text is then about as wide
#: as the default font's was at the same nominal size, so the layouts keep fitting.
FONT_SCALE = 0.82
#: Letters both faces must draw (Dutch and Turkish); the self-test checks them in the build.
REQUIRED_LETTERS = "şŞğĞıİçÇöÖüÜéëÉË"

_fonts: dict[tuple[str, int, bool], pygame.font.Font] = {}
_face_files: dict[bool, str] | None = None


def font_files() -> dict[bool, str]:
    """The regular (False) and bold (True) font files, or {} when the family is missing.

    Looked up once; a missing family is logged once as a warning and the
    interface uses pygame's built-in font instead.
    """
    global _face_files
    if not pygame.font.get_init():
        pygame.font.init()
    if _face_files is None:
        _face_files = _find_font_files()
    return _face_files


def _find_font_files() -> dict[bool, str]:
    try:
        # The pinned dependency (requirements.txt), imported by name: the package
        # has no type information, and pyinstaller.spec names it for the build.
        package = importlib.import_module(FONT_PACKAGE)
    except ImportError:
        log.warning(
            "the font package %s is not installed (pip install -r requirements.txt); "
            "text uses pygame's built-in font instead",
            FONT_PACKAGE,
        )
        return {}
    folder = str(package.font_directory)
    files = {bold: os.path.join(folder, name) for bold, name in FONT_FACES.items()}
    missing = [path for path in files.values() if not os.path.isfile(path)]
    if missing:
        log.warning("font files missing: %s; text uses pygame's built-in font instead", ", ".join(missing))
        return {}
    return files


def font_licence_file() -> str | None:
    """The type family's licence file, when the family is installed."""
    files = font_files()
    if not files:
        return None
    path = os.path.join(os.path.dirname(files[False]), FONT_LICENCE)
    return path if os.path.isfile(path) else None


def face(pixels: int, bold: bool = False) -> pygame.font.Font:
    """The UI type at ``pixels`` pixels (its em size), regular or bold (cached)."""
    pixels = max(6, int(pixels))
    files = font_files()
    if not files:
        # pygame draws its built-in font at about 2/3 of the size asked for.
        return _builtin_font(round(pixels / 0.6875), bold)
    key = ("face", pixels, bold)
    cached = _fonts.get(key)
    if cached is None:
        cached = _fonts[key] = pygame.font.Font(files[bold], pixels)
    return cached


def pixel_size(size: int) -> int:
    """The pixel (em) size text of nominal ``size`` is drawn at with the UI type."""
    return max(6, round(max(8, int(size)) * FONT_SCALE))


def nominal_size(pixels: float) -> int:
    """The smallest nominal size whose text is drawn at least ``pixels`` pixels high."""
    size = max(8, int(pixels / FONT_SCALE))
    while pixel_size(size) < pixels:
        size += 1
    return size


#: The smallest text the interface draws, in pixels: in a 1280x720 window (size factor 1) at
#: 100%, and in the smallest window the game opens (800x600) whatever its factor.
SMALLEST_TEXT_PX = 12
SMALLEST_TEXT_PX_SMALL_WINDOW = 10


def smallest_text_px(window_factor: float) -> float:
    """The smallest text in pixels for a window of ``window_factor`` (1.0 at 1280x720): it
    follows the window down to the small window's floor, and up with larger windows."""
    return max(SMALLEST_TEXT_PX_SMALL_WINDOW, SMALLEST_TEXT_PX * window_factor)


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The UI font at nominal ``size`` (see the module's note on sizes; cached)."""
    size = max(8, int(size))
    if not font_files():
        return _builtin_font(size, bold)
    return face(pixel_size(size), bold)


def _builtin_font(size: int, bold: bool) -> pygame.font.Font:
    """The fallback: pygame's built-in font, emboldened in software."""
    key = ("builtin", size, bold)
    cached = _fonts.get(key)
    if cached is None:
        cached = pygame.font.Font(None, size)
        cached.set_bold(bold)
        _fonts[key] = cached
    return cached


def line_step(size: int, bold: bool = False) -> int:
    """The distance between the tops of wrapped lines at nominal ``size``.

    A little tighter than the font's own line box, which leaves room for
    stacked accents no UI text uses; accented capitals (İ, Ş) and descenders
    still do not touch the next line.
    """
    if not font_files():
        return font(size, bold).get_linesize()
    return max(1, round(font(size, bold).get_height() * 0.9))


# --------------------------------------------------------------------------
# Added for the panels, dialogs and widgets (the game/ui/widgets package and friends).
# Never rename these: the table scenes import them too.

PANEL_TOP = (30, 58, 46, 236)  # panel gradient, top edge (RGBA)
PANEL_BOTTOM = (16, 32, 26, 242)  # panel gradient, bottom edge (RGBA)
PANEL_SHADOW = (0, 0, 0, 90)
PANEL_TITLE = (250, 232, 180)
SCRIM = (0, 0, 0, 96)  # darkens the table under a modal dialog

BUTTON_EDGE = (140, 190, 156)
BUTTON_PRIMARY = (196, 140, 36)
BUTTON_PRIMARY_HOVER = (222, 166, 52)
BUTTON_PRIMARY_PRESSED = (180, 128, 30)  # dark text stays at 4.5:1 while pressed
BUTTON_DANGER = (150, 52, 46)
BUTTON_DANGER_HOVER = (178, 66, 58)
BUTTON_DANGER_PRESSED = (120, 40, 36)
BUTTON_SELECTED = (40, 110, 160)  # a chosen toggle or card-selection state
BUTTON_SELECTED_HOVER = (46, 114, 162)
BUTTON_SELECTED_PRESSED = (32, 90, 132)
FOCUS_RING = (255, 224, 120)
FOCUS_EDGE = (14, 22, 18)  # the thin dark lines either side of the focus ring
INPUT_BG = (12, 24, 20)
INPUT_EDGE = (110, 150, 124)
ROW_ALT = (255, 255, 255, 14)  # zebra stripe in tables
ROW_HIGHLIGHT = (242, 193, 78, 40)
GOOD = (130, 210, 140)
BAD = (244, 146, 134)  # light enough for 4.5:1 on the panels
WARNING = (250, 200, 110)
WARNING_BG = (70, 40, 20, 230)

# Spacing scale, multiplied by a per-layout unit so small windows stay tidy.
GAP = 8
RADIUS = 12


# --------------------------------------------------------------------------
# Text contrast. Every text colour with the backgrounds it is drawn on, so a
# test can hold each pair to WCAG 2 AA: 4.5:1 for body text, 3:1 for large
# text (LARGE_TEXT_PX bold and up). Backgrounds with alpha are judged over the
# brightest felt, the worst case under a panel. Disabled-button text is left
# out on purpose: WCAG exempts inactive controls, and it must look inactive.

#: The smallest bold pixel size WCAG counts as large text (14 pt bold).
LARGE_TEXT_PX = 18.66

#: (what it is, text colour, background colour, large text only)
TEXT_ON_BACKGROUNDS: tuple[tuple[str, tuple[int, ...], tuple[int, ...], bool], ...] = (
    *(
        (f"{name} on a panel", colour, background, False)
        for name, colour in (
            ("text", TEXT),
            ("dim text", TEXT_DIM),
            ("accent", ACCENT),
            ("title", PANEL_TITLE),
            ("good", GOOD),
            ("bad", BAD),
            ("warning", WARNING),
            ("team 1", TEAM_COLOURS[0]),
            ("team 2", TEAM_COLOURS[1]),
        )
        for background in (PANEL, PANEL_TOP, PANEL_BOTTOM, INPUT_BG)
    ),
    ("warning on a warning strip", WARNING, WARNING_BG, False),
    ("text on a warning strip", TEXT, WARNING_BG, False),
    *(
        ("button text", TEXT, background, False)
        for background in (
            BUTTON,
            BUTTON_HOVER,
            BUTTON_PRESSED,
            BUTTON_SELECTED,
            BUTTON_SELECTED_HOVER,
            BUTTON_SELECTED_PRESSED,
            BUTTON_DANGER,
            BUTTON_DANGER_HOVER,
            BUTTON_DANGER_PRESSED,
        )
    ),
    *(
        ("primary button text", TEXT_DARK, background, False)
        for background in (BUTTON_PRIMARY, BUTTON_PRIMARY_HOVER, BUTTON_PRIMARY_PRESSED)
    ),
)
