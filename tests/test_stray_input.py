"""No stray key or click acts for the player (issue 24, items 1 and 2).

Driven through the app's own frame function with synthesized events, as a
hurried player would press them:

* the hot-seat cover: a double Enter (the second 0.15 s after the bid that
  brought the cover up), an Enter held down with key repeat on, a double
  click, and a mouse button held from before the cover never pass it; a
  fresh press once it listens does;
* the input fence: the rest of a press held across a change of screen (its
  key-repeats, its release) never reaches the new screen, while a lost
  release never makes a key deaf;
* the bidding panel (Bid Whist and Wizard) and the trump chooser open with
  nothing chosen, so the two Enters after a hand ("Next hand", then one
  more) bid nothing and say how to choose; keys mashed on a hot-seat cover
  and the panel behind it (Space, Enter, digits, P) make no bid either;
* cards: the first Enter picks a card and the second plays it, also after a
  click, a resize and a dialog over the table; the prompt says so.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pytest

from game.session.match import Match, Seat
from game.rules import ActionKind, Phase, make_rules
from game.rules.actions import PASS, Action, play
from game.rules.tricks import PUBLIC_SEAT
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.contract_chooser import ContractChooser
from game.ui.dialogs.end_scene import EndScene
from game.ui.input_fence import InputFence
from game.ui.scene import Scene
from game.ui.scenes.start_scene import StartScene
from game.session.ai_worker import InlineAiRunner
from game.session.local import local_session
from game.ui.table.scene import TableScene
from game.ui.text import t
from game.ui.widgets.focus import INPUT_MODE
from scene_checks import match_of, top
from test_ui_table import (
    _to_human_play,
    click,
    key,
    key_up,
    legal_cards,
    make_app,
    mouse,
    pass_cover,
    run_until,
    start,
    step,
    top_name,
    wait_past_cover_guard,
)

DOUBLE_ENTER = 0.15  # the second press of a hurried double Enter or double click


@pytest.fixture
def key_repeat():
    """pygame's key repeat on, as it would be in a window that turned it on: a held key sends KEYDOWNs."""
    if not pygame.display.get_init():
        pygame.display.init()  # key repeat lives in the video system, which an earlier module may have closed
    before = pygame.key.get_repeat()
    pygame.key.set_repeat(300, 50)
    yield
    pygame.key.set_repeat(*before)


# --------------------------------------------------------------------------- the hot-seat cover


def hidden_wizard_bid_before_the_next_humans_cover(tmp_path):
    """Two humans and a computer, hidden bids: the first human passes their cover and their
    bidding panel is up, the arrow on their bid; the other human bids right after them."""
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "human"], seed=2, rounds=2, bidding="hidden")
    assert run_until(app, lambda: top_name(app) == "CoverScene")
    pass_cover(app)
    assert run_until(app, lambda: top_name(app) == "BiddingPanel")
    step(app, [key(pygame.K_RIGHT)])
    return app, scene


def assert_covered(app, scene, who: str) -> None:
    assert top_name(app) == "CoverScene", f"{who} passed the cover"
    assert scene.viewer == PUBLIC_SEAT and not scene.face_up, f"{who} showed the next player's hand"


def test_a_double_enter_after_a_hidden_wizard_bid_leaves_the_next_players_cover_up(tmp_path):
    app, scene = hidden_wizard_bid_before_the_next_humans_cover(tmp_path)
    bidder = match_of(scene).current_player
    app.step(1 / 60, [key(pygame.K_RETURN)])  # the bid
    assert match_of(scene).actions[-1][0] == bidder and top_name(app) == "CoverScene"
    next_player = match_of(scene).current_player
    assert next_player != bidder and next_player in scene.humans
    app.step(1 / 60, [key_up(pygame.K_RETURN)])
    # The second Enter, 0.15 s after the first (the loop slept meanwhile: the cover waits).
    app.step(1 / 60, [key(pygame.K_RETURN), key_up(pygame.K_RETURN)], idle_time=DOUBLE_ENTER - 2 / 60)
    assert_covered(app, scene, "a double Enter")
    # The cover shows when it listens: its button greyed until then, gold after.
    cover = app.scenes[-1]
    assert not cover.button.enabled and cover.wake_in() > 0
    wait_past_cover_guard(app)
    assert cover.button.enabled and cover.wake_in() is None
    # The next player's own, fresh Enter passes it.
    step(app, [key(pygame.K_RETURN)])
    assert scene.viewer == next_player and scene.face_up


def test_an_enter_held_down_with_key_repeat_never_passes_the_cover(tmp_path, key_repeat):
    app, scene = hidden_wizard_bid_before_the_next_humans_cover(tmp_path)
    app.step(1 / 60, [key(pygame.K_RETURN)])  # the bid, and the key stays down...
    assert top_name(app) == "CoverScene"
    for _ in range(24):  # ...repeating for well past the guard time
        app.step(0.05, [key(pygame.K_RETURN)])
        assert_covered(app, scene, "a held Enter")
    app.step(0.05, [key_up(pygame.K_RETURN)])
    assert_covered(app, scene, "letting go of a held Enter")
    step(app, [key(pygame.K_RETURN)])  # pressed afresh: the cover goes
    assert scene.viewer == match_of(scene).current_player


def test_a_key_first_pressed_too_soon_and_held_does_not_pass_the_cover(tmp_path, key_repeat):
    app, scene = hidden_wizard_bid_before_the_next_humans_cover(tmp_path)
    app.step(1 / 60, [key(pygame.K_RETURN), key_up(pygame.K_RETURN)])
    app.step(1 / 60, [key(pygame.K_SPACE, " ")], idle_time=0.1)  # too soon: ignored, and held
    for _ in range(20):
        app.step(0.05, [key(pygame.K_SPACE, " ")])
        assert_covered(app, scene, "Space pressed too soon and held")
    app.step(0.05, [key_up(pygame.K_SPACE)])
    step(app, [key(pygame.K_SPACE, " ")])
    assert scene.viewer == match_of(scene).current_player


def test_a_double_click_and_a_click_begun_before_the_cover_do_not_pass_it(tmp_path):
    app, scene = hidden_wizard_bid_before_the_next_humans_cover(tmp_path)
    panel = app.scenes[-1]
    chosen = panel.focus.focused.rect.center
    # A mouse button pressed on the felt while the panel is up, and held.
    step(app, [mouse(pygame.MOUSEBUTTONDOWN, (5, 5), button=3)])
    # The bid, by a click; the second click of a double click lands 0.15 s later on the
    # cover's button.
    step(app, [mouse(pygame.MOUSEMOTION, chosen), mouse(pygame.MOUSEBUTTONDOWN, chosen)])
    app.step(1 / 60, [mouse(pygame.MOUSEBUTTONUP, chosen)])
    assert top_name(app) == "CoverScene"
    button = app.scenes[-1].button.rect.center
    app.step(1 / 60, [mouse(pygame.MOUSEMOTION, button), mouse(pygame.MOUSEBUTTONDOWN, button)], idle_time=0.1)
    app.step(1 / 60, [mouse(pygame.MOUSEBUTTONUP, button)], idle_time=0.05)
    assert_covered(app, scene, "a double click")
    # Once the cover listens, the button held since before it is let go over its button.
    wait_past_cover_guard(app)
    step(app, [mouse(pygame.MOUSEBUTTONUP, button, button=3)])
    assert_covered(app, scene, "a click begun before the cover")
    click(app, button)
    assert scene.viewer == match_of(scene).current_player


# --------------------------------------------------------------------------- the input fence


class Counting(Scene):
    """A screen that counts the key and mouse events it is given."""

    def __init__(self, app, on_enter_key=None) -> None:
        super().__init__(app)
        self.seen: list[int] = []
        self.on_enter_key = on_enter_key

    def handle_event(self, event) -> bool:
        if event.type in (pygame.KEYDOWN, pygame.KEYUP, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.seen.append(event.type)
        if event.type == pygame.KEYDOWN and event.key == pygame.K_RETURN and self.on_enter_key:
            self.on_enter_key()
        return True

    def wake_in(self):
        return None


def test_the_rest_of_a_key_held_across_a_change_of_screen_never_reaches_the_new_one(tmp_path, key_repeat):
    app = make_app(tmp_path)
    second = Counting(app)
    first = Counting(app, on_enter_key=lambda: app.replace(second))
    app.replace(first)
    step(app, [key(pygame.K_RETURN)])  # closes the first screen
    assert app.scenes == [second]
    step(app, [key(pygame.K_RETURN), key(pygame.K_RETURN)])  # its key-repeats
    step(app, [key_up(pygame.K_RETURN)])  # and its release
    assert second.seen == [], "the new screen was given the rest of the old screen's press"
    step(app, [key(pygame.K_RETURN), key_up(pygame.K_RETURN)])  # a new press is the new screen's
    assert second.seen == [pygame.KEYDOWN, pygame.KEYUP]


def test_a_mouse_button_held_across_a_change_of_screen_is_not_released_on_the_new_one(tmp_path):
    app = make_app(tmp_path)
    second = Counting(app)
    first = Counting(app)
    app.replace(first)
    step(app, [mouse(pygame.MOUSEBUTTONDOWN, (10, 10))])
    app.replace(second)
    step(app, [mouse(pygame.MOUSEBUTTONUP, (10, 10))])
    assert second.seen == []
    step(app, [mouse(pygame.MOUSEBUTTONDOWN, (10, 10)), mouse(pygame.MOUSEBUTTONUP, (10, 10))])
    assert second.seen == [pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP]


def test_a_lost_key_release_never_makes_a_key_deaf():
    """Without key repeat a second KEYDOWN is a new press, even when its KEYUP never came."""
    fence = InputFence()
    fence.follow("table")
    assert fence.admit(key(pygame.K_RETURN))
    fence.follow("score pad")
    assert pygame.key.get_repeat()[0] == 0
    assert fence.admit(key(pygame.K_RETURN))
    assert fence.admit(key(pygame.K_a, "a"))
    assert fence.admit(pygame.event.Event(pygame.TEXTINPUT, text="a"))
    # A mouse button does not repeat: its next press is a new one even if the release was lost.
    assert fence.admit(mouse(pygame.MOUSEBUTTONDOWN, (1, 1)))
    fence.follow("table")
    assert fence.admit(mouse(pygame.MOUSEBUTTONDOWN, (1, 1)))


def test_the_text_of_a_swallowed_key_repeat_is_swallowed_too(key_repeat):
    fence = InputFence()
    fence.follow("table")
    assert fence.admit(key(pygame.K_a, "a"))
    fence.follow("name box")
    assert not fence.admit(key(pygame.K_a, "a"))
    assert not fence.admit(pygame.event.Event(pygame.TEXTINPUT, text="a"))
    assert fence.admit(key(pygame.K_b, "b"))
    assert fence.admit(pygame.event.Event(pygame.TEXTINPUT, text="b"))


# --------------------------------------------------------------------------- bids after the score pad


def first_choice(match: Match) -> None:
    """Seat 0's move, as a modest player makes it: pass, else the lowest bid or the first choice."""
    legal = match.legal_actions()
    passes = [a for a in legal if a.kind == ActionKind.PASS]
    match.apply(passes[0] if passes else legal[0])


def table_at_the_hands_score_pad(app, game: str, players: int, seed: int, **rules) -> TableScene:
    """A table whose first hand was just played out (on the engine, to keep it quick), its score
    pad up with "Next hand" focused: seat 0 is the human."""
    seats = [Seat("You", "human")] + [Seat(f"C{i}", "ai:random") for i in range(1, players)]
    match = Match(make_rules(game, rules, players=players), seats, seed)
    while match.phase != Phase.HAND_OVER:
        if match.current_player == 0:
            first_choice(match)
        else:
            match.apply(match.choose_ai_action())
    scene = TableScene(app, local_session(match, app, ai_runner=InlineAiRunner()))
    app.replace(scene)
    assert run_until(app, lambda: top_name(app) == "ScorePad")
    pad = app.scenes[-1]
    assert pad.focus.focused is pad.close_button
    return scene


@pytest.mark.parametrize(
    "game, players, seed, rules",
    [
        ("bidwhist", 4, 7, {"target_score": 21}),  # (a first hand of random players often ends a game to 7)
        ("wizard", 3, 5, {"rounds": 3}),
    ],
    ids=["bidwhist", "wizard"],
)
def test_two_enters_after_next_hand_bid_nothing(tmp_path, game, players, seed, rules):
    app = make_app(tmp_path)
    scene = table_at_the_hands_score_pad(app, game, players, seed, **rules)
    deal = match_of(scene).deal_number
    step(app, [key(pygame.K_RETURN)])  # "Next hand"
    assert match_of(scene).deal_number == deal + 1
    assert run_until(app, lambda: top_name(app) == "BiddingPanel")
    panel = top(app, BiddingPanel)
    actions = len(match_of(scene).actions)
    step(app, [key_up(pygame.K_RETURN)])
    step(app, [key(pygame.K_RETURN), key_up(pygame.K_RETURN)])  # the second Enter
    assert app.scenes[-1] is panel and len(match_of(scene).actions) == actions, "a stray Enter made a bid"
    assert panel.focus.focused is None
    expected = "bid.choose_first_wizard" if game == "wizard" else "bid.choose_first"
    assert panel.toast.active and panel.toast.text == t(expected), "the panel does not say how to choose"
    # The first arrow goes to the lowest bid allowed; Enter then bids it.
    step(app, [key(pygame.K_RIGHT)])
    focused = panel.focus.focused
    lowest = next(a for a, button in panel.buttons.items() if button is focused)
    assert lowest in match_of(scene).legal_actions() and lowest.kind != ActionKind.PASS
    step(app, [key(pygame.K_RETURN)])
    assert match_of(scene).actions[actions] == (0, lowest)


def test_keys_mashed_at_a_hot_seat_cover_make_no_bid(tmp_path):
    """Seen in the window: two people at one screen, keys hit at random as the cards were dealt
    (Space, Enter, 3, 4, P, ...). A Space once the cover listens shows that player's cards (its
    reveal key), but the keys after it only choose: Pass stays to be confirmed by Enter."""
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "human", "ai:random", "ai:random"], seed=3)
    assert run_until(app, lambda: top_name(app) == "CoverScene")
    wait_past_cover_guard(app)
    match = match_of(scene)
    actions = len(match.actions)
    for code, unicode in [
        (pygame.K_SPACE, " "),
        (pygame.K_RETURN, "\r"),
        (pygame.K_3, "3"),
        (pygame.K_4, "4"),
        (pygame.K_p, "p"),
        (pygame.K_u, "u"),
        (pygame.K_d, "d"),
        (pygame.K_p, "p"),
    ]:
        step(app, [key(code, unicode), key_up(code)], dt=DOUBLE_ENTER)
    panel = top(app, BiddingPanel)
    assert len(match.actions) == actions, "a stray key made a bid"
    assert panel.focus.focused is panel.buttons[PASS] and panel.toast.text == t("keys.chosen", choice=t("bid.pass"))
    step(app, [key(pygame.K_RETURN), key_up(pygame.K_RETURN)])
    assert len(match.actions) == actions + 1 and match.actions[actions][1].kind == ActionKind.PASS


def test_the_trump_chooser_opens_with_nothing_chosen(tmp_path):
    """A Bid Whist declarer's Enter left over from the bid names no trump."""
    rules = make_rules("bidwhist", {}, players=4)
    for seed in range(1, 300):
        match = Match(rules, [Seat("You", "human")] + [Seat(f"C{i}", "ai:random") for i in (1, 2, 3)], seed)
        while match.phase == Phase.BID:
            if match.current_player == 0:
                bids = [a for a in match.legal_actions() if a.kind == ActionKind.BID]
                match.apply(max(bids, key=lambda a: (a.value, -a.mode)) if bids else match.legal_actions()[0])
            else:
                match.apply(match.choose_ai_action())
        if (
            match.phase == Phase.CONTRACT
            and match.current_player == 0
            and any(a.kind == ActionKind.TRUMP for a in match.legal_actions())
        ):
            break
    else:
        raise AssertionError("no seed found")
    app = make_app(tmp_path)
    chosen: list[Action] = []
    chooser = ContractChooser(app, match.view(0), chosen.append)
    app.push(chooser)
    step(app, [key(pygame.K_RETURN)])
    assert chosen == [] and chooser.focus.focused is None and chooser in app.scenes
    assert chooser.toast.active and chooser.toast.text == t("contract.choose_suit_first")
    step(app, [key(pygame.K_RIGHT)])
    step(app, [key(pygame.K_RETURN)])
    assert chosen and chosen[0].kind == ActionKind.TRUMP


def test_a_wizard_bid_is_chosen_from_nothing_also_after_a_language_change(tmp_path):
    """Building the buttons again in another language keeps the panel's nothing-chosen start."""
    app = make_app(tmp_path)
    scene = table_at_the_hands_score_pad(app, "wizard", 3, 5, rounds=3)
    step(app, [key(pygame.K_RETURN)])
    assert run_until(app, lambda: top_name(app) == "BiddingPanel")
    panel = app.scenes[-1]
    assert isinstance(panel, BiddingPanel)
    panel.on_settings_changed()
    step(app)
    assert panel.focus.focused is None
    step(app, [key(pygame.K_RETURN)])
    assert app.scenes[-1] is panel and match_of(scene).phase == Phase.PREDICT


# --------------------------------------------------------------------------- cards


def table_at_your_card(tmp_path, keyboard: bool = True):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=5)
    _to_human_play(app, scene)
    INPUT_MODE.keyboard = keyboard
    step(app)
    return app, scene


def enter_picks_then_plays(app, scene) -> None:
    """The first Enter picks a legal card (nothing is played, the prompt says Enter again plays
    it); the second plays that card."""
    actions = len(match_of(scene).actions)
    step(app, [key(pygame.K_RETURN)])
    assert len(match_of(scene).actions) == actions, "the first Enter played a card"
    picked = scene.hand_cards()[scene.drag.selected]
    assert picked in legal_cards(scene)
    step(app, [key(pygame.K_RETURN)])
    assert match_of(scene).actions[actions] == (0, play(picked))


def test_playing_by_keys_no_card_is_picked_for_you_and_the_prompt_says_how(tmp_path):
    app, scene = table_at_your_card(tmp_path)
    assert scene.drag.selected == -1, "a card was picked before any key"
    assert scene._prompt_text() == t("table.your_turn_keys")
    step(app, [key(pygame.K_RETURN)])
    assert scene._prompt_text() == t("table.your_turn_picked")
    step(app, [key(pygame.K_ESCAPE)])  # the menu, and back: the picked card is put down
    step(app, [key(pygame.K_ESCAPE)])
    assert app.scenes[-1] is scene and scene.drag.selected == -1
    enter_picks_then_plays(app, scene)


def test_after_a_click_the_first_enter_picks_and_the_second_plays(tmp_path):
    app, scene = table_at_your_card(tmp_path, keyboard=False)
    click(app, (5, scene.layout.hand_rect.centery))  # beside the hand: nothing is played or picked
    assert match_of(scene).current_player == 0 and scene.drag.selected == -1
    enter_picks_then_plays(app, scene)


def test_after_a_resize_the_first_enter_picks_and_the_second_plays(tmp_path):
    app, scene = table_at_your_card(tmp_path)
    pygame.display.set_mode((900, 640), pygame.RESIZABLE)
    step(app, [pygame.event.Event(pygame.VIDEORESIZE, size=(900, 640), w=900, h=640)])
    assert scene.layout.size == (900, 640)
    enter_picks_then_plays(app, scene)


def test_a_dealt_hand_picks_no_card_for_a_player_who_bid_by_keys(tmp_path):
    """Wizard, one card: the bid made by Right and Enter, a second Enter, and the card is not played."""
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], seed=4, rounds=3)
    assert run_until(app, lambda: top_name(app) == "BiddingPanel")
    step(app, [key(pygame.K_RIGHT)])
    step(app, [key(pygame.K_RETURN)])
    assert run_until(app, lambda: app.scenes[-1] is scene and scene.input_enabled())
    actions = len(match_of(scene).actions)
    step(app, [key(pygame.K_RETURN)])
    assert len(match_of(scene).actions) == actions, "the Enter after the bid played the card"


def test_a_double_enter_that_leaves_the_end_screen_starts_no_new_game(tmp_path):
    app = make_app(tmp_path)
    match = Match(
        make_rules("wizard", {"rounds": 1}, players=3),
        [Seat("You", "human"), Seat("B", "ai:random"), Seat("C", "ai:random")],
        3,
    )
    while not match.is_over:
        if match.current_player == 0:
            first_choice(match)
        else:
            match.apply(match.choose_ai_action())
    app.replace(TableScene(app, local_session(match, app, ai_runner=InlineAiRunner())))
    assert run_until(app, lambda: top_name(app) == "EndScene")
    end = top(app, EndScene)
    end.focus.focus(end.back)
    step(app, [key(pygame.K_RETURN)])  # "Back to start"
    start_screen = top(app, StartScene)
    step(app, [key_up(pygame.K_RETURN)])
    step(app, [key(pygame.K_RETURN), key_up(pygame.K_RETURN)])  # the hurried second Enter
    assert app.scenes[-1] is start_screen, "a stray Enter started a new game"
    # The keyboard still reaches Start: the first arrow or Tab goes there, Enter presses it.
    step(app, [key(pygame.K_TAB)])
    assert start_screen.focus.focused is start_screen.start_button
