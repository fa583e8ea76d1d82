"""The UI scale setting at every window size: each screen and dialog grows with it as
far as its own layout has room, nothing leaves the window or overlaps, and the
screens whose rows no longer fit the window scroll (wheel, Page Up / Page Down,
the scrollbar, and the focused control kept in view) without costing frames."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from test_stats import bidwhist_matches, write  # noqa: F401  (a fixture, found by name)
from scene_checks import top
from ui_states import NAMES4, PreviewApp, as_app, discard_state, finished_match, window_for_module

from game.settings.app_settings import Settings
from game.session.match import Match, Seat
from game.rules import get_game, make_rules
from game.ui.app import App
from game.persistence.replay_timeline import ReplayTimeline
from game.rules import TrickRecord
from game.rules.events import TrickWon
from game.rules.actions import predict
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.cover_scene import WINDOW_MARGIN, CoverScene
from game.persistence.history_codec import score_history
from game.ui.dialogs.end_scene import EndScene
from game.ui.dialogs.kitty_dialog import KittyDialog
from game.ui.dialogs.leave_dialog import LeaveDialog
from game.ui.dialogs.score_pad import ScorePad
from game.ui.dialogs.table_menu import TableMenu
from game.ui.scenes.rules_editor import RulesEditor
from game.ui.scenes.replay_scene import ReplayScene
from game.ui.scenes.rules_help_scene import RulesHelpScene
from game.ui.scenes.settings_scene import SettingsScene
from game.ui.scenes.start_scene import StartScene
from game.ui.scenes.stats_scene import StatsScene
from game.session.ai_worker import InlineAiRunner
from game.ui.table.hand_log import hand_log
from game.ui.table import layout as layout_module
from game.ui.table.layout import compute_layout
from game.ui.table.review import HandLogDialog, LastTrickDialog
from game.session.local import local_session
from game.ui.table.scene import TableScene
from game.ui.text import t
from game.ui.widgets import geometry
from game.ui.widgets.text import draw_text_fit
from game.ui.widgets.scroll import ScrollingDialog, ScrollView

display = window_for_module((800, 600))

SIZES = [(1280, 720), (1920, 1080), (800, 600)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]


@pytest.fixture
def choices() -> Iterator[Callable[[int], None]]:
    """Set the player's UI scale for one test; 100% comes back after."""
    yield lambda percent: geometry.set_display_choices(percent, False)
    geometry.set_display_choices(100, False)


def _noop(*_args) -> None:
    return None


def key(code: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode="")


def wheel(y: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, flipped=False, precise_x=0.0, precise_y=float(y))


def mouse(kind: int, pos: tuple[int, int]) -> pygame.event.Event:
    if kind == pygame.MOUSEMOTION:
        return pygame.event.Event(kind, pos=pos, rel=(0, 0), buttons=(1, 0, 0))
    return pygame.event.Event(kind, pos=pos, button=1)


# ---------------------------------------------------------------------------- the size factor


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_at_100_percent_every_room_gives_the_windows_own_factor(choices, size) -> None:
    # Whatever room a screen measures, 100% lays it out as it always was.
    choices(100)
    own = geometry.window_scale(size)
    for room in (0.1, own, 1.3, 5.0, None):
        assert geometry.ui_scale(size, room) == pytest.approx(own)


def test_a_screens_own_room_lets_the_scale_grow_a_16_to_9_window(choices) -> None:
    # The bug: in a 16:9 window the generic room rule left no growth at all.
    choices(150)
    assert geometry.ui_scale((1920, 1080), None) == pytest.approx(1.5)
    assert geometry.ui_scale((1920, 1080), 3.0) == pytest.approx(2.25)
    assert geometry.ui_scale((1920, 1080), 1.8) == pytest.approx(1.8)  # as far as it fits
    assert geometry.ui_scale((1920, 1080), 1.0) == pytest.approx(1.5)  # never below the window's own
    assert geometry.composition_room((1264, 704), (620, 300)) == pytest.approx(1264 / 620)
    assert geometry.width_room((1280, 720), 700) == pytest.approx(1264 / 700)
    assert geometry.ui_growth(1.2) == pytest.approx(1.2) and geometry.ui_growth(0.5) == 1.0


# ---------------------------------------------------------------------------- every screen grows


def _settings(app):
    return SettingsScene(as_app(app)), lambda scene: scene.language.rect.height


def _rules_editor(app):
    return RulesEditor(app, "bidwhist", {}, {}, 4, _noop), lambda scene: scene.rows[0][1].rect.height


def _rules_help(app):
    return (RulesHelpScene(as_app(app), get_game("bidwhist"), make_rules("bidwhist"), 4), lambda scene: scene.body_size)


def _start(app):
    return StartScene(as_app(app)), lambda scene: scene.start_button.rect.height


def _leave(app):
    return (
        LeaveDialog(app, "The game in progress will be lost.", "Leave", _noop),
        lambda scene: scene.stay_button.rect.height,
    )


def _menu(app):
    return TableMenu(app, _noop, _noop, _noop, _noop, _noop), lambda scene: scene.buttons[0].rect.height


def _score_pad(app):
    match = finished_match("bidwhist", seed=8)
    return ScorePad(app, score_history(match.history()), NAMES4, _noop), lambda scene: scene.row_h


def _end(app):
    match = finished_match("bidwhist", seed=8)
    end = EndScene(app, score_history(match.history()), NAMES4, _noop, _noop)
    return end, lambda scene: scene.play_again.rect.height


GROWING = {
    "settings": _settings,
    "rules editor": _rules_editor,
    "rules help": _rules_help,
    "start screen": _start,
    "leave dialog": _leave,
    "table menu": _menu,
    "score pad": _score_pad,
    "game over": _end,
}


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("name", list(GROWING))
def test_each_screen_grows_its_type_and_controls_with_the_setting(choices, name, size) -> None:
    app = PreviewApp(size)
    measured = []
    for percent in (100, 150, 200):
        choices(percent)
        scene, measure = GROWING[name](app)
        scene.relayout(size)
        scene.draw(pygame.Surface(size))
        measured.append(measure(scene))
    usual, larger, largest = measured
    assert larger > usual, f"{name} at {size}: {measured}"
    assert largest >= larger


def window_rect(size: tuple[int, int]) -> pygame.Rect:
    return pygame.Rect(0, 0, *size)


def _inside(rect: pygame.Rect, area: pygame.Rect) -> bool:
    return area.contains(rect)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("name", ["leave dialog", "table menu", "game over", "score pad", "start screen"])
@pytest.mark.parametrize("percent", [150, 200])
def test_fixed_dialogs_stay_in_the_window_with_their_controls_apart(choices, name, size, percent) -> None:
    app = PreviewApp(size)
    choices(percent)
    scene, _ = GROWING[name](app)
    scene.relayout(size)
    window = pygame.Rect(0, 0, *size)
    # The start screen grows past the window's height on a page that scrolls, as wide as the window.
    area = pygame.Rect(0, 0, *scene.page_size) if name == "start screen" else scene.panel_rect
    if name == "start screen":
        assert scene.page_size[0] == size[0]
    assert _inside(scene.panel_rect, window)
    widgets = [widget for widget in scene.focus.widgets if widget.visible]
    for index, widget in enumerate(widgets):
        assert _inside(widget.rect, area), f"{name}: {widget.rect} outside {area}"
        others = [other.rect for other in widgets[index + 1 :]]
        assert widget.rect.collidelist(others) < 0, f"{name}: controls overlap"


def test_the_start_screen_grows_past_the_window_and_scrolls(choices) -> None:
    # The bug: the start screen filled the window at 100%, so at 200% its text grew only 1.05
    # times. Now it grows on a page taller than the window, which scrolls; at 100% it is laid
    # out on the window itself, as before.
    size = (1280, 720)
    app = PreviewApp(size)
    choices(100)
    usual = StartScene(as_app(app))
    usual.relayout(size)
    assert usual.page_size == size and not usual.scroll.scrolls
    choices(200)
    scene = StartScene(as_app(app))
    scene.relayout(size)
    assert scene.page_size[0] == size[0] and scene.page_size[1] > size[1] and scene.scroll.scrolls
    assert scene.start_button.rect.height >= 1.5 * usual.start_button.rect.height
    window = pygame.Rect(0, 0, *size)
    scene.handle_event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
    assert scene.scroll.offset > 0
    scene.handle_event(key(pygame.K_PAGEUP))
    assert scene.scroll.offset == 0
    scene.handle_event(key(pygame.K_PAGEDOWN))
    assert scene.scroll.offset > 0
    # A click lands on the control drawn under the pointer, on the scrolled page.
    scene.scroll.scroll_to(scene.scroll.max_offset)
    quit_at = scene.quit_button.rect.move(0, -scene.scroll.offset)
    assert window.contains(quit_at)
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=quit_at.center, rel=(0, 0), buttons=(0, 0, 0)))
    assert scene.quit_button.hovered
    # The keyboard's focus is kept in sight: from the bottom, Tab wraps to the first control.
    scene.focus.focus(scene.start_button)
    scene.handle_event(key(pygame.K_TAB))
    first = scene.focus.focused
    assert first is not None and first is not scene.start_button
    assert window.contains(first.rect.move(0, -scene.scroll.offset)), (first.rect, scene.scroll.offset)
    scene.handle_event(key(pygame.K_TAB, pygame.KMOD_SHIFT))
    assert scene.focus.focused is scene.start_button
    assert window.contains(scene.start_button.rect.move(0, -scene.scroll.offset))
    surface = pygame.Surface(size)
    scene.draw(surface)
    assert surface.get_at(scene.scroll.thumb_rect().center)[:3] != surface.get_at((2, 2))[:3]


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> Iterator[dict[str, TableScene]]:
    real_app = App(
        data_dir=str(tmp_path_factory.mktemp("ui-scale")),
        size=(1280, 720),
        settings=Settings(animation_speed="instant", ai_pause_seconds=0.0),
        show_start=False,
    )
    seats = [Seat(name, "human" if seat == 0 else "ai:random") for seat, name in enumerate(NAMES4)]
    match = Match(make_rules("bidwhist"), seats, 3)
    yield {"bidwhist": TableScene(real_app, local_session(match, real_app, ai_runner=InlineAiRunner()))}
    real_app.close(quit_pygame=False)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_dialogs_over_the_table_never_shrink_and_stay_in_their_area(choices, tables, size) -> None:
    # The kitty dialog is measured against the felt below the table's corner panels: it
    # grows where that has room and is never laid out smaller than at 100%.
    app = PreviewApp(size)
    table = tables["bidwhist"]
    scales = []
    for percent in (100, 200):
        choices(percent)
        table.on_resize(size)
        state = discard_state()
        dialog = KittyDialog(as_app(app), state.view(state.current_player), _noop)
        dialog.attach_host(table)
        dialog.relayout(size)
        assert dialog.panel_area(size, wide=True).contains(dialog.panel_rect)
        scales.append(dialog.scale)
    assert scales[1] >= scales[0] == pytest.approx(geometry.window_scale(size))


@pytest.mark.parametrize("percent", [100, 200])
def test_the_kitty_leaves_out_the_corner_panels_it_reaches_over(choices, tables, percent) -> None:
    # The bug: at 200% the kitty reached over the lower part of the grown corner panels, which
    # were drawn cut at its top edge, so a sliver of their clipped text showed above it.
    size = (1280, 720)
    table = tables["bidwhist"]
    choices(percent)
    table.on_resize(size)
    state = discard_state()
    dialog = KittyDialog(table.app, state.view(state.current_player), _noop).attach_host(table)
    table.app.scenes.append(dialog)
    try:
        dialog.relayout(size)
        cover = dialog.panel_rect.inflate(4, 4)
        layout = table._layout_for(size)
        corners = {"contract": layout.indicator_rect, "scores": layout.score_rect}
        drawn: list[str] = []
        view = table.view
        for name, method in (("contract", "_draw_indicator"), ("scores", "_draw_scores")):
            original = getattr(view, method)

            def spy(*args, _name=name, _original=original):
                drawn.append(_name)
                return _original(*args)

            setattr(view, method, spy)
        try:
            table.draw(pygame.Surface(size))
        finally:
            del view._draw_indicator, view._draw_scores
    finally:
        table.app.scenes.remove(dialog)
    reached = {name for name, rect in corners.items() if rect.colliderect(cover)}
    if percent == 200:
        assert reached, "the kitty no longer reaches over the grown corners: this test checks nothing"
    assert not reached & set(drawn), f"corner panels drawn cut at the kitty's edge: {reached & set(drawn)}"
    assert set(corners) - reached <= set(drawn)


@pytest.mark.parametrize("percent", [100, 200])
def test_the_message_of_an_undo_stays_in_sight_of_the_reopened_bidding_panel(tmp_path, percent) -> None:
    # The bug: at 200% the Wizard bidding panel, opened again by an undo, covered the table's
    # "Taken back: your move again" over the player's plate.
    size = (1280, 720)
    settings = Settings(animation_speed="instant", ai_pause_seconds=0.0, ui_scale_percent=percent)
    app = App(data_dir=str(tmp_path), size=size, settings=settings)
    try:
        seats = [Seat(name, "human" if seat == 0 else "ai:random") for seat, name in enumerate(NAMES4)]
        table = TableScene(app, local_session(Match(make_rules("wizard"), seats, 5), app, ai_runner=InlineAiRunner()))
        app.replace(table)

        def run_until(done) -> None:
            for _ in range(2000):
                if done():
                    return
                app.step(1 / 60, [])
            raise AssertionError(f"not reached; {type(app.scenes[-1]).__name__} on top")

        run_until(lambda: isinstance(app.scenes[-1], BiddingPanel))
        bidding = top(app, BiddingPanel)
        bidding.finish(bidding.on_action, predict(0))
        run_until(lambda: app.scenes[-1] is table and table.input_enabled())
        table.request_undo()
        run_until(lambda: isinstance(app.scenes[-1], BiddingPanel))
        app.step(1 / 60, [])
        panel = top(app, BiddingPanel)
        layout = table.layout
        pill = pygame.Rect(0, layout.message_top, size[0], 2 * (layout.message_centre[1] - layout.message_top))
        over_the_table = table.message == t("undo.done") and not panel.panel_rect.colliderect(pill)
        in_the_panels_strip = panel.toast.active and panel.toast.text == t("undo.done")
        assert over_the_table or in_the_panels_strip, (table.message, panel.panel_rect, pill, panel.toast.text)
    finally:
        app.close(quit_pygame=False)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (2560, 1440)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_table_grows_its_type_as_far_as_its_layout_fits(choices, size) -> None:
    choices(100)
    usual = compute_layout(size, 4, 0)
    choices(200)
    grown = compute_layout(size, 4, 0)
    assert usual.grow == 1.0
    assert grown.font_unit > usual.font_unit  # the old type cap of 30 px no longer stops a 1080p table
    if size == (2560, 1440):
        assert grown.grow > 1.25  # the fixed 125% cap is gone: the layout's own fit check decides


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_a_larger_ui_scale_keeps_the_large_cards(size) -> None:
    # The bug: the layout cut the UI scale and the large cards back together, so wherever
    # 200% did not fit whole the cards fell back to their usual size.
    try:
        geometry.set_display_choices(100, False)
        usual = compute_layout(size, 4, 0, hint_button=True).hand_card_w
        geometry.set_display_choices(100, True)
        large = compute_layout(size, 4, 0, hint_button=True).hand_card_w
        assert large > usual
        for percent in (150, 200):
            geometry.set_display_choices(percent, True)
            grown = compute_layout(size, 4, 0, hint_button=True)
            assert grown.hand_card_w == large, (percent, grown.hand_card_w, large)
            assert grown.grow > 1.0  # and the type still grows as far as it fits beside them
    finally:
        geometry.set_display_choices(100, False)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_grown_table_leaves_its_dialogs_the_felt_between_the_corners(choices, size, players) -> None:
    # The bidding panel and the trump chooser open between the two upper corner panels: the
    # table grows its corners only into felt they do not need, and never past their type.
    choices(100)
    usual = compute_layout(size, players, 0, hint_button=True)
    need = round(layout_module.DIALOG_FELT_WIDTH * geometry.window_scale(size))
    choices(200)
    grown = compute_layout(size, players, 0, hint_button=True)
    felt = grown.score_rect.left - grown.indicator_rect.right
    assert felt >= min(usual.score_rect.left - usual.indicator_rect.right, need)
    # The corners' type grows with the table's (it stayed at 10 px while the rest grew); where it
    # outgrows their width, a team's names take a line of their own, so they keep their room.
    assert grown.corner_font_unit == pytest.approx(grown.font_unit)
    assert grown.corner_font_unit >= usual.corner_font_unit
    if (
        players == 4
        and grown.corner_font_unit * usual.score_rect.width > usual.corner_font_unit * grown.score_rect.width
    ):
        assert grown.stacked_scores


# ---------------------------------------------------------------------------- scrolling


def _scrolling(app, name: str) -> ScrollingDialog:
    scene = _settings(app)[0] if name == "settings" else _rules_editor(app)[0]
    assert isinstance(scene, ScrollingDialog)
    return scene


def _check_rows(scene: ScrollingDialog, size: tuple[int, int]) -> None:
    """Every row control wholly inside the viewport or hidden by it, clear of the fixed controls."""
    viewport = scene.scroll.viewport
    window = pygame.Rect(0, 0, *size)
    assert window.contains(scene.panel_rect) and scene.panel_rect.contains(viewport)
    assert scene.panel_rect.contains(scene.scroll.track_rect())
    fixed = [widget.rect for widget in scene.focus.widgets if widget not in scene.row_widgets()]
    assert not viewport.collidelist(fixed) >= 0, "the rows' viewport reaches a fixed control"
    rows = [row for _, row in scene.scrolled_rows()]
    for index, row in enumerate(rows):
        assert row.collidelist(rows[index + 1 :]) < 0, "rows overlap"


def _laid_out_at_200(choices, name: str, size: tuple[int, int]) -> ScrollingDialog:
    """The settings or the rules editor at 200%, laid out for ``size``."""
    choices(200)
    scene = _scrolling(PreviewApp(size), name)
    scene.relayout(size)
    return scene


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("name", ["settings", "rules editor"])
def test_rows_taller_than_the_window_scroll_to_the_last_row(choices, name, size) -> None:
    scene = _laid_out_at_200(choices, name, size)
    surface = pygame.Surface(size)
    scene.draw(surface)
    assert scene.scroll.scrolls, f"{name} at 200% fits {size} whole: nothing to check"
    _check_rows(scene, size)
    last = scene.scrolled_rows()[-1][1]
    assert not scene.scroll.viewport.contains(last)
    for _ in range(40):
        scene.handle_event(key(pygame.K_PAGEDOWN))
    last = scene.scrolled_rows()[-1][1]
    assert scene.scroll.offset == scene.scroll.max_offset > 0
    assert scene.scroll.viewport.contains(last)
    _check_rows(scene, size)
    scene.handle_event(key(pygame.K_PAGEUP))
    assert scene.scroll.offset < scene.scroll.max_offset
    scene.handle_event(wheel(1))
    scene.handle_event(wheel(1))
    scene.handle_event(key(pygame.K_PAGEUP))
    scene.handle_event(key(pygame.K_PAGEUP))
    assert scene.scroll.offset == 0
    scene.handle_event(wheel(-1))
    assert scene.scroll.offset > 0
    scene.draw(surface)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("name", ["settings", "rules editor"])
def test_the_focused_control_is_always_in_the_visible_rows(choices, name, size) -> None:
    scene = _laid_out_at_200(choices, name, size)
    rows = scene.row_widgets()
    seen = set()
    for _ in range(len(scene.focus.widgets) * 2):
        scene.handle_event(key(pygame.K_TAB))
        focused = scene.focus.focused
        assert focused is not None
        if focused in rows:
            seen.add(id(focused))
            assert scene.scroll.viewport.contains(focused.rect), f"{name}: focus scrolled out of view"
    assert len(seen) == len(rows)
    # Shift+Tab from the first control wraps to Save/Done, then back up into the rows.
    for _ in range(len(scene.focus.widgets) + 2):
        scene.handle_event(key(pygame.K_TAB, pygame.KMOD_SHIFT))
        focused = scene.focus.focused
        if focused in rows:
            assert scene.scroll.viewport.contains(focused.rect)
    # The arrows move the focus down the rows too, and the view follows.
    scene.focus.focus(rows[0])
    scene.scroll.scroll_to(0)
    for _ in range(len(rows)):
        scene.handle_event(key(pygame.K_DOWN))
        if scene.focus.focused in rows:
            assert scene.scroll.viewport.contains(scene.focus.focused.rect)


def test_the_scrollbar_drags_and_pages_and_the_pointer_misses_hidden_rows(choices) -> None:
    choices(200)
    size = (800, 600)
    app = PreviewApp(size)
    scene = SettingsScene(as_app(app))
    scene.relayout(size)
    view = scene.scroll
    thumb = view.thumb_rect()
    track = view.track_rect()
    # Drag the thumb to the foot of the track: the rows scroll to their end.
    scene.handle_event(mouse(pygame.MOUSEBUTTONDOWN, thumb.center))
    scene.handle_event(mouse(pygame.MOUSEMOTION, (thumb.centerx, track.bottom + 50)))
    scene.handle_event(mouse(pygame.MOUSEBUTTONUP, (thumb.centerx, track.bottom + 50)))
    assert view.offset == view.max_offset
    # A click on the track above the thumb pages back up.
    scene.handle_event(mouse(pygame.MOUSEBUTTONDOWN, (track.centerx, track.top + 2)))
    assert 0 <= view.offset < view.max_offset
    # A control scrolled under the buttons' strip cannot be clicked there.
    view.scroll_to(0)
    hidden = next(widget for widget, row in scene.scrolled_rows() if row.top >= view.viewport.bottom)
    below = pygame.Rect(hidden.rect)
    hidden_point = (below.centerx, max(below.top, view.viewport.bottom + 1))
    assert not view.viewport.collidepoint(hidden_point)
    before = scene.draft.large_cards, scene.draft.mute, scene.draft.volume
    scene.handle_event(mouse(pygame.MOUSEBUTTONDOWN, hidden_point))
    scene.handle_event(mouse(pygame.MOUSEBUTTONUP, hidden_point))
    assert (scene.draft.large_cards, scene.draft.mute, scene.draft.volume) == before
    assert hidden.visible and not hidden.hovered  # hidden from the pointer for that one event only


def test_scrolling_costs_no_frames(choices) -> None:
    choices(200)
    size = (800, 600)
    scene = SettingsScene(as_app(PreviewApp(size)))
    surface = pygame.Surface(size)
    for event in (wheel(-1), key(pygame.K_PAGEDOWN), key(pygame.K_TAB)):
        scene.handle_event(event)
        scene.update(1 / 60)
        scene.draw(surface)
        assert scene.wake_in() is None  # asleep until the next input


def test_the_scroll_view_keeps_its_offset_within_the_content() -> None:
    changes = []
    view = ScrollView(on_change=lambda: changes.append(view.offset))
    view.set_geometry(pygame.Rect(0, 0, 100, 200), 1000, 20, 8)
    assert view.max_offset == 800 and view.scrolls
    assert view.scroll_to(5000) and view.offset == 800
    assert not view.scroll_to(900)  # already at the end: no change, no redraw
    view.set_geometry(pygame.Rect(0, 0, 100, 200), 300, 20, 8)
    assert view.offset == 100  # a shorter content never leaves it scrolled past the end
    assert view.scroll_into_view(pygame.Rect(0, -50, 100, 30)) and view.offset < 100
    view.set_geometry(pygame.Rect(0, 0, 100, 400), 300, 20, 8)
    assert view.offset == 0 and not view.scrolls and not view.handle_event(wheel(-1))
    # Told of each change once (the end, then the scroll into view), and of nothing else.
    assert len(changes) == 2 and changes[0] == 800 and changes[1] < 100


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_rules_help_grows_with_the_setting_and_still_scrolls_to_its_end(choices, size) -> None:
    choices(200)
    app = PreviewApp(size)
    helper = RulesHelpScene(as_app(app), get_game("bidwhist"), make_rules("bidwhist"), 4)
    helper.relayout(size)
    assert helper.max_scroll > 0
    for _ in range(200):
        helper.handle_event(key(pygame.K_PAGEDOWN))
    assert helper.scroll == helper.max_scroll
    assert helper.placed[-1] in helper.visible_lines()
    assert pygame.Rect(0, 0, *size).contains(helper.view.track_rect())


# ---------------------------------------------------------------------------- statistics


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_statistics_grow_as_far_as_the_numbers_panel_holds_its_lines(
    choices, tmp_path, bidwhist_matches, size
) -> None:
    write(tmp_path / "histories", "bidwhist", bidwhist_matches)
    app = App(data_dir=str(tmp_path), size=size, settings=Settings(animation_speed="instant"))
    try:
        scales = []
        for percent in (100, 150, 200):
            choices(percent)
            scene = StatsScene(app)
            scene.set_game("bidwhist")
            scene.relayout(size)
            surface = pygame.Surface(size)
            scene.draw(surface)
            scales.append(scene.scale)
            # Past the window's room the screen grows on a page that scrolls, as wide as the window.
            page = pygame.Rect(0, 0, *scene.page_size)
            assert page.width == size[0] and (percent > 100 or page.height == size[1])
            for widget in scene.focus.widgets:
                assert page.contains(widget.rect)
            for chart in scene.geometry.values():
                assert page.contains(chart.rect)
            if percent == 200 and size == (1280, 720):
                # The bug: the screen kept to the window and grew its text 1.05 times. Now the
                # page scrolls: the wheel, Page Up / Page Down, and the focus kept in view.
                assert scene.scroll.scrolls
                scene.handle_event(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
                assert scene.scroll.offset > 0
                scene.handle_event(key(pygame.K_PAGEUP))
                assert scene.scroll.offset == 0
                scene.focus.focus(scene.game_stepper)
                scene.handle_event(key(pygame.K_TAB))
                assert scene.focus.focused is scene.back_button
                assert window_rect(size).contains(scene.back_button.rect.move(0, -scene.scroll.offset))
                back_at = scene.back_button.rect.move(0, -scene.scroll.offset).center
                scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=back_at, rel=(0, 0), buttons=(0, 0, 0)))
                assert scene.back_button.hovered
        assert scales[0] == pytest.approx(geometry.window_scale(size))
        assert scales[2] >= scales[1] >= scales[0]
        if size != (800, 600):
            assert scales[1] > scales[0]
    finally:
        app.close(quit_pygame=False)


def test_a_row_hovered_then_left_for_the_buttons_no_longer_shows_its_help(choices) -> None:
    choices(200)
    size = (800, 600)
    editor = RulesEditor(as_app(PreviewApp(size)), "bidwhist", {}, {}, 4, _noop)
    editor.relayout(size)
    assert editor.scroll.scrolls
    first_spec, first = editor.rows[0]
    editor.focus.focus(editor.done_button)
    editor.handle_event(mouse(pygame.MOUSEMOTION, first.rect.center))
    assert first.hovered and editor._help_spec() is first_spec
    editor.handle_event(mouse(pygame.MOUSEMOTION, editor.done_button.rect.center))
    assert not first.hovered and editor._help_spec() is None


# ---------------------------------------------------------------------------- replay, looking back, the cover

SIXTEEN_BY_NINE = [(1280, 720), (1920, 1080)]
GROWN = [150, 200]


def _apart(rects: list[pygame.Rect], what: str) -> None:
    for index, rect in enumerate(rects):
        assert rect.collidelist(rects[index + 1 :]) < 0, f"{what} overlap: {rects}"


@pytest.fixture(scope="module")
def bidwhist_game() -> Match:
    return finished_match("bidwhist", seed=8)


@pytest.fixture(scope="module")
def replayed() -> dict[str, Match]:
    """A finished game of each layout of the viewer: four seats round the trick, six in two rows."""
    return {
        "Bid Whist": finished_match("bidwhist", seed=8),
        "Wizard, 6 players": finished_match("wizard", players=6, seed=2),
    }


def _replay(app, match: Match) -> ReplayScene:
    viewer = ReplayScene(app, ReplayTimeline(match.history()))
    viewer.go(viewer.timeline.last)  # the end: the most deals on the pad, the game-over line
    return viewer


@pytest.mark.parametrize("game", ["Bid Whist", "Wizard, 6 players"])
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_replay_viewer_grows_in_16_to_9_windows_and_keeps_everything_apart(choices, replayed, size, game) -> None:
    app = PreviewApp(size)
    window = pygame.Rect(0, 0, *size)
    laid_out = {}
    whole_at_100: dict[str, bool] = {}
    for percent in (100, *GROWN):
        choices(percent)
        viewer = _replay(app, replayed[game])
        viewer.relayout(size)
        viewer.draw(pygame.Surface(size))
        if percent == 100:
            whole_at_100 = viewer._whole_texts(viewer.scale)
        laid_out[percent] = (viewer.scale, viewer.close_button.rect.height, viewer.card_w)
        buttons = [button.rect for button in (*viewer.buttons, viewer.close_button)]
        assert all(window.contains(rect) for rect in buttons)
        _apart(buttons, "the replay's buttons")
        assert window.contains(viewer.table_rect) and window.contains(viewer.pad_rect)
        assert not viewer.table_rect.colliderect(viewer.pad_rect)
        assert min(rect.top for rect in buttons) >= viewer.table_rect.bottom
        blocks = list(viewer.seat_blocks.values())
        assert all(viewer.table_rect.contains(block) for block in blocks)
        _apart(blocks, "the seats' hands")
        # What was whole at 100% is whole grown, and the pad holds its parts one under another.
        whole = viewer._whole_texts(viewer.scale)
        assert all(whole[name] for name, was in whole_at_100.items() if was), whole
        assert viewer._pad_holds(viewer.scale)
    assert laid_out[100][0] == pytest.approx(geometry.window_scale(size))
    if size in SIXTEEN_BY_NINE:
        assert laid_out[150][0] > laid_out[100][0], laid_out
        assert laid_out[150][1] > laid_out[100][1], laid_out
        assert laid_out[200][0] >= laid_out[150][0]
    # The cards give up at most their allowed share to the larger type.
    assert laid_out[200][2] >= laid_out[100][2] * 0.75


def _last_trick(match: Match) -> TrickRecord:
    won = [event for event in match.events if isinstance(event, TrickWon)][-1]
    return TrickRecord(leader=won.plays[0][0], plays=tuple(won.plays), winner=won.winner)


@pytest.mark.parametrize("over_table", [True, False], ids=["over the table", "on its own"])
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_last_trick_grows_as_far_as_its_panel_fits(choices, tables, bidwhist_game, size, over_table) -> None:
    app = PreviewApp(size)
    table = tables["bidwhist"]
    laid_out = {}
    for percent in (100, *GROWN):
        choices(percent)
        table.on_resize(size)
        dialog = LastTrickDialog(as_app(app), _last_trick(bidwhist_game), 12, NAMES4)
        if over_table:
            dialog.attach_host(table)
        dialog.relayout(size)
        dialog.draw(pygame.Surface(size, pygame.SRCALPHA))
        area = dialog.panel_area(size)
        assert area.contains(dialog.panel_rect)
        content = dialog.panel_rect
        for rect in [*dialog.card_rects, dialog.message_rect, dialog.close_button.rect]:
            assert content.contains(rect), f"{rect} outside the panel {content}"
        # The cards, the summary under their names and the button, apart.
        _apart([*dialog.card_rects, dialog.message_rect, dialog.close_button.rect], "the last trick's parts")
        laid_out[percent] = (dialog.scale, dialog.card_rects[0].width, dialog.label_h)
    assert laid_out[100][0] == pytest.approx(geometry.window_scale(size))
    if laid_out[100][1] == round(92 * laid_out[100][0]):
        # Cards whole at 100% stay whole grown: the panel is never cut back to the area.
        for percent in GROWN:
            scale, card_w, _ = laid_out[percent]
            assert card_w == round(92 * scale), laid_out
    if size in SIXTEEN_BY_NINE:
        assert laid_out[150][1] > laid_out[100][1] and laid_out[150][2] > laid_out[100][2], laid_out
    # Never smaller than at 100%; over the table, whose own plates grow into the felt at 200%,
    # the area the dialog may cover can be smaller at 200% than at 150%.
    pairs = ((100, 150), (100, 200)) if over_table else ((100, 150), (150, 200))
    for smaller, larger in pairs:
        assert all(grown >= usual for usual, grown in zip(laid_out[smaller], laid_out[larger])), laid_out


@pytest.mark.parametrize("over_table", [True, False], ids=["over the table", "on its own"])
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_hand_log_grows_and_still_scrolls_to_its_latest_line(
    choices, tables, bidwhist_game, size, over_table
) -> None:
    app = PreviewApp(size)
    table = tables["bidwhist"]
    lines = hand_log(bidwhist_game.events_for(bidwhist_game.events, 0), NAMES4, get_game("bidwhist"))
    rows: dict[int, tuple[float, int, int]] = {}  # by percent: the log's scale, row height and rows in view
    for percent in (100, *GROWN):
        choices(percent)
        table.on_resize(size)
        log = HandLogDialog(as_app(app), lines)
        if over_table:
            log.attach_host(table)
        log.relayout(size)
        surface = pygame.Surface(size, pygame.SRCALPHA)
        log.draw(surface)
        assert log.panel_area(size).contains(log.panel_rect)
        assert log.panel_rect.contains(log.body_rect) and log.panel_rect.contains(log.close_button.rect)
        assert not log.body_rect.colliderect(log.close_button.rect) and not log.hint_rect.colliderect(log.body_rect)
        # However far it grows, a few lines stay in view (as many as at 100% where those were fewer).
        rows_at_100 = rows[100][2] if percent > 100 else log.rows
        assert log.rows >= min(4, rows_at_100)
        # It opens at its latest line, Home goes to the first, End and Page Down come back to the last.
        assert log.visible_lines()[-1] == lines[-1] and log.last_first > 0
        log.handle_event(key(pygame.K_HOME))
        assert log.visible_lines()[0] == lines[0]
        for _ in range(len(lines)):
            log.handle_event(key(pygame.K_PAGEDOWN))
        assert log.visible_lines()[-1] == lines[-1]
        log.draw(surface)
        assert log.wake_in() is None  # scrolled and still: no frames
        rows[percent] = (log.scale, log.row_h, log.rows)
    assert rows[100][0] == pytest.approx(geometry.window_scale(size))
    if size in SIXTEEN_BY_NINE:
        assert rows[150][1] > rows[100][1], rows
    pairs = ((100, 150), (100, 200)) if over_table else ((100, 150), (150, 200))  # as for the last trick
    for smaller, larger in pairs:
        assert rows[larger][0] >= rows[smaller][0] and rows[larger][1] >= rows[smaller][1], rows


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_hot_seat_cover_grows_within_the_window(choices, size) -> None:
    app = PreviewApp(size)
    panels = {}
    for percent in (100, *GROWN):
        choices(percent)
        cover = CoverScene(as_app(app), "Ann", _noop, detail="New cards were dealt.")
        cover.draw(pygame.Surface(size))
        inside = pygame.Rect(0, 0, *size).inflate(-2 * WINDOW_MARGIN, -2 * WINDOW_MARGIN)
        assert inside.contains(cover.panel) and cover.panel.contains(cover.button.rect)
        panels[percent] = (cover.panel.size, cover.button.rect.height)
    assert panels[100][0] == CoverScene.usual_panel_size(size)
    for smaller, larger in ((100, 150), (150, 200)):
        (width, height), button = panels[smaller]
        (grown_w, grown_h), grown_button = panels[larger]
        assert grown_w >= width and grown_h >= height and grown_button >= button, panels
    assert panels[150][0][0] > panels[100][0][0] and panels[150][1] > panels[100][1], panels


def test_a_column_chart_at_a_large_size_keeps_its_shares_and_apart_numbers(monkeypatch) -> None:
    # The bug: at 200% the statistics' bid-hit columns (fifteen in a narrow panel) lost the share
    # over each column (none fitted at the labels' grown size) and the numbers under them ran
    # together ("101112131415"). Now both take one size that fits the columns, not under 11 px.
    from game.ui.widgets import charts
    from game.ui.widgets.text import text_size

    drawn: dict[str, int] = {}
    draw = draw_text_fit

    def recording(surface, text, rect, size, *args, **kwargs):
        drawn[text] = size
        return draw(surface, text, rect, size, *args, **kwargs)

    monkeypatch.setattr(charts, "draw_text_fit", recording)
    bars = [charts.Bar(str(cards), 1 / 3 if cards % 2 else 2 / 3, (120, 180, 250)) for cards in range(1, 16)]
    charts.draw_column_chart(
        pygame.Surface((500, 600)), pygame.Rect(10, 10, 440, 560), "Bid-hit rate", bars, 1.0, 44, ""
    )
    assert "33%" in drawn and "67%" in drawn and drawn["33%"] >= charts.LEAST_COLUMN_WORDS
    assert len({drawn[str(cards)] for cards in range(10, 16)}) == 1
    slot = 440 / 15
    assert text_size("15", drawn["15"])[0] < slot


def test_a_tall_narrow_legend_leaves_its_names_the_room(monkeypatch) -> None:
    # The bug: the swatch grew with the legend's row (half its height), so at 200% in an 800x600
    # window the statistics' four names were cut to "Ea…" beside swatches larger than they.
    from game.ui.widgets import charts

    boxes: dict[str, pygame.Rect] = {}
    draw = draw_text_fit

    def recording(surface, text, rect, size, *args, **kwargs):
        boxes[text] = pygame.Rect(rect)
        return draw(surface, text, rect, size, *args, **kwargs)

    monkeypatch.setattr(charts, "draw_text_fit", recording)
    names = ["Easy 1", "Easy 2", "Easy 3", "Easy 4"]
    charts.draw_legend(
        pygame.Surface((300, 100)), pygame.Rect(0, 0, 220, 80), [(name, (200, 120, 90)) for name in names], 16
    )
    assert all(boxes[name].width >= 220 // 4 // 2 for name in names), boxes
