"""Accessibility of the interface's look: text contrast against WCAG 2 AA,
suit shapes beside suit colours, the UI scale setting and large cards."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from game.rules.cards import parse_card
from game.settings.app_settings import CARD_BACKS, FELTS, Settings, load_settings, settings_from_dict
from game.settings.house_rule_files import ConfigError
from game.ui import theme
from game.ui.app import App
from game.ui.art import card_art, table_art
from game.ui.art.card_art import CardArt
from game.ui.scenes.settings_scene import SettingsScene
from game.ui.table import view
from game.ui.table.layout import compute_layout
from game.ui.widgets import geometry
from game.ui.widgets.suits import suit_colour, suit_icon
from test_ui_crowding import (
    test_no_trick_card_covers_another_cards_corner_indices as trick_cards_leave_corner_indices,
    test_the_trick_stays_clear_of_the_seats_name_plates as trick_clears_the_plates,
)
from test_ui_table import test_layout_keeps_everything_on_screen_and_apart as layout_keeps_everything_apart
from test_ui_text_fit import _misfits, app, audit, dialogs, screens, tables  # noqa: F401  (fixtures, found by name)
from ui_states import PreviewApp, as_app, preview_table_view, window_for_module

display = window_for_module((800, 600))


def _channel(value: int) -> float:
    value_01 = value / 255
    return value_01 / 12.92 if value_01 <= 0.03928 else ((value_01 + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: tuple[int, ...] | pygame.Color) -> float:
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


def _all_pairs(felt: table_art.FeltLook) -> list[tuple[str, tuple[int, ...], tuple[int, ...], bool]]:
    # Text drawn on the felt itself (floating scores, titles) and on the name plates.
    extra = [
        ("text on the felt", theme.TEXT, felt.centre, False),
        ("text on the felt edge", theme.TEXT, felt.edge, False),
    ]
    for plate in (view.PLATE_TOP, view.PLATE_BOTTOM):
        extra += [
            ("plate name", theme.TEXT, plate, False),
            ("plate accent", theme.ACCENT, plate, False),
            ("plate dim", theme.TEXT_DIM, plate, False),
        ]
    for plate in (view.TURN_PLATE_TOP, view.TURN_PLATE_BOTTOM):
        extra += [("turn plate name", view.GOLD, plate, False), ("turn plate info", view.TURN_PLATE_INFO, plate, False)]
    return [*theme.TEXT_ON_BACKGROUNDS, *extra]


# Every pair of text and background, over every felt a player can choose.
THEMED_PAIRS = [(name, *pair) for name, felt in table_art.FELT_LOOKS.items() for pair in _all_pairs(felt)]


@pytest.mark.parametrize(
    "felt, what, text, background, large", THEMED_PAIRS, ids=lambda v: v if isinstance(v, str) else ""
)
def test_theme_text_meets_wcag_aa(
    felt: str, what: str, text: tuple[int, ...], background: tuple[int, ...], large: bool
) -> None:
    # Translucent panels are judged over the felt's centre: its lightest part, the worst case under them.
    opaque = composite(background, table_art.FELT_LOOKS[felt].centre)
    ratio = contrast_ratio(text, opaque)
    needed = 3.0 if large else 4.5
    assert ratio >= needed, f"{felt} felt, {what}: {text} on {opaque} is {ratio:.2f}:1, needs {needed}:1"


def test_every_felt_a_player_can_choose_is_drawn_and_held_to_the_contrast_test() -> None:
    assert tuple(table_art.FELT_LOOKS) == FELTS and len(FELTS) >= 3
    assert {pair[0] for pair in THEMED_PAIRS} == set(FELTS)
    assert table_art.FELT_LOOKS[Settings().felt].centre == (46, 128, 74), "the default keeps the classic green"


def test_a_felt_too_light_for_white_text_fails_the_contrast_test() -> None:
    # The check itself: a pale felt is refused.
    pale = table_art.FeltLook((120, 170, 130), (60, 100, 70), "baize")
    text, background = theme.TEXT, pale.centre
    assert contrast_ratio(text, composite(background, pale.centre)) < 4.5


@pytest.mark.parametrize("felt", FELTS)
def test_a_felts_cloth_never_lightens_it_past_its_centre(felt: str) -> None:
    # The contrast test judges each felt by its centre: the drawn cloth (without the faint
    # grain every felt shares) must have no pixel lighter than that.
    look = table_art.FELT_LOOKS[felt]
    drawn = table_art._render_felt((320, 180), look, grain=False)
    lightest = max(relative_luminance(drawn.get_at((x, y))) for x in range(0, 320, 3) for y in range(0, 180, 3))
    assert lightest <= relative_luminance(look.centre) * 1.02
    # ... and the cloth shows: the felt is not one flat gradient under another name.
    plain = table_art._render_felt((320, 180), table_art.FeltLook(look.centre, look.edge, "baize"), grain=False)
    differing = sum(drawn.get_at((x, y)) != plain.get_at((x, y)) for x in range(0, 64) for y in range(0, 64))
    assert (differing > 300) == (look.cloth != "baize")


# --------------------------------------------------------------------------
# Card backs: every back has the same white margin, which stands out from every
# felt (WCAG's 3:1 for the edge of a graphic), and the backs are different
# designs, not one pattern in other colours.


def _grey(surface: pygame.Surface) -> list[float]:
    """The luminance of each pixel of a back's pattern (inside the white margin every back shares)."""
    inset_x, inset_y = surface.get_width() // 8, surface.get_height() // 8
    return [
        relative_luminance(surface.get_at((x, y)))
        for x in range(inset_x, surface.get_width() - inset_x)
        for y in range(inset_y, surface.get_height() - inset_y)
    ]


def _correlation(first: list[float], second: list[float]) -> float:
    mean_a, mean_b = sum(first) / len(first), sum(second) / len(second)
    cov = sum((a - mean_a) * (b - mean_b) for a, b in zip(first, second))
    spread_a = sum((a - mean_a) ** 2 for a in first) ** 0.5
    spread_b = sum((b - mean_b) ** 2 for b in second) ** 0.5
    return cov / (spread_a * spread_b)


def test_every_back_a_player_can_choose_is_drawn() -> None:
    assert len(CARD_BACKS) >= 3 and Settings().card_back == "lattice"
    for name in CARD_BACKS:
        assert CardArt(60, back=name).back().get_size() == (60, 84)
    with pytest.raises(ValueError, match="no card back named"):
        CardArt(60, back="paisley")


@pytest.mark.parametrize("back", CARD_BACKS)
@pytest.mark.parametrize("felt", FELTS)
def test_every_back_stands_out_from_every_felt(back: str, felt: str) -> None:
    image = CardArt(90, back=back).back()
    margin = image.get_at((image.get_width() // 2, 3))[:3]  # inside the border, outside the pattern
    look = table_art.FELT_LOOKS[felt]
    for cloth in (look.centre, look.edge):
        assert contrast_ratio(margin, cloth) >= 3.0, f"{back} on {felt}: {margin} against {cloth}"


def test_the_backs_are_different_designs() -> None:
    # Compared in grey (a recolouring of one design would still correlate strongly) and in colour.
    images = {name: CardArt(60, back=name).back() for name in CARD_BACKS}
    greys = {name: _grey(image) for name, image in images.items()}
    for index, first in enumerate(CARD_BACKS):
        for second in CARD_BACKS[index + 1 :]:
            assert _correlation(greys[first], greys[second]) < 0.6, f"{first} and {second} look alike"
            a, b = (pygame.image.tobytes(images[name], "RGB") for name in (first, second))
            mean_difference = sum(abs(x - y) for x, y in zip(a, b)) / len(a)
            assert mean_difference > 30, f"{first} and {second} differ by {mean_difference:.0f} a channel"


def test_a_recoloured_back_counts_as_the_same_design() -> None:
    # The check itself: the lattice with its colours inverted correlates (negatively) in full.
    image = CardArt(60, back="lattice").back()
    inverted = image.copy()
    inverted.blit(image, (0, 0))
    for x in range(inverted.get_width()):
        for y in range(inverted.get_height()):
            red, green, blue, alpha = inverted.get_at((x, y))
            inverted.set_at((x, y), (blue, red, green, alpha))  # the same design, the channels swapped round
    assert _correlation(_grey(image), _grey(inverted)) > 0.6


def test_the_pair_table_covers_every_button_state() -> None:
    backgrounds = {background for _what, _text, background, _large in theme.TEXT_ON_BACKGROUNDS}
    for state in (
        theme.BUTTON,
        theme.BUTTON_HOVER,
        theme.BUTTON_PRESSED,
        theme.BUTTON_PRIMARY,
        theme.BUTTON_PRIMARY_HOVER,
        theme.BUTTON_PRIMARY_PRESSED,
        theme.BUTTON_DANGER,
        theme.BUTTON_DANGER_HOVER,
        theme.BUTTON_SELECTED_HOVER,
    ):
        assert state in backgrounds


# --------------------------------------------------------------------------
# Suits: colour is never the only cue. Every place that marks a suit with the
# four-colour deck's ink also draws the suit's shape; the check takes the
# pixels in each suit's ink and requires the four pictures to differ in
# outline, which a dot or a tinted patch of ink (colour alone) would not.


def _ink_mask(
    surface: pygame.Surface, ink: tuple[int, int, int], area: pygame.Rect | None = None, tolerance: int = 60
) -> set[tuple[int, int]]:
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
        for second in letters[i + 1 :]:
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
    view = preview_table_view(app)
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
    view = preview_table_view(app)
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
def test_every_dialog_and_screen_fits_its_text_at_each_ui_scale(
    app, tables, audit, display_choices, size: tuple[int, int], percent: int
) -> None:
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
    scene = SettingsScene(as_app(app))
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


# --------------------------------------------------------------------------
# The table's looks in Settings: validated like every setting, chosen on the
# settings screen, and shown on every open screen as soon as they are saved.


def test_felt_and_card_back_are_settings_validated_like_the_others() -> None:
    assert (Settings().felt, Settings().card_back) == ("green", "lattice"), "the defaults keep today's look"
    checked = settings_from_dict({"felt": "red", "card_back": "sunburst"}, "test")
    assert (checked.felt, checked.card_back) == ("red", "sunburst")
    for key, bad in (("felt", "purple"), ("felt", 1), ("card_back", "paisley"), ("card_back", None)):
        with pytest.raises(ConfigError, match=key):
            settings_from_dict({key: bad}, "test")


def _felt_share(surface: pygame.Surface, felt: str, points: list[tuple[int, int]]) -> float:
    """The share of ``points`` where ``surface`` shows felt ``felt`` itself, untouched."""
    cloth = table_art.draw_felt(surface.get_size(), felt)
    return sum(surface.get_at(point) == cloth.get_at(point) for point in points) / len(points)


@pytest.mark.parametrize("under", ["start screen", "table"])
def test_saving_a_felt_and_a_back_redraws_every_open_screen_at_once(tmp_path, under: str) -> None:
    from game.rules.house_rules import make_rules
    from game.session.match import Seat

    app = App(data_dir=str(tmp_path), size=(800, 600), settings=Settings(animation_speed="instant"))
    try:
        if under == "table":
            app.start_match(make_rules("bidwhist"), [Seat(f"P{seat}", "ai:easy") for seat in range(4)], seed=3)
        app.step(1 / 60, [])
        window = pygame.display.get_surface()
        assert window is not None
        points = [(x, y) for x in range(5, 800, 37) for y in range(5, 600, 41)]
        assert _felt_share(window, "green", points) > 0.05 and _felt_share(window, "blue", points) == 0
        before = app.card_art(60)
        settings = SettingsScene(app)
        app.push(settings)
        settings.felt.step(1)
        settings.card_back.step(2)
        assert (settings.draft.felt, settings.draft.card_back) == ("blue", "sunburst")
        # The previews beside the choices show them before they are saved.
        assert pygame.image.tobytes(settings._preview(False, 56), "RGBA") == pygame.image.tobytes(
            CardArt(40, back="sunburst").back(), "RGBA"
        )
        swatch = settings._preview(True, 40)
        assert swatch.get_at((32, 20))[:3] == table_art.felt_swatch((64, 40), "blue").get_at((32, 20))[:3]
        assert swatch.get_at((32, 20))[:3] != table_art.felt_swatch((64, 40), "green").get_at((32, 20))[:3]
        settings.save_button.activate()
        assert app.top_scene() is not settings
        app.step(1 / 60, [])
        assert (app.settings.felt, app.settings.card_back) == ("blue", "sunburst")
        assert load_settings(app.user_paths)[0].felt == "blue"
        assert _felt_share(window, "blue", points) > 0.05 and _felt_share(window, "green", points) == 0
        after = app.card_art(60)
        assert after is not before and after.back_design == "sunburst"
        assert pygame.image.tobytes(after.back(), "RGBA") != pygame.image.tobytes(before.back(), "RGBA")
    finally:
        table_art.set_felt("green")
        app.close(quit_pygame=False)


def test_the_saved_felt_and_back_are_shown_from_the_first_frame(tmp_path) -> None:
    app = App(
        data_dir=str(tmp_path),
        size=(800, 600),
        settings=Settings(animation_speed="instant", felt="red", card_back="tartan"),
    )
    try:
        app.step(1 / 60, [])
        points = [(x, y) for x in range(5, 800, 37) for y in range(5, 600, 41)]
        window = pygame.display.get_surface()
        assert window is not None and _felt_share(window, "red", points) > 0.05
        assert app.card_art(60).back_design == "tartan"
    finally:
        table_art.set_felt("green")
        app.close(quit_pygame=False)
