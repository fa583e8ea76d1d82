"""Hints at the table, the computer's "thinking" mark, and leaving mid-search.

The hint function is a test double (``FakeHintFor``) handed to the table, so
these tests check the table's side of the contract: who may ask, when, what
the request carries (the human's own view, the budget of the settings), how
the answer is worded and marked, and that asking never spends the turn. The
search behind real hints is the hard player's, tested with it.

Most tables here use the inline runner or the manual one of the table tests
(jobs wait until the test runs them), so nothing sleeps. The two tests with a
real thread leave the table, or quit, while a deliberately slow player is
stuck, and check that doing so returns at once.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import random
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from collections.abc import Mapping

import pygame
import pytest

from game.ai.budget import DEFAULT_BUDGET, SearchBudget
from game.settings.app_settings import Settings
from game.session.match import Match, Seat
from game.rules import Action, ActionKind, GameDef, Phase, PlayerView, make_rules
from game.rules.actions import PASS, bid, choose_direction, choose_trump, discard, play, predict
from game.rules.cards import BIG_JOKER, WIZARD, card_code, parse_card
from game.ui.app import App
from game.session.ai_worker import AiJob, ThreadedAiRunner
from game.session.hints import think_budget
from game.ui import theme
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.contract_chooser import ContractChooser
from game.ui.dialogs.kitty_dialog import KittyDialog
from game.ui.table.hints import action_words, hint_text, suggested_cards
from game.session.local import local_session
from game.ui.table.scene import TableScene
from game.ui.text import t
from scene_checks import local_session_of, match_of, top
from test_ui_table import ManualRunner, _to_human_play, key, run_until, step, top_name

TIMEOUT = 10.0
# The hint key, H.
H_CODE, H_UNICODE = pygame.K_h, "h"


@dataclass(frozen=True)
class FakeHint:
    action: Action
    reason_key: str = "hint.take_trick"
    params: Mapping[str, int | str] = field(default_factory=lambda: {"n": 2})


class FakeHintFor:
    """Suggests the first legal action (or ``choose(view)``) and records every call."""

    def __init__(self, choose=None) -> None:
        self.calls: list[tuple[PlayerView, SearchBudget | None]] = []
        self.choose = choose

    def __call__(
        self, game_def: GameDef, view: PlayerView, rng: random.Random, budget: SearchBudget | None = None
    ) -> FakeHint:
        self.calls.append((view, budget))
        if self.choose is not None:
            return self.choose(view)
        return FakeHint(view.legal_actions[0])


def make_app(tmp_path, hints: bool = True, think: float | None = 0.7) -> App:
    settings = Settings(animation_speed="instant", ai_pause_seconds=0.0, hints=hints, ai_think_seconds=think)
    return App(data_dir=str(tmp_path), size=(1280, 720), settings=settings)


def open_table(app: App, match: Match, hint_for, runner=None) -> TableScene:
    from game.session.ai_worker import InlineAiRunner

    scene = TableScene(
        app, local_session(match, app, ai_runner=runner if runner is not None else InlineAiRunner(), hint_for=hint_for)
    )
    app.replace(scene)
    return scene


def new_match(game: str, controllers: list[str], seed: int = 3, **rules) -> Match:
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"][: len(controllers)]
    return Match(
        make_rules(game, rules, players=len(controllers)), [Seat(n, c) for n, c in zip(names, controllers)], seed
    )


def press_h(app: App) -> None:
    step(app, [key(H_CODE, H_UNICODE)])


def bidwhist_declarer_match(seed: int = 3) -> Match:
    """A Bid Whist match where the human at seat 0 has won the bid and must name trump."""
    match = new_match("bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed)
    while match.phase == Phase.BID:
        legal = match.legal_actions()
        if match.current_player == 0:
            # The highest bid in a suit contract (no trump would ask for a ranking, not a suit).
            bids = [a for a in legal if a.kind == ActionKind.BID and a.mode != 2]
            match.apply(max(bids, key=lambda a: (a.value, a.mode)) if bids else legal[0])
        else:
            match.apply(PASS if PASS in legal else legal[0])
    assert match.current_player == 0 and match.phase == Phase.CONTRACT
    assert any(a.kind == ActionKind.TRUMP for a in match.legal_actions())
    return match


# ---------------------------------------------------------------------------- words


def test_hints_are_worded_as_an_action_and_its_reason():
    queen_of_hearts = parse_card("QH")
    assert (
        hint_text(FakeHint(play(queen_of_hearts), "hint.take_trick", {"n": 1}))
        == "Play the queen of hearts. Take the trick: you still need 1."
    )
    assert action_words(FakeHint(play(BIG_JOKER))) == "Play the big joker"
    assert action_words(FakeHint(play(WIZARD))) == "Play a Wizard"
    assert action_words(FakeHint(bid(4, 2))) == "Bid 4 no trump"
    assert action_words(FakeHint(predict(3))) == "Bid 3"
    assert action_words(FakeHint(PASS)) == "Pass"
    assert action_words(FakeHint(choose_trump(0))) == "Name spades trump"
    assert action_words(FakeHint(choose_direction(1))) == "Choose downtown"
    # Suits, bid modes and directions travel as numbers and are named in the sentence.
    assert (
        hint_text(FakeHint(choose_trump(3), "hint.trump", {"suit": 3, "n": 5}))
        == "Choose clubs: your longest suit (5 cards)."
    )
    assert (
        hint_text(FakeHint(bid(4, 1), "hint.bid_books", {"books": 4, "mode": 1, "n": 10}))
        == "Bid 4 downtown: your side expects about 10 books."
    )
    assert (
        hint_text(FakeHint(choose_direction(0), "hint.direction", {"direction": 0}))
        == "Play uptown: your cards are strongest that way."
    )
    # A reason this interface cannot word is left out, never shown as a raw key.
    assert hint_text(FakeHint(PASS, "hint.not_a_key", {})) == "Pass."


def test_a_discard_hint_names_and_marks_the_whole_set():
    cards = [parse_card(code) for code in ("2C", "3C", "4C", "5D", "6D", "BJ")]
    hint = FakeHint(discard(cards[0]), "hint.discard", {"cards": " ".join(card_code(c) for c in cards)})
    assert suggested_cards(hint) == set(cards)
    assert action_words(hint).startswith("Discard the 2 of clubs, the 3 of clubs") and "the big joker" in action_words(
        hint
    )
    # Without the set, the one card of the action.
    assert suggested_cards(FakeHint(discard(cards[1]), "hint.discard", {})) == {cards[1]}


def test_every_reason_the_hints_give_has_english_text():
    from game.ai.hints import REASON_KEYS
    from game.ui.text import has_text

    for reason in REASON_KEYS:
        assert has_text(reason), reason


def test_the_thinking_time_setting_is_the_search_budget():
    budget = think_budget(1.5)
    assert budget == SearchBudget(max_simulations=DEFAULT_BUDGET.max_simulations * 5, max_seconds=1.5)
    assert think_budget(None) is None, "Automatic: the hint level's own default"


# ---------------------------------------------------------------------------- the table


def test_h_shows_a_hint_for_the_card_to_play_without_spending_the_turn(tmp_path):
    app = make_app(tmp_path, think=0.7)
    fake = FakeHintFor()
    scene = open_table(app, new_match("wizard", ["human", "ai:random", "ai:random"], rounds=3), fake)
    assert scene.hint_button.visible
    _to_human_play(app, scene)
    actions_before = list(match_of(scene).actions)
    press_h(app)
    assert len(fake.calls) == 1
    view, budget = fake.calls[0]
    assert view.seat == 0 and view.hand == match_of(scene).view(0).hand, "the human's own view, nothing more"
    assert budget == think_budget(0.7)
    suggested = fake.calls[0][0].legal_actions[0]
    assert scene.message == hint_text(FakeHint(suggested)) and not scene.message_warning
    assert scene.hint_cards() == {suggested.value}
    for _ in range(5):
        step(app)
    assert match_of(scene).actions == actions_before and scene.input_enabled(), "the turn is still the human's"
    # Asking again at the same position shows the same hint without a new search.
    press_h(app)
    assert len(fake.calls) == 1 and scene.message == hint_text(FakeHint(suggested))
    # Once the card is played, the hint and its mark are gone.
    scene.apply_action(suggested)
    assert scene.hint_cards() == frozenset()


def test_on_automatic_thinking_time_the_hint_searches_for_the_hint_levels_own_time(tmp_path):
    app = make_app(tmp_path, think=None)
    fake = FakeHintFor()
    scene = open_table(app, new_match("wizard", ["human", "ai:random", "ai:random"], rounds=3), fake)
    _to_human_play(app, scene)
    press_h(app)
    assert len(fake.calls) == 1 and fake.calls[0][1] is None


def test_the_hint_button_works_like_h(tmp_path):
    app = make_app(tmp_path)
    fake = FakeHintFor()
    scene = open_table(app, new_match("wizard", ["human", "ai:random", "ai:random"], rounds=3), fake)
    _to_human_play(app, scene)
    centre = scene.hint_button.rect.center
    for kind in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        event = pygame.event.Event(kind, pos=centre, button=1, rel=(0, 0), buttons=(1, 0, 0))
        step(app, [event])
    assert len(fake.calls) == 1 and scene.hint_cards()


def test_no_hint_outside_the_humans_turn(tmp_path):
    app, fake, runner, scene = wizard_hint_table(tmp_path)
    assert run_until(app, lambda: bool(runner.jobs) and match_of(scene).current_player != 0)
    press_h(app)
    assert fake.calls == [] and scene.message == t("hint.not_now")


@pytest.mark.parametrize(
    ("controllers", "hints"),
    [
        (["human", "ai:random", "ai:random"], False),  # the setting is off
        (["human", "human", "ai:random"], True),  # two people share the screen
        (["ai:random", "ai:random", "ai:random"], True),  # nobody to help
    ],
)
def test_no_hint_button_unless_one_human_and_the_setting_is_on(tmp_path, controllers, hints):
    app = make_app(tmp_path, hints=hints)
    fake = FakeHintFor()
    scene = open_table(app, new_match("wizard", controllers, rounds=3), fake, ManualRunner())
    assert not scene.hints_offered and not scene.hint_button.visible
    assert scene.layout.hint_button.width == 0
    step(app)
    press_h(app)
    scene.request_hint()
    assert fake.calls == []


def computers_played_until_the_bidding_panel(app, runner) -> bool:
    """Run the computer seats' pending jobs; true once the human's bidding panel is up."""
    for job in runner.jobs:
        if not job.finished and not job.cancelled and job.request.seat != 0:
            job.run()
    return top_name(app) == "BiddingPanel"


def wizard_hint_table(tmp_path, fake: FakeHintFor | None = None):
    """A three-round Wizard table (one human, two computers) whose hints (``fake``'s, by
    default the first legal action) and computer moves the test runs by hand."""
    app = make_app(tmp_path)
    fake = fake if fake is not None else FakeHintFor()
    runner = ManualRunner()
    scene = open_table(app, new_match("wizard", ["human", "ai:random", "ai:random"], seed=4, rounds=3), fake, runner)
    return app, fake, runner, scene


def table_at_the_humans_bid(tmp_path, fake: FakeHintFor | None = None):
    """A Wizard table (one human, two computers) with the human's bidding panel open."""
    app, fake, runner, scene = wizard_hint_table(tmp_path, fake)
    assert run_until(app, lambda: computers_played_until_the_bidding_panel(app, runner))
    return app, fake, runner, scene


def test_thinking_then_the_hint_from_the_runner(tmp_path):
    app, fake, runner, scene = table_at_the_humans_bid(tmp_path)
    panel = app.scenes[-1]
    press_h(app)  # through the bidding panel, which hands the key to the table
    hint_job = runner.jobs[-1]
    assert hint_job.seat == 0 and fake.calls == []
    assert panel.toast.text == t("hint.thinking")
    for _ in range(5):
        step(app)
    assert top_name(app) == "BiddingPanel" and match_of(scene).current_player == 0
    hint_job.run()
    step(app)
    assert fake.calls and panel.toast.text == hint_text(FakeHint(fake.calls[0][0].legal_actions[0]))
    assert match_of(scene).current_player == 0, "the bid is still the human's to make"


def framed_in_gold(dialog, action: Action) -> bool:
    """Whether the dialog, drawn, shows the hint's gold frame just outside the left edge of ``action``'s button."""
    surface = pygame.Surface(dialog.window_size())
    dialog.draw(surface)
    rect = dialog.button_for(action).rect
    return tuple(surface.get_at((rect.left - 2, rect.centery)))[:3] == theme.ACCENT


def test_a_bid_hint_frames_its_button_until_the_hint_is_gone(tmp_path):
    last_bid = FakeHintFor(lambda view: FakeHint(view.legal_actions[-1], "hint.bid", {"n": 1}))
    app, _, runner, scene = table_at_the_humans_bid(tmp_path, last_bid)
    panel = top(app, BiddingPanel)
    first, last = panel.view.legal_actions[0], panel.view.legal_actions[-1]
    assert not framed_in_gold(panel, first) and not framed_in_gold(panel, last)
    press_h(app)
    runner.jobs[-1].run()
    step(app)
    assert panel.suggested == last
    assert framed_in_gold(panel, last) and not framed_in_gold(panel, first), "only the suggested bid is framed"
    assert match_of(scene).current_player == 0, "the frame shows the bid; it does not make it"
    scene._drop_hint()
    assert panel.suggested is None and not framed_in_gold(panel, last)


def trump_chooser_after_h(tmp_path, suit: int):
    """The Bid Whist declarer's trump chooser once H asked for a hint that names ``suit``."""
    app = make_app(tmp_path)
    fake = FakeHintFor(lambda view: FakeHint(choose_trump(suit), "hint.trump", {"suit": suit, "n": 4}))
    scene = open_table(app, bidwhist_declarer_match(), fake)
    assert run_until(app, lambda: top_name(app) == "ContractChooser")
    chooser = top(app, ContractChooser)
    press_h(app)
    return app, fake, scene, chooser


def test_a_trump_hint_frames_the_suit_and_names_nothing(tmp_path):
    _, _, scene, chooser = trump_chooser_after_h(tmp_path, 2)
    assert framed_in_gold(chooser, choose_trump(2))
    assert not any(framed_in_gold(chooser, choose_trump(suit)) for suit in (0, 1, 3))
    assert match_of(scene).phase == Phase.CONTRACT


def test_a_hint_for_a_position_the_game_has_left_is_dropped(tmp_path):
    app, fake, runner, scene = table_at_the_humans_bid(tmp_path)
    scene.request_hint()
    hint_job = runner.jobs[-1]
    panel = app.scenes[-1]
    panel.finish(panel.on_action, match_of(scene).legal_actions()[0])  # the human bids before the hint is in
    assert hint_job.cancelled
    hint_job.run()  # a cancelled job never computes, nor reports
    step(app)
    assert fake.calls == [] and scene._hint is None and scene.hint_cards() == frozenset()


def test_trump_chooser_h_is_the_hint_not_hearts(tmp_path):
    app, fake, scene, chooser = trump_chooser_after_h(tmp_path, 0)
    assert match_of(scene).phase == Phase.CONTRACT, "H did not name hearts"
    assert len(fake.calls) == 1 and chooser.toast.text == "Choose spades: your longest suit (4 cards)."
    step(app, [key(pygame.K_2, "2")])  # hearts by its number: chosen, and Enter names it
    assert match_of(scene).phase == Phase.CONTRACT and chooser.focus.focused is chooser.buttons[1]
    step(app, [key(pygame.K_RETURN, "\r")])
    assert match_of(scene).phase != Phase.CONTRACT and match_of(scene).view(0).trump == 1


def test_kitty_hint_marks_the_six_and_selects_nothing(tmp_path):
    app = make_app(tmp_path)

    def six(view: PlayerView) -> FakeHint:
        cards = sorted(view.hand)[:6]
        return FakeHint(discard(cards[0]), "hint.discard", {"cards": " ".join(card_code(c) for c in cards)})

    fake = FakeHintFor(six)
    scene = open_table(app, bidwhist_declarer_match(), fake)
    assert run_until(app, lambda: top_name(app) == "ContractChooser")
    scene.apply_action(next(a for a in match_of(scene).legal_actions() if a.kind == ActionKind.TRUMP))
    top(app, ContractChooser).close()
    assert run_until(app, lambda: top_name(app) == "KittyDialog")
    kitty = top(app, KittyDialog)
    press_h(app)
    wanted = set(sorted(match_of(scene).view(0).hand)[:6])
    assert {c.card for c in kitty.cards if c.suggested} == wanted
    assert kitty.selected == [], "the hint shows the six; it does not choose them"
    assert match_of(scene).phase == Phase.DISCARD
    kitty.draw(app.window)


# ---------------------------------------------------------------------------- thinking mark and leaving


def test_the_thinking_seat_is_marked_while_its_job_runs(tmp_path):
    app = make_app(tmp_path)
    runner = ManualRunner()
    scene = open_table(
        app, new_match("wizard", ["human", "ai:random", "ai:random"], seed=4, rounds=3), FakeHintFor(), runner
    )
    assert run_until(app, lambda: bool(runner.jobs))
    job: AiJob = runner.jobs[0]
    assert scene.thinking_seat() == job.seat != 0
    step(app)  # drawn with the mark
    job.run()
    assert scene.thinking_seat() == -1
    step(app)


class SlowRunner(ThreadedAiRunner):
    """The app's threaded runner, with every computer player replaced by one stuck until ``gate`` opens."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.started = threading.Event()

    def submit(self, request):
        return super().submit(SlowRequest(request, self.gate, self.started))


class SlowRequest:
    def __init__(self, request, gate: threading.Event, started: threading.Event) -> None:
        self.seat, self.key = request.seat, request.key
        self.request = request
        self.gate, self.started = gate, started

    def decide(self):
        self.started.set()
        self.gate.wait(TIMEOUT)
        return self.request.decide()


@contextmanager
def stuck_computer_player(tmp_path):
    """A table whose computer player is stuck in its search (the runner's thread
    waits on a shut gate); yields ``(app, runner, scene, job)`` once it is, and
    opens the gate afterwards, whatever happened."""
    app = make_app(tmp_path)
    runner = SlowRunner()
    scene = open_table(
        app, new_match("wizard", ["human", "ai:random", "ai:random"], seed=4, rounds=3), FakeHintFor(), runner
    )
    try:
        assert run_until(app, lambda: runner.started.is_set(), frames=600)
        job = local_session_of(scene).computers.job
        assert job is not None
        yield app, runner, scene, job
    finally:
        runner.gate.set()
        assert runner.join(TIMEOUT)


def test_leaving_the_table_mid_search_returns_at_once(tmp_path):
    with stuck_computer_player(tmp_path) as (app, runner, scene, job):
        assert job.running and scene.thinking_seat() == job.seat
        assert runner._thread is not None and runner._thread.daemon
        app.show_start()  # must not wait for the stuck player: the gate is still shut
        assert top_name(app) == "StartScene" and job.cancelled and not runner.gate.is_set()
    assert not job.finished and job.result is None and match_of(scene).actions == []


def test_the_hard_players_hint_reaches_the_table(tmp_path):
    """The real ``game.ai.hints.hint_for`` (loaded on first use), at the shortest thinking time."""
    app = make_app(tmp_path, think=0.1)
    scene = open_table(app, new_match("wizard", ["human", "ai:random", "ai:random"], rounds=3), hint_for=None)
    _to_human_play(app, scene)
    press_h(app)
    marked = scene.hint_cards()
    assert len(marked) == 1 and play(next(iter(marked))) in match_of(scene).legal_actions()
    assert scene.message is not None and scene.message.startswith("Play ") and not scene.message_warning


def test_quitting_mid_search_returns_at_once(tmp_path):
    with stuck_computer_player(tmp_path) as (app, runner, _scene, job):
        app.close(quit_pygame=False)  # the window's close: every scene is left, nothing is awaited
        assert app.scenes == [] and job.cancelled and not runner.gate.is_set()
