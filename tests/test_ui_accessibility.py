"""Accessibility of the interface's look: text contrast against WCAG 2 AA,
suit shapes beside suit colours, the UI scale setting and large cards."""

from __future__ import annotations

import os
from typing import Callable, Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
from test_ui_crowding import test_no_trick_card_covers_another_cards_corner_indices as trick_cards_leave_corner_indices  # noqa: E402,E501
from test_ui_crowding import test_the_trick_stays_clear_of_the_seats_name_plates as trick_clears_the_plates  # noqa: E402
from test_ui_table import test_layout_keeps_everything_on_screen_and_apart as layout_keeps_everything_apart  # noqa: E402
from test_ui_text_fit import _misfits, app, audit, dialogs, screens, tables  # noqa: E402,F401
from ui_states import PreviewApp, window_for_module  # noqa: E402

from game.config import ConfigError, Settings, load_settings, settings_from_dict  # noqa: E402
from game.rules.cards import parse_card  # noqa: E402
from game.ui.app import App  # noqa: E402
from game.ui import theme  # noqa: E402
from game.ui.art import card_art, table_art  # noqa: E402
from game.ui.art.card_art import CardArt  # noqa: E402
from game.ui.scenes.settings_scene import SettingsScene  # noqa: E402
from game.ui.table import view  # noqa: E402
from game.ui.table.layout import compute_layout  # noqa: E402
from game.ui.table.view import TableView  # noqa: E402
from game.ui.widgets import geometry  # noqa: E402
from game.ui.widgets.suits import suit_colour, suit_icon  # noqa: E402

display = window_for_module((800, 600))


def _channel(value: int) -> float:
    value_01 = value / 255
    return value_01 / 12.92 if value_01 <= 0.03928 else ((value_01 + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: tuple[int, ...]) -> float:
    red, green, blue = (_channel(c) for c in colour[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def composite(colour: tuple[int, ...], under: tuple[int, ...]) -> tuple[int, int, int]:
    """``colour`` (maybe with alpha) laid over the opaque ``under``."""
    alpha = colour[3] / 255 if len(colour) > 3 else 1.0
    mixed = (round(c * alpha + u * (1 - alpha)) for c, u in zip(colour[:3], under[:3]))
    red, green, blue = mixed
    return (red, green, blue)


def contrast_ratio(first: tuple[int, ...], second: tuple[int, ...]) -> float:
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_contrast_ratio_matches_the_wcag_reference_values() -> None:
    assert contrast_ratio((255, 255, 255), (0, 0, 0)) == pytest.approx(21.0)
    assert contrast_ratio((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)
    assert contrast_ratio((10, 20, 30), (10, 20, 30)) == pytest.approx(1.0)


def _all_pairs() -> list[tuple[str, tuple[int, ...], tuple[int, ...], bool]]:
    # Text drawn on the felt itself (floating scores, titles) and on the name plates.
    extra = [("text on the felt", theme.TEXT, table_art.FELT_CENTRE, False),
             ("text on the felt edge", theme.TEXT, table_art.FELT_EDGE, False)]
    for plate in (view.PLATE_TOP, view.PLATE_BOTTOM):
        extra += [("plate name", theme.TEXT, plate, False), ("plate accent", theme.ACCENT, plate, False),
                  ("plate dim", theme.TEXT_DIM, plate, False)]
    for plate in (view.TURN_PLATE_TOP, view.TURN_PLATE_BOTTOM):
        extra += [("turn plate name", view.GOLD, plate, False), ("turn plate info", view.TURN_PLATE_INFO, plate, False)]
    return [*theme.TEXT_ON_BACKGROUNDS, *extra]


@pytest.mark.parametrize("what, text, background, large", _all_pairs(), ids=lambda v: v if isinstance(v, str) else "")
def test_theme_text_meets_wcag_aa(what: str, text: tuple[int, ...], background: tuple[int, ...],
                                  large: bool) -> None:
    # Translucent panels are judged over the brightest felt: the worst case under them.
    opaque = composite(background, table_art.FELT_CENTRE)
    ratio = contrast_ratio(text, opaque)
    needed = 3.0 if large else 4.5
    assert ratio >= needed, f"{what}: {text} on {opaque} is {ratio:.2f}:1, needs {needed}:1"


def test_the_pair_table_covers_every_button_state() -> None:
    backgrounds = {background for _what, _text, background, _large in theme.TEXT_ON_BACKGROUNDS}
    for state in (theme.BUTTON, theme.BUTTON_HOVER, theme.BUTTON_PRESSED, theme.BUTTON_PRIMARY,
                  theme.BUTTON_PRIMARY_HOVER, theme.BUTTON_PRIMARY_PRESSED, theme.BUTTON_DANGER,
                  theme.BUTTON_DANGER_HOVER, theme.BUTTON_SELECTED_HOVER):
        assert state in backgrounds


# --------------------------------------------------------------------------
# Suits: colour is never the only cue. Every place that marks a suit with the
# four-colour deck's ink also draws the suit's shape; the check takes the
# pixels in each suit's ink and requires the four pictures to differ in
# outline, which a dot or a tinted patch of ink (colour alone) would not.

def _ink_mask(surface: pygame.Surface, ink: tuple[int, int, int], area: pygame.Rect | None = None,
              tolerance: int = 60) -> set[tuple[int, int]]:
    area = area or surface.get_rect()
    mask = set()
    for x in range(area.left, area.right):
        for y in range(area.top, area.bottom):
            red, green, blue, *_ = surface.get_at((x, y))
            if abs(red - ink[0]) + abs(green - ink[1]) + abs(blue - ink[2]) <= tolerance:
                mask.add((x - area.left, y - area.top))
    return mask


def _assert_four_shapes(masks: dict[str, set[tuple[int, int]]], where: str) -> None:
    for letter, mask in masks.items():
        assert len(mask) >= 12, f"{where}: almost no {letter} ink drawn"
    letters = sorted(masks)
    for i, first in enumerate(letters):
        for second in letters[i + 1:]:
            a, b = masks[first], masks[second]
            differ = len(a ^ b) / len(a | b)
            assert differ > 0.2, f"{where}: {first} and {second} have the same outline (only {differ:.0%} differs)"


def _four_colour_ink(letter: str) -> tuple[int, int, int]:
    red, green, blue = card_art.FOUR_COLOUR[letter][:3]
    return (red, green, blue)


def test_a_solid_ink_patch_fails_the_shape_check() -> None:
    # The check itself: four discs that differ only in colour are refused.
    masks = {}
    for letter in card_art.SUITS:
        image = pygame.Surface((40, 40))
        image.fill((246, 242, 230))
        pygame.draw.circle(image, _four_colour_ink(letter), (20, 20), 12)
        masks[letter] = _ink_mask(image, _four_colour_ink(letter))
    with pytest.raises(AssertionError):
        _assert_four_shapes(masks, "discs")


@pytest.mark.parametrize("chip", [True, False])
def test_suit_icons_draw_the_suit_shape(chip: bool) -> None:
    # The icons on the trump and contract buttons and the settings preview.
    masks = {}
    for suit, letter in enumerate(card_art.SUITS):
        image = pygame.Surface((48, 48))
        image.fill(theme.BUTTON)
        suit_icon(suit, four_colour=True, chip=chip)(image, image.get_rect(), theme.TEXT)
        masks[letter] = _ink_mask(image, suit_colour(suit, four_colour=True))
    _assert_four_shapes(masks, "suit icon")


@pytest.mark.parametrize("size", [(800, 600), (1280, 720)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_trump_indicator_draws_the_suit_shape(size: tuple[int, int]) -> None:
    app = PreviewApp(size)
    app.settings.four_colour_deck = True
    view = TableView(app)
    layout = compute_layout(size, 4, 0)
    masks = {}
    for suit, letter in enumerate(card_art.SUITS):
        image = view._render_indicator(layout.indicator_rect, layout, [], suit, -1, True)
        masks[letter] = _ink_mask(image, _four_colour_ink(letter))
    _assert_four_shapes(masks, "trump indicator")


def test_the_turn_up_trump_badge_draws_the_suit_shape() -> None:
    size = (1280, 720)
    app = PreviewApp(size)
    app.settings.four_colour_deck = True
    view = TableView(app)
    layout = compute_layout(size, 4, 0)
    wizard = parse_card("WZ")
    plain = view._render_indicator(layout.indicator_rect, layout, [], -1, wizard, False)
    masks = {}
    for suit, letter in enumerate(card_art.SUITS):
        image = view._render_indicator(layout.indicator_rect, layout, [], suit, wizard, False)
        ink = _four_colour_ink(letter)
        masks[letter] = {point for point in _ink_mask(image, ink) if image.get_at(point) != plain.get_at(point)}
    _assert_four_shapes(masks, "turn-up trump badge")


def test_four_colour_card_indices_draw_the_suit_shape() -> None:
    # A card's corner index (rank over suit) is what shows in a fanned hand.
    art = CardArt(90, four_colour=True)
    index_w, index_h = art.corner_index_size()
    masks = {}
    for letter in card_art.SUITS:
        face = art.face(f"5{letter}")
        masks[letter] = _ink_mask(face, _four_colour_ink(letter), pygame.Rect(0, 0, index_w, index_h))
    # The rank "5" is the same glyph in every suit; what all four share is taken out.
    shared = set.intersection(*masks.values())
    _assert_four_shapes({letter: mask - shared for letter, mask in masks.items()}, "card index")


# --------------------------------------------------------------------------
# The UI scale and large cards. The text-fit audit of test_ui_text_fit draws
# every dialog (over a real table, so the table is drawn too) and every screen
# around the games and records each string cut short or drawn outside its box.

SCALE_SIZES = [(800, 600), (1280, 720), (1280, 1024)]


@pytest.fixture
def display_choices() -> Iterator[Callable[[int, bool], None]]:
    """Set the player's UI scale and card size for one test; the defaults come back after."""
    yield geometry.set_display_choices
    geometry.set_display_choices(100, False)


def test_the_ui_scale_grows_the_layout_where_the_window_has_room(display_choices) -> None:
    room = 1280 / geometry.ROOM_PER_UNIT[0]  # a 1280x1024 window is bound by its width
    for percent, expected in ((100, 1.0), (110, 1.1), (150, room), (200, room)):
        display_choices(percent, False)
        assert geometry.ui_scale((1280, 1024)) == pytest.approx(expected)
    # The generic rule (for screens that measure no room of their own) takes a 16:9 window's
    # height as full; the screens that measure their own room grow there (test_ui_scale).
    assert geometry.ui_scale((1280, 720)) == pytest.approx(1.0)
    display_choices(150, False)
    assert geometry.ui_scale((2560, 1440)) == pytest.approx(geometry.MAX_SCALE)
    table_font = compute_layout((1280, 720), 4, 0).font_unit
    display_choices(100, False)
    assert table_font > compute_layout((1280, 720), 4, 0).font_unit


@pytest.mark.parametrize("percent", [100, 150, 200])
@pytest.mark.parametrize("size", SCALE_SIZES + [(1920, 1080)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_ui_scale_never_passes_the_windows_room(display_choices, size: tuple[int, int], percent: int) -> None:
    display_choices(percent, False)
    scale = geometry.ui_scale(size)
    assert geometry.window_scale(size) <= scale <= geometry.scale_room(size)
    assert scale <= geometry.window_scale(size) * percent / 100 + 1e-9


@pytest.mark.parametrize("percent", [100, 150, 200])
@pytest.mark.parametrize("size", SCALE_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_every_dialog_and_screen_fits_its_text_at_each_ui_scale(app, tables, audit, display_choices,
                                                               size: tuple[int, int], percent: int) -> None:
    display_choices(percent, percent == 200)
    for table in tables.values():
        table.on_resize(size)
    problems = _misfits(app, audit, [*dialogs(app, tables), *screens(app)], size)
    assert not problems, f"at {percent}% and {size}:\n{problems}"


@pytest.mark.parametrize("size", SCALE_SIZES + [(1920, 1080)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_large_cards_are_larger_in_the_hand_and_on_the_table(display_choices, size: tuple[int, int]) -> None:
    display_choices(100, False)
    usual = compute_layout(size, 4, 0)
    display_choices(100, True)
    large = compute_layout(size, 4, 0)
    assert large.hand_card_w >= usual.hand_card_w * 1.15
    assert large.trick_card_w > usual.trick_card_w
    # Within the layout's room: the hand keeps to the bottom fifth of the window.
    assert large.hand_card_h <= size[1] * 0.22


@pytest.mark.parametrize("percent, large", [(200, False), (100, True), (200, True)])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_table_still_fits_at_the_largest_choices(display_choices, percent: int, large: bool, players: int) -> None:
    # The table's own layout checks, again with the UI scale and large cards on.
    display_choices(percent, large)
    for size in [(800, 600), (1280, 720), (1920, 1080), (1024, 1366), (3000, 700)]:
        for hint in (False, True):
            layout_keeps_everything_apart(players, size, hint)
    for size in [(800, 600), (1280, 720), (1920, 1080)]:
        trick_cards_leave_corner_indices(players, size)
    if players >= 4:
        trick_clears_the_plates(players)


def test_ui_scale_and_large_cards_are_settings_validated_like_the_others() -> None:
    assert Settings().ui_scale_percent == 100 and Settings().large_cards is False
    checked = settings_from_dict({"ui_scale_percent": 175, "large_cards": True}, "test")
    assert (checked.ui_scale_percent, checked.large_cards) == (175, True)
    for bad in (99, 201, 150.0, "150", True):
        with pytest.raises(ConfigError, match="ui_scale_percent"):
            settings_from_dict({"ui_scale_percent": bad}, "test")
    with pytest.raises(ConfigError, match="large_cards"):
        settings_from_dict({"large_cards": "yes"}, "test")


def test_the_settings_dialog_steps_the_ui_scale_by_a_quarter_and_toggles_large_cards() -> None:
    app = PreviewApp((800, 600))
    scene = SettingsScene(app)
    assert scene.ui_scale.choices == [100, 125, 150, 175, 200]
    seen = [scene.draft.ui_scale_percent]
    for _ in range(5):
        if scene.ui_scale.can_step(1):
            scene.ui_scale.step(1)
        seen.append(scene.draft.ui_scale_percent)
    assert seen == [100, 125, 150, 175, 200, 200]
    scene.large_cards.activate()
    assert scene.draft.large_cards is True


def test_saving_the_settings_lays_every_scene_out_at_the_new_scale(tmp_path, display_choices) -> None:
    app = App(data_dir=str(tmp_path), size=(1280, 1024), settings=Settings(animation_speed="instant"))
    try:
        before = app.top_scene()
        assert before is not None
        usual = geometry.ui_scale(app.size)
        app.settings.ui_scale_percent = 200
        app.settings.large_cards = True
        app.save_settings()
        assert geometry.ui_scale(app.size) > usual and geometry.CHOICES.large_cards
        assert load_settings(app.user_paths)[0].ui_scale_percent == 200
    finally:
        app.close(quit_pygame=False)
