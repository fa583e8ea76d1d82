"""The table's dialogs never lock the player out, and what they cover is clean.

A human can always reach the score pad and the menu: the bidding panel,
contract chooser and kitty dialog pass Esc, S and clicks on the table's
Score pad / Menu buttons through, and come back unchanged afterwards. The
dialogs keep clear of the corner panels, no name plate is drawn half under
a dialog, the last hand's score pop-ups never fade on into the next deal, and
the end screen says why the game ended, readable under the score pad.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pytest

from game.session.match import Match, Seat
from game.rules import ActionKind, Phase, get_game, make_rules
from game.rules.events import Dealt, WizardHandScored
from game.ui.table.animations import Director
from game.persistence.history_codec import score_history
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.cover_scene import CoverScene
from game.ui.dialogs.end_scene import EndScene
from game.ui.dialogs.score_pad import ScorePad
from game.ui.dialogs.table_menu import TableMenu
from game.ui.scenes.start_scene import StartScene
from game.ui.scenes.stats_scene import StatsScene
from game.ui.art.render_cache import RotationCache, TextCache
from game.ui.table.model import TableModel
from game.ui.text import t
from test_ui_full_game import _bidwhist_seed_where_human_declares, _highest_uptown
from test_ui_keyboard_play import ring_pixels
from scene_checks import match_of, top
from test_ui_table import click, key, make_app, run_until, start, step, top_name, wait_past_cover_guard

TABLE_DIALOGS = ("BiddingPanel", "ContractChooser", "KittyDialog")


def _to_dialog(app, scene, wanted: str) -> None:
    """Answer the human's dialogs (highest uptown bid, first suit) until ``wanted`` is on top."""

    def advance() -> bool:
        name = top_name(app)
        if name == wanted:
            return True
        dialog = app.scenes[-1]
        if name == "BiddingPanel":
            dialog._choose(_highest_uptown(match_of(scene).legal_actions()))
        elif name == "ContractChooser":
            next(b for b in dialog.buttons if b.enabled).click()
        return False

    assert run_until(app, advance), f"never reached {wanted} (top: {top_name(app)})"


def _declaring_table(tmp_path, size=(1280, 720)):
    rules = make_rules("bidwhist", {})
    seed = _bidwhist_seed_where_human_declares(rules)
    app = make_app(tmp_path, size=size)
    scene = start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=seed)
    return app, scene


def _esc_opens_the_menu_and_comes_back(app, scene) -> None:
    """A decision cannot be put off: Esc opens the menu over ``scene``, and Esc again comes back."""
    step(app, [key(pygame.K_ESCAPE)])
    assert top_name(app) == "TableMenu" and scene in app.scenes
    step(app, [key(pygame.K_ESCAPE)])
    assert app.scenes[-1] is scene


@pytest.mark.parametrize("wanted", TABLE_DIALOGS)
def test_menu_and_score_pad_open_over_every_table_dialog(tmp_path, wanted):
    app, scene = _declaring_table(tmp_path)
    _to_dialog(app, scene, wanted)
    dialog = app.scenes[-1]
    actions = len(match_of(scene).actions)

    step(app, [key(pygame.K_ESCAPE)])
    assert top_name(app) == "TableMenu" and dialog in app.scenes
    step(app, [key(pygame.K_ESCAPE)])
    assert app.scenes[-1] is dialog

    click(app, scene.pad_button.rect.center)
    assert top_name(app) == "ScorePad"
    step(app, [key(pygame.K_ESCAPE)])
    assert app.scenes[-1] is dialog

    click(app, scene.menu_button.rect.center)
    assert top_name(app) == "TableMenu"
    step(app, [key(pygame.K_ESCAPE)])
    assert app.scenes[-1] is dialog
    # Nothing was decided on the player's behalf meanwhile.
    assert len(match_of(scene).actions) == actions


def test_s_opens_the_score_pad_from_the_bidding_panel(tmp_path):
    app, scene = _declaring_table(tmp_path)
    _to_dialog(app, scene, "BiddingPanel")
    step(app, [key(pygame.K_s, "s")])
    assert top_name(app) == "ScorePad"


def test_kitty_selection_survives_the_menu_and_score_pad(tmp_path):
    app, scene = _declaring_table(tmp_path)
    _to_dialog(app, scene, "KittyDialog")
    dialog = app.scenes[-1]
    for choice in dialog.cards[:3]:
        click(app, choice.shown_rect.center)
    chosen = list(dialog.selected)
    assert len(chosen) == 3
    step(app, [key(pygame.K_ESCAPE)])
    click(app, app.scenes[-1].buttons[1].rect.center)  # the menu's Score pad
    assert top_name(app) == "ScorePad"
    step(app, [key(pygame.K_ESCAPE)])
    assert app.scenes[-1] is dialog and dialog.selected == chosen


@pytest.mark.parametrize("size", [(800, 600), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("wanted", TABLE_DIALOGS)
def test_dialogs_keep_clear_of_the_table_controls(tmp_path, size, wanted):
    app, scene = _declaring_table(tmp_path, size)
    _to_dialog(app, scene, wanted)
    panel = app.scenes[-1].panel_rect
    layout = scene.layout
    for control in (scene.pad_button.rect, scene.menu_button.rect):
        assert not panel.colliderect(control)
    if wanted != "KittyDialog":
        # The score and contract corners stay in view while bidding and naming trump.
        assert not panel.colliderect(layout.score_rect)
        assert not panel.colliderect(layout.indicator_rect)
        assert panel.bottom <= layout.hand_rect.top


@pytest.mark.parametrize("players", [4, 5, 6])
@pytest.mark.parametrize("size", [(800, 600), (1280, 720)])
def test_no_name_plate_is_drawn_half_under_the_bidding_panel(tmp_path, monkeypatch, players, size):
    app = make_app(tmp_path, size=size)
    scene = start(app, "wizard", ["human"] + ["ai:random"] * (players - 1), seed=4)
    assert run_until(app, lambda: top_name(app) == "BiddingPanel")
    panel = top(app, BiddingPanel).panel_rect
    drawn: list[int] = []
    original = scene.view._draw_plate

    def spy(surface, model, layout, names, seat):
        drawn.append(seat)
        return original(surface, model, layout, names, seat)

    monkeypatch.setattr(scene.view, "_draw_plate", spy)
    step(app)
    for seat in drawn:
        plate = scene.layout.place(seat).plate
        assert not plate.colliderect(panel), f"seat {seat}'s plate peeks out from under the panel"
    # Plates clear of the panel are still there.
    assert any(not scene.layout.place(s).plate.colliderect(panel) for s in range(players))


def test_score_pop_ups_do_not_fade_on_into_the_next_deal(tmp_path):
    app = make_app(tmp_path, speed="normal")
    scene = start(app, "wizard", ["ai:random"] * 3, seed=2, rounds=2)
    wizard = get_game("wizard")
    model = TableModel.empty(wizard, 3)
    director = Director(model, lambda: scene.layout, lambda: 1.0, lambda s: f"P{s}", wizard)
    scored = WizardHandScored(1, (1, 0, 1), (1, 1, 1), (20, -10, 30), (20, -10, 30))
    director.enqueue([scored], -1)
    director.update(0.05)
    director.update(0.05)
    assert len(model.floaters) == 3
    deal = next(e for e in match_of(scene).events_for(match_of(scene).events, 0) if isinstance(e, Dealt))
    director.enqueue([deal], 0)
    for _ in range(30):
        director.update(0.05)
        if model.deal_number:
            break
    assert model.floaters == []


def test_pop_ups_fade_out_completely():
    wizard = get_game("wizard")
    model = TableModel.empty(wizard, 3)
    from game.ui.table.layout import compute_layout

    layout = compute_layout((1280, 720), 3, 0)
    director = Director(model, lambda: layout, lambda: 1.0, lambda s: f"P{s}", wizard)
    director.enqueue([WizardHandScored(1, (1, 0, 0), (1, 0, 0), (20, 0, 0), (20, 0, 0))], -1)
    alphas = []
    for _ in range(200):
        director.update(1 / 60)
        alphas += [f.alpha for f in model.floaters]
        if not model.floaters and alphas:
            break
    assert not model.floaters
    assert alphas[-1] < 12  # gone from view before it is removed, not cut off bright


def test_faded_blit_does_not_break_later_full_alpha_blits():
    pygame.display.init()
    pygame.display.set_mode((200, 100))
    image = TextCache().render("+30", 30, (130, 210, 140), bold=True, shadow=True)
    rotations = RotationCache()
    target = pygame.Surface((200, 100))
    target.fill((0, 128, 0))
    rotations.blit(target, image, (50, 50), alpha=100)
    target.fill((0, 128, 0))
    rect = rotations.blit(target, image, (50, 50))
    # The image's transparent corner must stay transparent at full alpha too.
    assert target.get_at(rect.topleft + pygame.Vector2(0, 0))[:3] == (0, 128, 0)


def _finished(game: str, **rules):
    players = 4 if game == "bidwhist" else 3
    match = Match(
        make_rules(game, rules, players=players if game == "wizard" else None),
        [Seat(f"P{i}", "ai:random") for i in range(players)],
        11,
    )
    while not match.is_over:
        if match.phase == Phase.HAND_OVER:
            match.next_deal()
        else:
            match.apply(match.choose_ai_action())
    return match.history()


def test_end_screen_says_why_the_game_ended(tmp_path):
    app = make_app(tmp_path)
    names = ["Alice", "Bongani", "Carmen", "Dmitri"]
    history = _finished("bidwhist", target_score=3)
    scene = EndScene(app, score_history(history), names, lambda: None, lambda: None)
    team = history["winners"][0]
    scores = history["final_scores"]
    if scores[team] >= 3:
        expected = t("end.reason_reached", team=f"{names[team]} & {names[team + 2]}", target=3)
    else:
        loser = 1 - team
        key = "end.reason_fell" if scores[loser] == -3 else "end.reason_fell_below"
        expected = t(
            key,
            loser=f"{names[loser]} & {names[loser + 2]}",
            score=scores[loser],
            floor=-3,
            team=f"{names[team]} & {names[team + 2]}",
        )
    assert scene.reason_line() == expected

    fell = dict(history, final_scores=[1, -3], winners=[0])
    assert (
        EndScene(app, score_history(fell), names, lambda: None, lambda: None).reason_line()
        == "Bongani & Dmitri fell to -3, so Alice & Carmen win."
    )
    # A set can carry a team well past the floor: the line states the true score.
    past = dict(history, final_scores=[2, -10], winners=[0], rules=dict(history["rules"], target_score=7))
    assert (
        EndScene(app, score_history(past), names, lambda: None, lambda: None).reason_line()
        == "Bongani & Dmitri fell to -10, below -7, so Alice & Carmen win."
    )
    reached = dict(history, final_scores=[3, -1], winners=[0])
    assert (
        EndScene(app, score_history(reached), names, lambda: None, lambda: None).reason_line()
        == "Alice & Carmen reached 3."
    )

    wizard = _finished("wizard", rounds=2)
    scene = EndScene(app, score_history(wizard), names[:3], lambda: None, lambda: None)
    assert scene.reason_line() == "The game ended after 2 rounds."


def test_score_pad_over_the_end_screen_is_readable(tmp_path):
    app = make_app(tmp_path)
    history = _finished("wizard", rounds=2)
    end = EndScene(app, score_history(history), ["A", "B", "C"], lambda: None, lambda: None)
    app.push(end)
    end.pad.click()
    pad = top(app, ScorePad)
    assert pad.dim_background
    # Drawn over pure white, the pad's body shows none of it.
    surface = pygame.Surface(app.size)
    surface.fill((255, 255, 255))
    pad.draw(surface)
    inside = pad.panel_rect.inflate(-40, -40)
    for point in (inside.topleft, inside.center, inside.bottomleft):
        colour = surface.get_at(point)
        assert max(colour[:3]) < 120, f"white shows through the score pad at {point}: {colour}"


# --------------------------------------------------------------------------- every dialog by keys: Tab and Esc


def _tab_reaches_every_control(app, dialog) -> None:
    """Tab goes round every control of ``dialog``; each, focused, shows its ring on screen."""
    controls = [w for w in dialog.focus.widgets if w.focusable and w.visible]
    assert controls, f"{type(dialog).__name__} has nothing to Tab to"
    reached = []
    for _ in range(len(dialog.focus.widgets) + 1):
        step(app, [key(pygame.K_TAB)])
        focused = dialog.focus.focused
        assert focused is not None and focused.show_focus_ring
        assert ring_pixels(focused.rect) > 0, f"no focus ring drawn in {type(dialog).__name__}"
        reached.append(focused)
    missed = [w for w in controls if not any(w is r for r in reached)]
    assert not missed, f"Tab never reached {missed} in {type(dialog).__name__}"


def _open_by_keys(app, widget) -> None:
    """Tab to ``widget`` on the top dialog and press Enter."""
    focus = app.scenes[-1].focus
    for _ in range(60):
        if focus.focused is widget:
            break
        step(app, [key(pygame.K_TAB)])
    assert focus.focused is widget
    step(app, [key(pygame.K_RETURN)])


def _esc_leaves(app, dialog) -> None:
    step(app, [key(pygame.K_ESCAPE)])
    step(app)
    assert dialog not in app.scenes, f"Esc did not leave {type(dialog).__name__}"


def test_the_start_screen_and_its_dialogs_by_tab_and_esc(tmp_path):
    from game.persistence.history_files import write_history

    app = make_app(tmp_path)
    write_history(app.user_paths.histories_dir / "wizard.jsonl", [_finished("wizard", rounds=2)])
    start_screen = top(app, StartScene)
    _tab_reaches_every_control(app, start_screen)
    for button, name in (
        (start_screen.settings_button, "SettingsScene"),
        (start_screen.rules_button, "RulesEditor"),
        (start_screen.stats_button, "StatsScene"),
    ):
        _open_by_keys(app, button)
        dialog = app.scenes[-1]
        assert top_name(app) == name
        _tab_reaches_every_control(app, dialog)
        if name == "StatsScene":
            # The replay viewer of the recorded game, from its button.
            assert isinstance(dialog, StatsScene)
            _open_by_keys(app, dialog.replay_button)
            replay = app.scenes[-1]
            assert top_name(app) == "ReplayScene"
            _tab_reaches_every_control(app, replay)
            _esc_leaves(app, replay)
            assert app.scenes[-1] is dialog
        _esc_leaves(app, dialog)
        assert app.scenes[-1] is start_screen


def test_the_tables_dialogs_by_tab_and_esc(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], seed=4, rounds=3)
    assert run_until(app, lambda: top_name(app) == "BiddingPanel")
    step(app, [key(pygame.K_RIGHT)])  # the panel opens with nothing chosen: the arrow goes to the lowest bid
    step(app, [key(pygame.K_RETURN)])
    # Round 1: one card each; the round's pad shows; Esc puts it away, the last trick stays to look at.
    assert run_until(app, lambda: scene.input_enabled())
    step(app, [key(pygame.K_RETURN)])  # picks the card
    step(app, [key(pygame.K_RETURN)])  # plays it
    assert run_until(app, lambda: top_name(app) == "ScorePad")
    step(app, [key(pygame.K_ESCAPE)])
    assert run_until(app, lambda: top_name(app) == "TableScene" and bool(scene.shown_view().tricks))
    for opener, name in (
        (key(pygame.K_ESCAPE), "TableMenu"),
        (key(pygame.K_s, "s"), "ScorePad"),
        (key(pygame.K_l, "l"), "LastTrickDialog"),
    ):
        step(app, [opener])
        dialog = app.scenes[-1]
        assert top_name(app) == name
        _tab_reaches_every_control(app, dialog)
        _esc_leaves(app, dialog)
        assert app.scenes[-1] is scene
    _open_by_keys_on_table(app, scene, scene.log_button)
    dialog = app.scenes[-1]
    assert top_name(app) == "HandLogDialog"
    _tab_reaches_every_control(app, dialog)
    _esc_leaves(app, dialog)
    # Back to start from the menu asks first (the game is in progress); Esc keeps playing.
    step(app, [key(pygame.K_ESCAPE)])
    menu = top(app, TableMenu)
    _open_by_keys(app, next(b for b in menu.buttons if b.label == t("menu.back_to_start")))
    ask = app.scenes[-1]
    assert top_name(app) == "LeaveDialog"
    _tab_reaches_every_control(app, ask)
    _esc_leaves(app, ask)
    assert app.scenes[-1] is scene


def _open_by_keys_on_table(app, scene, button) -> None:
    for _ in range(10):
        if scene.keys.focused_button is button:
            break
        step(app, [key(pygame.K_TAB)])
    assert scene.keys.focused_button is button
    step(app, [key(pygame.K_RETURN)])


@pytest.mark.parametrize("wanted", TABLE_DIALOGS)
def test_every_control_of_the_tables_prompts_is_reached_by_tab(tmp_path, wanted):
    app, scene = _declaring_table(tmp_path)
    _to_dialog(app, scene, wanted)
    dialog = app.scenes[-1]
    _tab_reaches_every_control(app, dialog)
    _esc_opens_the_menu_and_comes_back(app, dialog)


def test_the_dealers_take_row_is_reached_by_the_arrows(tmp_path):
    """Under dealer_takes the "Take it" buttons sit between the bids and Pass: Down reaches them."""
    from game.rules.actions import PASS

    rules = make_rules("bidwhist", {"dealer_takes": True})
    for seed in range(1, 400):
        match = Match(rules, [Seat("Ann", "human")] + [Seat(n, "ai:random") for n in ("B", "C", "D")], seed)
        while match.phase == Phase.BID and match.current_player != 0:
            match.apply(match.choose_ai_action())
        if match.phase == Phase.BID and any(a.kind == ActionKind.TAKE for a in match.legal_actions()):
            break
    else:
        raise AssertionError("no seed where the human dealer may take")
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=seed, dealer_takes=True)
    assert run_until(app, lambda: top_name(app) == "BiddingPanel")
    panel = top(app, BiddingPanel)
    takes = panel.take_actions
    assert takes
    take_buttons = [panel.buttons[action] for action in takes]
    for _ in range(8):
        if panel.focus.focused in take_buttons:
            break
        step(app, [key(pygame.K_DOWN)])
    assert panel.focus.focused in take_buttons and panel.focus.focused.show_focus_ring
    take = take_buttons[0]
    for _ in range(len(takes)):
        if panel.focus.focused is take:
            break
        step(app, [key(pygame.K_LEFT)])
    assert panel.focus.focused is take, "Left does not walk the take row"
    step(app, [key(pygame.K_DOWN)])
    assert panel.focus.focused is panel.buttons[PASS]
    step(app, [key(pygame.K_UP)])
    assert panel.focus.focused is take
    step(app, [key(pygame.K_RETURN)])
    assert match_of(scene).actions[-1] == (0, takes[0])


def test_the_end_screen_and_the_hot_seat_cover_by_keys(tmp_path):
    app = make_app(tmp_path)
    start(app, "wizard", ["ai:random"] * 3, seed=2, rounds=1)
    assert run_until(app, lambda: top_name(app) == "EndScene")
    end = app.scenes[-1]
    _tab_reaches_every_control(app, end)
    # The end screen is the game's last word: Esc opens the menu over it (Back to start, Quit).
    _esc_opens_the_menu_and_comes_back(app, end)

    app = make_app(tmp_path)
    start(app, "wizard", ["human", "human", "ai:random"], seed=2, rounds=2)
    assert run_until(app, lambda: top_name(app) == "CoverScene")
    cover = top(app, CoverScene)
    wait_past_cover_guard(app)  # the cover listens, and shows it, only after a moment
    step(app, [key(pygame.K_TAB)])
    assert cover.button.focused and cover.button.show_focus_ring
    assert ring_pixels(cover.button.rect) > cover.button.rect.width
    _esc_opens_the_menu_and_comes_back(app, cover)
    step(app, [key(pygame.K_RETURN)])
    assert cover in app.scenes, "the cover listens only a moment after it is shown again"
    wait_past_cover_guard(app)
    step(app, [key(pygame.K_RETURN)])
    assert cover not in app.scenes
