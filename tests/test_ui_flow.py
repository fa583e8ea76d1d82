"""Keys and flow between the screens, driven headless with synthesized input.

Each test is a finding of issue 9 as a player met it: Enter with no card
chosen said nothing (now it picks one: issue 24); Esc on the round's score pad dealt the next round;
Enter on Game over started a new game without showing the result; leaving a
game in progress threw it away without asking; the start screen forgot the
last setup; Settings could not be opened from the in-game menu; the start
screen did not say where each seat sits.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pytest

from game.rules import Phase, get_game
from game.settings.last_setup import LastSetup, load_last_setup, save_last_setup
from game.rules.house_rules import WizardRules
from game.ui.app import App
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.contract_chooser import ContractChooser
from game.ui.dialogs.end_scene import EndScene
from game.ui.dialogs.leave_dialog import LeaveDialog
from game.ui.dialogs.score_pad import ScorePad
from game.ui.dialogs.table_menu import TableMenu
from game.ui.scenes.settings_scene import SettingsScene
from game.ui.scenes.start_scene import StartScene
from game.ui.table.scene import TableScene
from game.ui.text import t
from scene_checks import match_of, top
from test_ui_table import (
    _to_human_play,
    click,
    human_can_play,
    key,
    legal_cards,
    make_app,
    run_until,
    start,
    step,
    top_name,
)

HUMAN_AND_COMPUTERS = ["human", "ai:random", "ai:random"]


def play_until(app: App, scene: TableScene, wanted: str) -> None:
    """Answer the human's dialogs and play their first legal card until ``wanted`` is on top."""

    def advance() -> bool:
        if top_name(app) == wanted:
            return True
        top = app.scenes[-1]
        if isinstance(top, (BiddingPanel, ContractChooser)):
            top.finish(top.on_action, match_of(scene).legal_actions()[0])
        elif isinstance(top, ScorePad) and wanted != "ScorePad":
            click(app, top.close_button.rect.center)
        elif human_can_play(scene):
            scene.play_card(sorted(legal_cards(scene))[0], None)
        return False

    assert run_until(app, advance, frames=6000), f"{wanted} never came"


def press(app: App, code: int, text: str = "") -> None:
    step(app, [key(code, text)])


# ---------------------------------------------------------------------------- keys at the table


def test_enter_with_no_card_chosen_picks_one_and_says_how_to_play_it(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=5)
    _to_human_play(app, scene)
    assert scene.drag.selected < 0 and scene.message is None
    actions = len(match_of(scene).actions)
    press(app, pygame.K_RETURN)
    assert len(match_of(scene).actions) == actions, "nothing was played for the player"
    assert scene.hand_cards()[scene.drag.selected] in legal_cards(scene)
    assert scene._prompt_text() == t("table.your_turn_picked")


def test_esc_on_the_rounds_score_pad_does_not_deal_the_next_round(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", HUMAN_AND_COMPUTERS, seed=4, rounds=2)
    play_until(app, scene, "ScorePad")
    deal = match_of(scene).deal_number
    assert match_of(scene).phase == Phase.HAND_OVER
    press(app, pygame.K_ESCAPE)
    step(app)
    # The pad is put away; the finished round stays on the table until the player deals.
    assert top_name(app) == "TableScene"
    assert match_of(scene).phase == Phase.HAND_OVER and match_of(scene).deal_number == deal
    assert scene._prompt_text() == t("table.continue_hint")
    press(app, pygame.K_SPACE, " ")
    assert match_of(scene).deal_number == deal + 1


def test_enter_on_game_over_keeps_the_final_screen(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", HUMAN_AND_COMPUTERS, seed=4, rounds=1)
    play_until(app, scene, "EndScene")
    end_screen = top(app, EndScene)
    press(app, pygame.K_RETURN)
    step(app)
    assert app.scenes[0] is scene, "Enter must not start a new game"
    assert end_screen in app.scenes
    # Play again is still there for a click.
    while app.scenes[-1] is not end_screen:
        press(app, pygame.K_ESCAPE)
    click(app, end_screen.play_again.rect.center)
    assert app.scenes[0] is not scene and isinstance(app.scenes[0], TableScene)


# ---------------------------------------------------------------------------- leaving a game


def open_menu_button(app: App, label: str) -> None:
    press(app, pygame.K_ESCAPE)
    assert top_name(app) == "TableMenu"
    button = next(b for b in top(app, TableMenu).buttons if b.label == label)
    click(app, button.rect.center)


def test_back_to_start_asks_before_throwing_the_game_away(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=5)
    step(app)
    open_menu_button(app, t("menu.back_to_start"))
    assert top_name(app) == "LeaveDialog" and app.scenes[0] is scene
    press(app, pygame.K_RETURN)  # the focused answer is the safe one
    assert top_name(app) != "LeaveDialog" and app.scenes[0] is scene
    open_menu_button(app, t("menu.back_to_start"))
    press(app, pygame.K_ESCAPE)  # Esc keeps playing too
    assert app.scenes[0] is scene
    open_menu_button(app, t("menu.back_to_start"))
    click(app, top(app, LeaveDialog).leave_button.rect.center)
    assert top_name(app) == "StartScene"


def test_quit_from_the_menu_asks_first(tmp_path):
    app = make_app(tmp_path)
    start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=5)
    step(app)
    open_menu_button(app, t("menu.quit"))
    assert app.running and top_name(app) == "LeaveDialog"
    click(app, top(app, LeaveDialog).leave_button.rect.center)
    assert not app.running


def test_closing_the_window_during_a_game_asks_and_a_second_close_quits(tmp_path):
    app = make_app(tmp_path)
    start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=5)
    step(app)
    assert app.step(1 / 60, [pygame.event.Event(pygame.QUIT)]) is True
    assert top_name(app) == "LeaveDialog"
    assert app.step(1 / 60, [pygame.event.Event(pygame.QUIT)]) is False


def test_closing_the_window_after_the_game_is_over_does_not_ask(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", HUMAN_AND_COMPUTERS, seed=4, rounds=1)
    play_until(app, scene, "EndScene")
    assert app.step(1 / 60, [pygame.event.Event(pygame.QUIT)]) is False


# ---------------------------------------------------------------------------- settings in the game


def test_settings_open_from_the_in_game_menu_and_apply_at_once(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=5)
    step(app)
    assert scene.hint_button.visible
    open_menu_button(app, t("menu.settings"))
    settings = top(app, SettingsScene)
    assert app.scenes[0] is scene
    click(app, settings.hints.rect.center)
    click(app, settings.save_button.rect.center)
    assert top_name(app) == "TableScene"
    assert app.settings.hints is False and not scene.hint_button.visible


# ---------------------------------------------------------------------------- the start screen


def start_screen(app: App) -> StartScene:
    scene = app.scenes[-1]
    assert isinstance(scene, StartScene)
    return scene


def test_the_start_screen_remembers_the_last_setup(tmp_path):
    app = make_app(tmp_path)
    screen = start_screen(app)
    screen.set_game("wizard")
    screen.set_players(5)
    screen.names[0] = "Zoë"
    screen._kind_setter(2)("human")
    screen.names[2] = "Mert"
    screen._level_setter(1)("hard")
    screen.set_preset(1)
    preset = screen.catalog["wizard"].presets[1].name
    click(app, screen.start_button.rect.center)
    assert top_name(app) != "StartScene"
    app.close(quit_pygame=False)

    again = start_screen(make_app(tmp_path))
    assert again.game == "wizard" and again.players == 5
    assert again.names[0] == "Zoë" and again.names[2] == "Mert"
    assert again.kinds[:3] == ["human", "computer", "human"] and again.seat_level(1) == "hard"
    assert again.catalog["wizard"].presets[again.preset_index["wizard"]].name == preset
    assert [seat.name for seat in again.build_seats()][:3] == ["Zoë", screen.names[1], "Mert"]


@pytest.mark.parametrize(
    "text",
    [
        "game: [unclosed\n",  # not YAML
        "- a list\n",  # not a mapping
        "game: poker\nplayers: 4\nnames: []\nkinds: []\nlevels: []\npreset: standard\n",
        "game: wizard\nplayers: 99\nnames: []\nkinds: []\nlevels: []\npreset: standard\n",
        "game: wizard\nplayers: 4\nnames: [1, 2]\nkinds: []\nlevels: []\npreset: standard\n",
        "game: wizard\nplayers: 4\nnames: []\nkinds: [robot]\nlevels: []\npreset: standard\n",
    ],
)
def test_a_broken_last_setup_is_logged_and_ignored(tmp_path, text):
    app = make_app(tmp_path)
    path = app.user_paths.last_setup_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    app.close(quit_pygame=False)
    app = make_app(tmp_path)
    screen = start_screen(app)
    assert screen.game == screen.games[0] and screen.kinds[0] == "human"
    log = (app.user_paths.log_dir / "tricktable.log").read_text(encoding="utf-8")
    assert "ignoring the last start-screen setup" in log
    assert path.read_text(encoding="utf-8") == text, "the file is left as it was"


def test_the_last_setup_round_trips_through_its_file(tmp_path):
    app = make_app(tmp_path)
    setup = LastSetup(
        game="bidwhist",
        players=4,
        names=["A", "", "C"],
        kinds=["human", "computer", "human"],
        levels=["medium", "easy", "hard"],
        preset="standard",
        edited_rules={"target_score": 8, "boston": "off", "jokers": False},
    )
    save_last_setup(setup, app.user_paths)
    assert load_last_setup(app.user_paths) == setup


def summary_pixels(screen: StartScene) -> bytes:
    """What the window shows of the start screen's "Rules in play"."""
    window = pygame.display.get_surface()
    assert window is not None
    return pygame.image.tobytes(window.subsurface(screen.summary_rect), "RGB")


def rules_in_play(screen: StartScene) -> str:
    """The text of "Rules in play", one rule a line."""
    chunks, _ = screen._rules_columns(screen._rules_head(24), screen.scale)
    return "\n".join(chunks)


def edit_rules(app: App, screen: StartScene, **changes) -> None:
    """Change rules as a player does: Change rules, the new values, Enter on Done."""
    from game.ui.scenes.rules_editor import RulesEditor

    click(app, screen.rules_button.rect.center)
    editor = app.scenes[-1]
    assert isinstance(editor, RulesEditor)
    for key_name, value in changes.items():
        editor.set_value(key_name, value)
    editor.focus.focus(editor.done_button)
    press(app, pygame.K_RETURN)
    assert app.scenes[-1] is screen


def test_rules_in_play_show_the_edited_rules_as_soon_as_the_editor_closes(tmp_path):
    app = make_app(tmp_path, size=(800, 600))
    screen = start_screen(app)
    step(app)
    before = summary_pixels(screen)
    edit_rules(app, screen, target_score=8)
    step(app)  # a frame with no input: nothing else asks this screen to draw again
    shown = summary_pixels(screen)
    screen.invalidate()
    step(app)
    assert shown == summary_pixels(screen) != before, "the window still shows the rules from before the editor"
    assert "8" in rules_in_play(screen)


@pytest.mark.parametrize(
    "game, changes",
    [("bidwhist", {"target_score": 8, "boston": "double"}), ("wizard", {"rounds": 4, "wizard_turn_up": "no_trump"})],
)
def test_rules_in_play_are_the_rules_start_plays(tmp_path, game, changes):
    from game.ui.scenes.rules_editor import value_label

    app = make_app(tmp_path)
    screen = start_screen(app)
    screen.set_game(game)
    screen.set_preset(1)
    edit_rules(app, screen, **changes)
    summary = rules_in_play(screen).splitlines()
    click(app, screen.start_button.rect.center)
    table = app.scenes[0]
    assert isinstance(table, TableScene)
    rules, players = match_of(table).rules, len(match_of(table).seats)
    assert all(getattr(rules, key_name) == value for key_name, value in changes.items())
    for spec, line in zip(get_game(game).rule_specs, summary):
        line_key = "start.rule_line_edited" if spec.key in changes else "start.rule_line"
        assert line == t(
            line_key,
            label=t(f"rule.{spec.key}.label"),
            value=value_label(game, spec, getattr(rules, spec.key), players),
        )
    assert len(summary) == len(get_game(game).rule_specs)


def test_the_last_setup_keeps_the_edited_rules(tmp_path):
    app = make_app(tmp_path)
    screen = start_screen(app)
    screen.set_game("wizard")
    screen.set_players(4)
    edit_rules(app, screen, rounds=4)
    click(app, screen.start_button.rect.center)
    assert isinstance(app.scenes[0], TableScene)
    app.close(quit_pygame=False)

    again = start_screen(make_app(tmp_path))
    assert again.game == "wizard" and again.edits["wizard"] == {"rounds": 4}
    rules = again.build_rules()
    assert isinstance(rules, WizardRules) and rules.rounds == 4
    assert t("rules.rounds_number", count=4) in rules_in_play(again)
    assert t("rules.rounds_full", count=15) not in rules_in_play(again)


def test_a_last_setup_written_before_rules_were_kept_still_opens(tmp_path):
    app = make_app(tmp_path)
    path = app.user_paths.last_setup_file
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "game: wizard\nplayers: 4\nnames: [Zoë]\nkinds: [human]\nlevels: [medium]\npreset: standard\n", encoding="utf-8"
    )
    app.close(quit_pygame=False)
    screen = start_screen(make_app(tmp_path))
    assert screen.game == "wizard" and screen.players == 4 and screen.names[0] == "Zoë"
    assert screen.edits["wizard"] == {} and screen.build_rules() is not None


@pytest.mark.parametrize(
    "rules_text, kept",
    [
        ("{rounds: 99, bidding: hidden, uneven_bids: loud}", {"bidding": "hidden"}),  # out of range, no such value
        ("{colour: red, rounds: 4}", {"rounds": 4}),  # no rule of the game
        ("[rounds, 4]", {}),  # not a mapping at all
    ],
)
def test_a_damaged_changed_rule_in_the_last_setup_falls_back_to_the_preset(tmp_path, rules_text, kept):
    app = make_app(tmp_path)
    path = app.user_paths.last_setup_file
    path.parent.mkdir(parents=True, exist_ok=True)
    text = (
        f"game: wizard\nplayers: 4\nnames: [Zoë]\nkinds: [human]\nlevels: [medium]\npreset: standard\n"
        f"edited_rules: {rules_text}\n"
    )
    path.write_text(text, encoding="utf-8")
    app.close(quit_pygame=False)
    app = make_app(tmp_path)
    screen = start_screen(app)
    # The rest of the setup still counts; only the damaged changes are the preset's again.
    assert screen.game == "wizard" and screen.names[0] == "Zoë" and screen.edits["wizard"] == kept
    assert screen.rule_values() == {**screen.preset_values("wizard"), **kept}
    log = (app.user_paths.log_dir / "tricktable.log").read_text(encoding="utf-8")
    assert "ignoring a changed rule of the last start-screen setup" in log
    assert path.read_text(encoding="utf-8") == text, "the file is left as it was"
    # Start saves over it only once a copy of the damaged file is kept.
    save_last_setup(screen.current_setup(), app.user_paths)
    [backup] = path.parent.glob("last_setup.yaml.bad-*")
    assert backup.read_text(encoding="utf-8") == text
    reloaded = load_last_setup(app.user_paths)
    assert reloaded is not None and reloaded.edited_rules == kept


@pytest.mark.parametrize("size", [(800, 600), (1280, 720)])
def test_the_start_screen_shows_where_each_seat_sits(tmp_path, size):
    app = make_app(tmp_path, size=size)
    screen = start_screen(app)
    step(app)
    # Bid Whist, the human in the first seat: the partner across, the next player on the left.
    assert screen.game_def.partners(0, 2)
    assert [screen.position_key(seat) for seat in range(4)] == [
        "start.pos.bottom",
        "start.pos.left",
        "start.pos.across",
        "start.pos.right",
    ]
    # Seen from the human wherever they sit (the table puts them at the bottom).
    screen._kind_setter(0)("computer")
    screen._kind_setter(2)("human")
    assert screen.position_key(2) == "start.pos.bottom" and screen.position_key(0) == "start.pos.across"
    assert screen.position_key(3) == "start.pos.left"
    screen.set_game("wizard")
    screen.set_players(6)
    step(app)
    keys = [screen.position_key(seat) for seat in range(6)]
    assert keys.count("start.pos.bottom") == 1 and keys.count("start.pos.across") == 1
    # Every seat's place is drawn beside its name, inside its row.
    for seat in range(screen.players):
        label = screen.seat_label_rect(seat)
        assert screen.seat_rows[seat].contains(label)
        assert label.right < screen.name_inputs[seat].rect.left
        assert label.width >= label.height * 2, "room for the table map and a word"
