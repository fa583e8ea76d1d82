"""The oracle level of the benchmarks: the expert's search, every world the real deal, never in the game."""

from __future__ import annotations

import random

import pytest

from benchmarks import ai as tournament
from benchmarks.oracle import ORACLE, BidWhistOracle, WizardOracle, true_hidden
from game.ai import levels
from game.ai.budget import SearchBudget
from game.rules import Phase, all_games, get_game, make_rules, new_game
from game.rules.actions import NEXT_DEAL
from game.rules.engine import GameState
from game.rules.hidden import HiddenCards
from game.rules.search import HiddenSampler
from game.rules.view import PlayerView

SMALL = SearchBudget(max_simulations=24, max_seconds=60.0)


def position(game: str, seed: int, phase: Phase, skip: int) -> GameState:
    """A state of seeded random play at the ``skip``-th decision of ``phase`` with more than one choice."""
    state, _ = new_game(make_rules(game), 4, seed)
    play = random.Random(seed)
    seen = 0
    while not state.is_terminal:
        if state.phase == Phase.HAND_OVER:
            state.apply_in_place(NEXT_DEAL, None, True)
            continue
        if state.phase == phase and len(state.legal_actions()) > 1:
            if seen == skip:
                return state
            seen += 1
        state.apply_in_place(play.choice(state.legal_actions()), None, True)
    raise AssertionError(f"{game} seed {seed} has no such position")


class Recording:
    """Wraps a world drawer and keeps what it drew."""

    def __init__(self, draw: object) -> None:
        self.draw = draw
        self.drawn: list[HiddenCards] = []

    def __call__(self, view: PlayerView, sampler: HiddenSampler, rng: random.Random) -> HiddenCards:
        hidden = self.draw(view, sampler, rng)  # type: ignore[operator]
        self.drawn.append(hidden)
        return hidden


@pytest.mark.parametrize(
    "game,phase,oracle_type",
    [
        ("wizard", Phase.PREDICT, WizardOracle),
        ("wizard", Phase.PLAY, WizardOracle),
        ("bidwhist", Phase.BID, BidWhistOracle),
        ("bidwhist", Phase.PLAY, BidWhistOracle),
    ],
)
def test_every_world_the_oracle_searches_is_the_real_deal(
    game: str, phase: Phase, oracle_type: type[WizardOracle] | type[BidWhistOracle], monkeypatch: pytest.MonkeyPatch
) -> None:
    state = position(game, 3, phase, 2)
    oracle = oracle_type(SMALL)
    recorders: list[Recording] = []
    original = oracle._world_drawer

    def recording_drawer(view: object) -> Recording:
        recorder = Recording(original(view))  # type: ignore[arg-type]
        recorders.append(recorder)
        return recorder

    monkeypatch.setattr(oracle, "_world_drawer", recording_drawer)
    oracle.peek(state)
    view = state.view(state.current)
    decision = oracle.decide(view, random.Random(5))
    assert decision.action in view.legal_actions
    drawn = [hidden for recorder in recorders for hidden in recorder.drawn]
    assert drawn, "the oracle searched no world"
    truth = true_hidden(state, state.current)
    assert all(hidden == truth for hidden in drawn)
    others = [seat for seat in range(4) if seat != state.current]
    assert all(truth.hands[seat] == tuple(state.hands[seat]) for seat in others)


def test_the_oracle_will_not_search_a_game_it_was_not_shown() -> None:
    shown = position("wizard", 3, Phase.PLAY, 2)
    other = position("wizard", 4, Phase.PLAY, 2)
    oracle = WizardOracle(SMALL)
    oracle.peek(shown)
    view = other.view(other.current)
    with pytest.raises(RuntimeError, match="the oracle decides only in the game the tournament showed it"):
        oracle._true_world(view, HiddenSampler(view), random.Random(1))


def test_the_oracle_is_a_benchmark_level_never_the_games() -> None:
    for game_def in all_games():
        assert ORACLE not in levels(game_def)
    for name, oracle_type in (("wizard", WizardOracle), ("bidwhist", BidWhistOracle)):
        game_def = get_game(name)
        assert ORACLE in tournament.known_levels(game_def)
        player = tournament.build_player(game_def, tournament.LevelSpec(ORACLE, budget_seconds=0.05))
        assert isinstance(player, (WizardOracle, BidWhistOracle))
        assert player.budget.max_seconds == 0.05
        assert type(player) is oracle_type


def test_the_tournament_shows_the_oracle_each_game_it_decides_in() -> None:
    # A short Bid Whist game: the oracle on a tiny budget against the medium players, played by the
    # tournament's own loop, which must show it the real state before each decision (else it raises).
    rules = make_rules("bidwhist", {"target_score": 3})
    state, _ = new_game(rules, 4, 11)
    oracle = BidWhistOracle(SearchBudget(max_simulations=6, max_seconds=60.0))
    medium = tournament.make_level_player(get_game("bidwhist"), "medium")
    seats = [oracle, medium, oracle, medium]
    result = tournament.SetResult()
    tournament.play_game(state, seats, ["oracle", "medium", "oracle", "medium"], random.Random(2), result)
    assert state.is_terminal
    assert len(result.cpu_times["oracle"]) > 0
