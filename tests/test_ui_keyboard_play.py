"""Whole hands of both games played with the keyboard alone, from the start screen on.

Every step a player takes here is a synthesized KEYDOWN event fed to the
app's own frame function: no mouse event is sent and no scene method is
called to act. The test only reads the screens to decide which key a
player looking at them would press next (where the focus is, which card is
raised, which cards are legal). Start is pressed on the start screen, the
bids, the contract, the kitty's discards and every card of the hand are
chosen with Tab, the arrows, Space and Enter, and the hand ends with the
next deal (or, when it ended the game, on the end screen, whose score pad
opens and closes by keys, and back on the start screen).

Two things are set up outside the keyboard, because a player cannot choose
them: the game number (the seed), so the interesting dialogs come up, and
the computer players' runner, which decides inline (as in the other UI
tests) so no test waits for a thread.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from collections.abc import Callable

import pygame
import pytest

import game.session.local as session_module
from game.settings.app_settings import Settings
from game.session.match import Match, Seat
from game.rules import ActionKind, Phase, make_rules
from game.rules.actions import play
from game.rules.view import WizardView
from game.ui import theme
from game.ui.app import App
from game.session.ai_worker import InlineAiRunner
from game.session.hints import think_budget
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.contract_chooser import ContractChooser
from game.ui.dialogs.end_scene import EndScene
from game.ui.dialogs.kitty_dialog import KittyDialog
from game.ui.scenes.rules_editor import RulesEditor
from game.ui.scenes.start_scene import StartScene
from game.ui.table.scene import TableScene
from game.ui.widgets.controls import Cycler
from game.ui.widgets.dialog import DialogScene
from game.ui.widgets.focus import Widget
from scene_checks import match_of, top
from test_ui_table import make_app, run_until, start, step, top_name

COMPUTER_LEVEL = "ai:medium"  # what the start screen gives a computer seat


# --------------------------------------------------------------------------- keys


def keydown(code: int, unicode: str = "", mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode=unicode, scancode=0)


class Keyboard:
    """Presses keys on the app, one frame each."""

    def __init__(self, app: App) -> None:
        self.app = app

    def press(self, code: int, unicode: str = "", mod: int = 0) -> None:
        step(self.app, [keydown(code, unicode, mod)])

    def tab_to(self, widget: Widget, limit: int = 60) -> None:
        """Tab through the top dialog's controls until ``widget`` has the focus (and shows it)."""
        focus = top(self.app, DialogScene).focus
        for _ in range(limit):
            if focus.focused is widget:
                break
            self.press(pygame.K_TAB)
        assert focus.focused is widget, f"Tab never reached {widget!r}"
        assert widget.show_focus_ring, "the focused control does not show its focus ring"

    def arrow_to(self, widget: Widget, limit: int = 40) -> None:
        """Walk the arrows towards ``widget`` in the top dialog: across, then down or up."""
        focus = top(self.app, DialogScene).focus
        if focus.focused is None:
            self.press(pygame.K_RIGHT)  # a dialog opened with nothing chosen: the first arrow enters it
        for _ in range(limit):
            current = focus.focused
            if current is widget:
                break
            assert current is not None
            dx = widget.rect.centerx - current.rect.centerx
            dy = widget.rect.centery - current.rect.centery
            if abs(dy) > current.rect.height // 2:
                self.press(pygame.K_DOWN if dy > 0 else pygame.K_UP)
            else:
                self.press(pygame.K_RIGHT if dx > 0 else pygame.K_LEFT)
        assert focus.focused is widget, f"the arrows never reached {widget!r}"


# --------------------------------------------------------------------------- set-up a player cannot type


@pytest.fixture
def inline_computers(monkeypatch):
    """Computer players decided inside the frame that asks (as in every UI test)."""
    monkeypatch.setattr(session_module, "ThreadedAiRunner", InlineAiRunner)


def fixed_game_number(monkeypatch, app: App, seed: int) -> None:
    """Start deals game number ``seed`` (the window picks a random one)."""
    start_match = app.start_match

    def start_with_seed(rules, seats, seed_given=None):
        return start_match(rules, seats, seed)

    monkeypatch.setattr(app, "start_match", start_with_seed)


def engine_match(game: str, rules_values: dict, players: int, seed: int) -> Match:
    """The match the start screen's Start would open, on the engine alone."""
    rules = make_rules(game, rules_values, players=players)
    seats = [Seat("You", "human")] + [Seat(f"C{i}", COMPUTER_LEVEL) for i in range(1, players)]
    return Match(rules, seats, seed, ai_budget=think_budget(Settings().ai_think_seconds))


def highest_uptown(legal):
    ups = [a for a in legal if a.kind == ActionKind.BID and a.mode == 0]
    return max(ups, key=lambda a: a.value)


def bidwhist_seed_where_you_declare(rules_values: dict) -> int:
    """A game number where seat 1 (you), bidding the highest uptown bid, names a suit."""
    for seed in range(1, 500):
        match = engine_match("bidwhist", rules_values, 4, seed)
        while match.phase == Phase.BID:
            match.apply(
                highest_uptown(match.legal_actions()) if match.current_player == 0 else match.choose_ai_action()
            )
        if match.phase == Phase.CONTRACT and match.current_player == 0:
            return seed
    raise AssertionError("no seed found")


# --------------------------------------------------------------------------- playing the hand by keys


def table(app: App) -> TableScene:
    scene = next(s for s in app.scenes if isinstance(s, TableScene))
    return scene


def wait_for(app: App, condition: Callable[[], bool], what: str) -> None:
    assert run_until(app, condition, frames=3000), f"never came: {what} (top: {top_name(app)})"


def your_turn_to_play(app: App) -> bool:
    scene = table(app)
    return app.scenes[-1] is scene and scene.input_enabled()


def play_a_card(keys: Keyboard, scene: TableScene, activate: int = pygame.K_RETURN) -> None:
    """Enter (or ``activate``: Space too) picks the first legal card, Right walks the hand to
    its last legal card, and Enter plays the picked card. Nothing is picked when the turn
    begins, so the first Enter never plays."""
    legal = {a.value for a in match_of(scene).legal_actions() if a.kind == ActionKind.PLAY}
    cards = scene.hand_cards()
    assert scene.drag.selected == -1, "a card was picked for the player before any key"
    actions = len(match_of(scene).actions)
    keys.press(activate, " " if activate == pygame.K_SPACE else "")
    assert len(match_of(scene).actions) == actions, "the first Enter played a card"
    assert cards[scene.drag.selected] in legal, "the first Enter did not pick a legal card"
    wanted = max(index for index, card in enumerate(cards) if card in legal)
    for _ in range(len(cards)):
        if scene.drag.selected == wanted:
            break
        keys.press(pygame.K_RIGHT)
    assert scene.drag.selected == wanted, "Right did not walk along the hand"
    card = cards[wanted]
    actions = len(match_of(scene).actions)
    keys.press(activate, " " if activate == pygame.K_SPACE else "")
    assert match_of(scene).actions[actions] == (0, play(card)), "the key did not play the marked card"


def choose_game(keys: Keyboard, game: str) -> None:
    """Tab to the game's button on the start screen and press Enter."""
    start = top(keys.app, StartScene)
    keys.tab_to(start.game_buttons[game])
    keys.press(pygame.K_RETURN)
    assert start.game == game


def press_start(keys: Keyboard) -> None:
    start = top(keys.app, StartScene)
    keys.tab_to(start.start_button)
    keys.press(pygame.K_SPACE, " ")
    assert top_name(keys.app) == "TableScene"


@pytest.mark.parametrize("preset, kitty", [("standard", 6), ("no_jokers", 4)])
def test_a_whole_bid_whist_hand_by_keys_alone(tmp_path, monkeypatch, inline_computers, preset, kitty):
    app = make_app(tmp_path)
    keys = Keyboard(app)
    choose_game(keys, "bidwhist")
    start = top(app, StartScene)
    # The preset, from the list with the arrows.
    names = [p.name for p in start.catalog["bidwhist"].presets]
    keys.tab_to(start.preset_list)
    while start.preset_list.index != names.index(preset):
        keys.press(pygame.K_DOWN if start.preset_list.index < names.index(preset) else pygame.K_UP)
    fixed_game_number(monkeypatch, app, bidwhist_seed_where_you_declare(start.rule_values()))
    press_start(keys)
    scene = table(app)

    # Bidding: the arrows walk the grid to the highest uptown bid, Enter bids it.
    wait_for(app, lambda: top_name(app) == "BiddingPanel", "the bidding panel")
    panel = top(app, BiddingPanel)
    wanted = highest_uptown(match_of(scene).legal_actions())
    keys.arrow_to(panel.buttons[wanted])
    assert panel.buttons[wanted].show_focus_ring
    keys.press(pygame.K_RETURN)
    # The trump suit: the chooser opens with nothing chosen; the first Right goes to the first
    # suit, the next to the second; Enter names it.
    wait_for(app, lambda: top_name(app) == "ContractChooser", "the contract chooser")
    chooser = top(app, ContractChooser)
    assert chooser.focus.focused is None
    keys.press(pygame.K_RIGHT)
    keys.press(pygame.K_RIGHT)
    assert chooser.focus.focused is chooser.buttons[1] and chooser.buttons[1].show_focus_ring
    keys.press(pygame.K_RETURN)
    assert match_of(scene).view(0).trump == 1
    # The kitty: Space toggles the focused card, Right moves on, Enter discards.
    wait_for(app, lambda: top_name(app) == "KittyDialog", "the kitty dialog")
    dialog = top(app, KittyDialog)
    assert dialog.discard_count == kitty and len(dialog.cards) == 12 + kitty
    for _ in range(kitty):
        keys.press(pygame.K_SPACE, " ")
        keys.press(pygame.K_RIGHT)
    assert len(dialog.selected) == kitty
    discarded = list(dialog.selected)
    keys.press(pygame.K_RETURN)
    assert not set(discarded) & set(match_of(scene).view(0).hand), "the chosen cards were not discarded"
    assert len(match_of(scene).view(0).hand) == 12

    # All twelve tricks: Right to a legal card, Enter to play it.
    played = 0
    while played < 12:
        wait_for(app, lambda: your_turn_to_play(app) or match_of(scene).phase == Phase.HAND_OVER, "your turn")
        if match_of(scene).phase == Phase.HAND_OVER:
            break
        play_a_card(keys, scene)
        played += 1
    assert played == 12
    finish_the_hand(keys, scene)


def finish_the_hand(keys: Keyboard, scene: TableScene) -> None:
    """After the last trick: Enter on the score pad deals the next hand, or, when the hand
    ended the game, the end screen's score pad opens and closes by keys and Enter on
    "Back to start" goes back to the start screen."""
    app = keys.app
    wait_for(app, lambda: top_name(app) in ("ScorePad", "EndScene"), "the score pad or the end screen")
    if top_name(app) == "ScorePad":
        deal = match_of(scene).deal_number
        keys.press(pygame.K_RETURN)
        wait_for(app, lambda: match_of(scene).deal_number == deal + 1, "the next deal")
        return
    end = top(app, EndScene)
    keys.tab_to(end.pad)
    keys.press(pygame.K_RETURN)
    assert top_name(app) == "ScorePad"
    keys.press(pygame.K_ESCAPE)
    assert app.scenes[-1] is end
    keys.tab_to(end.back)
    keys.press(pygame.K_RETURN)
    wait_for(app, lambda: top_name(app) == "StartScene", "the start screen")


def wizard_seed_where_you_name_trump(rounds: int) -> int:
    """A game number whose last round (of ``rounds`` cards) turns up a Wizard to you, the dealer.

    The deals do not depend on how the hands are played, so any way of
    playing finds it."""
    for seed in range(1, 2000):
        match = engine_match("wizard", {"rounds": rounds}, 3, seed)
        while not match.is_over:
            if match.phase == Phase.HAND_OVER:
                match.next_deal()
                continue
            if match.phase == Phase.TRUMP_CHOICE and match.current_player == 0 and match.deal_number == rounds:
                return seed
            match.apply(match.legal_actions()[0] if match.current_player == 0 else match.choose_ai_action())
    raise AssertionError("no seed found")


def test_a_whole_wizard_game_of_three_rounds_by_keys_alone(tmp_path, monkeypatch, inline_computers):
    app = make_app(tmp_path)
    keys = Keyboard(app)
    choose_game(keys, "wizard")
    start = top(app, StartScene)
    # Three players: the stepper steps down with Left.
    keys.tab_to(start.players_stepper)
    while start.players > 3:
        keys.press(pygame.K_LEFT)
    # Three rounds, set in the rules editor: open it with Enter, step the rounds with Right.
    keys.tab_to(start.rules_button)
    keys.press(pygame.K_RETURN)
    editor = top(app, RulesEditor)
    rounds = next(widget for spec, widget in editor.rows if spec.key == "rounds")
    assert isinstance(rounds, Cycler)  # "full" or a number of rounds
    keys.tab_to(rounds)
    while rounds.value != 3:
        keys.press(pygame.K_RIGHT)
    keys.tab_to(editor.done_button)
    keys.press(pygame.K_RETURN)
    assert app.scenes[-1] is start and start.rule_values()["rounds"] == 3
    fixed_game_number(monkeypatch, app, wizard_seed_where_you_name_trump(3))
    press_start(keys)
    scene = table(app)

    named_trump = False
    for round_number in (1, 2, 3):
        wait_for(app, lambda: top_name(app) in ("BiddingPanel", "ContractChooser"), f"round {round_number}")
        if top_name(app) == "ContractChooser":
            # A Wizard was turned up to you: Right to the first suit and on to the second, Enter names it.
            chooser = top(app, ContractChooser)
            keys.press(pygame.K_RIGHT)
            keys.press(pygame.K_RIGHT)
            assert chooser.focus.focused is chooser.buttons[1] and chooser.buttons[1].show_focus_ring
            keys.press(pygame.K_RETURN)
            assert match_of(scene).view(0).trump == 1
            named_trump = True
            wait_for(app, lambda: top_name(app) == "BiddingPanel", "the bidding panel")
        panel = top(app, BiddingPanel)
        legal = [a.value for a in match_of(scene).legal_actions()]
        if round_number == 2 and 1 in legal:
            keys.press(pygame.K_1, "1")  # a digit chooses the bid, Enter makes it
            before = match_of(scene).view(0)
            assert isinstance(before, WizardView) and before.predictions[0] == -1
            keys.press(pygame.K_RETURN)
            bid = 1
        else:
            # Nothing is chosen when the panel opens; the first arrow goes to the lowest bid allowed.
            assert panel.focus.focused is None
            keys.press(pygame.K_RIGHT)
            focused = panel.focus.focused
            assert focused is not None and focused.show_focus_ring
            bid = int(focused.label)
            keys.press(pygame.K_RETURN)
        yours = match_of(scene).view(0)
        assert isinstance(yours, WizardView) and yours.predictions[0] == bid
        for _ in range(round_number):
            wait_for(app, lambda: your_turn_to_play(app), "your turn")
            play_a_card(keys, scene, pygame.K_SPACE if round_number == 2 else pygame.K_RETURN)
        if round_number < 3:
            wait_for(app, lambda: top_name(app) == "ScorePad", "the round's score pad")
            keys.press(pygame.K_RETURN)
    assert named_trump, "the Wizard turned up in the last round never asked you for trump"
    finish_the_hand(keys, scene)


# --------------------------------------------------------------------------- the table's own buttons


def ring_pixels(rect: pygame.Rect) -> int:
    """How many pixels of the focus ring's colour the last frame shows just round ``rect``."""
    window = pygame.display.get_surface()
    assert window is not None

    def count(area: pygame.Rect) -> int:
        area = area.clip(window.get_rect())
        if not area.width or not area.height:
            return 0
        mask = pygame.mask.from_threshold(window.subsurface(area), (*theme.FOCUS_RING, 255), (1, 1, 1, 255))
        return mask.count()

    return count(rect.inflate(24, 24)) - count(rect)


def wizard_table_at_your_card(tmp_path, size=(1280, 720)) -> tuple[App, TableScene, Keyboard]:
    """A Wizard table (you and two computers) where you are to play, reached by keys: Right and Enter bid."""
    app = make_app(tmp_path, size=size)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], seed=4, rounds=3)
    keys = Keyboard(app)
    for _ in range(3):
        wait_for(
            app,
            lambda: top_name(app) in ("BiddingPanel", "ContractChooser") or your_turn_to_play(app),
            "your bid or card",
        )
        if your_turn_to_play(app):
            break
        keys.press(pygame.K_RIGHT)
        keys.press(pygame.K_RETURN)
    wait_for(app, lambda: your_turn_to_play(app), "your card")
    step(app)
    return app, scene, keys


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_tab_goes_round_the_hand_and_the_table_buttons(tmp_path, size):
    app, scene, keys = wizard_table_at_your_card(tmp_path, size)
    # No card is picked for the player before a key is pressed.
    assert scene.drag.selected == -1
    buttons = [
        scene.pad_button,
        scene.hint_button,
        scene.menu_button,
        scene.last_trick_button,
        scene.log_button,
        scene.undo_button,
    ]
    for button in buttons:
        keys.press(pygame.K_TAB)
        assert scene.keys.focused_button is button and button.focused and button.show_focus_ring
        assert scene.drag.selected == -1, "the hand and a button both look focused"
        assert ring_pixels(button.rect) > button.rect.width, f"no focus ring drawn round {button.label}"
    keys.press(pygame.K_TAB)  # round to the hand again
    assert scene.keys.focused_button is None and scene.drag.selected >= 0
    keys.press(pygame.K_TAB, mod=pygame.KMOD_SHIFT)
    assert scene.keys.focused_button is scene.undo_button

    # Enter on Hand log opens it; Esc closes it and the focus is back on the button.
    keys.press(pygame.K_TAB, mod=pygame.KMOD_SHIFT)
    assert scene.keys.focused_button is scene.log_button
    keys.press(pygame.K_RETURN)
    assert top_name(app) == "HandLogDialog"
    keys.press(pygame.K_ESCAPE)
    step(app)
    assert top_name(app) == "TableScene" and scene.keys.focused_button is scene.log_button
    # Right goes back to the hand, picking a card; Enter plays it.
    keys.press(pygame.K_RIGHT)
    assert scene.keys.focused_button is None and not scene.log_button.focused
    assert scene.drag.selected == scene.keys.first_playable() >= 0
    card = scene.hand_cards()[scene.drag.selected]
    keys.press(pygame.K_RETURN)
    assert match_of(scene).actions[-1] == (0, play(card))


def test_a_click_puts_the_keyboard_focus_away(tmp_path):
    app, scene, keys = wizard_table_at_your_card(tmp_path)
    keys.press(pygame.K_TAB)
    assert scene.pad_button.focused
    step(app, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(5, 300), button=1)])
    step(app, [pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(5, 300), button=1)])
    assert scene.keys.focused_button is None and not scene.pad_button.focused


def test_the_chosen_hand_card_wears_the_focus_ring(tmp_path):
    _, scene, keys = wizard_table_at_your_card(tmp_path)
    keys.press(pygame.K_RIGHT)
    keys.press(pygame.K_LEFT)
    chosen = scene.drag.selected
    slot = scene.drag._positions()[chosen]
    assert ring_pixels(slot.move(0, -round(scene.layout.hand_card_h * 0.12))) > slot.width


def test_a_button_under_a_bid_shows_no_ring_and_the_focus_goes_to_the_hand_after(tmp_path):
    """A button focused when the turn flow opens a dialog does not keep a ring under it; once
    something was played meanwhile, the focus comes back to the hand, not to the button."""
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], seed=4, rounds=3)
    keys = Keyboard(app)
    keys.press(pygame.K_s, "s")  # the score pad, open while the cards are dealt
    keys.press(pygame.K_ESCAPE)
    keys.press(pygame.K_TAB)
    assert scene.keys.focused_button is scene.pad_button
    wait_for(app, lambda: top_name(app) == "BiddingPanel", "the bidding panel")
    step(app)
    assert not scene.pad_button.focused
    keys.press(pygame.K_RIGHT)
    keys.press(pygame.K_RETURN)
    wait_for(app, lambda: your_turn_to_play(app), "your card")
    step(app)
    assert scene.keys.focused_button is None and scene.drag.selected == -1
    keys.press(pygame.K_RETURN)  # the keys are on the hand: Enter picks a card there
    assert scene.drag.selected == scene.keys.first_playable() >= 0
