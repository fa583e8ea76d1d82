"""Every computer level of every registered game, checked without knowing the levels.

The players come from the registry (``game.ai.levels`` and ``make_player``), so a level the registry
gains (easy, hard) is checked here with no edit. A level whose player has a search budget (the
``budget`` attribute of game/ai/budget.py's ``SearchBudget``) is rebuilt from the registry's factory
with a small simulation cap and a time cap that never binds: the tests stay fast, and the decision
depends on the view and the RNG alone, as reproducibility needs.

The positions are random: games under one-at-a-time variations of every house rule a game declares
(each choice, each flag flipped), at every table size, played at random, with views taken in turn from
every phase so bidding and the declarer's choices are checked as often as card play.

* legality: no level proposes an action outside the view's legal actions;
* reproducibility: the same view and the same seeded RNG give the same action;
* no peeking: two full states built from the acting seat's view with different guesses of the hidden
  cards (``sample_hidden`` + ``state_from_view``) give that seat equal views, and every level decides
  the same in both for the same RNG seed, although the other hands differ.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import random
from typing import Any

import pytest

from game.ai import ComputerPlayer, levels, make_player
from game.rules import GameDef, PlayerView, all_games, make_rules, new_game
from game.rules.actions import NEXT_DEAL
from game.rules.core import Phase
from game.rules.errors import RuleConfigError
from game.rules.house_rules import Rules
from game.rules.search import sample_hidden, state_from_view

# Search levels are built with this many simulations per decision. The module is looked up, not
# imported blindly: without it no registered level can have a budget, and none is rebuilt.
SMALL_SIMULATIONS = 3
UNBINDING_SECONDS = 60.0
BUDGET_MODULE = "game.ai.budget" if importlib.util.find_spec("game.ai.budget") else None

POSITIONS_PER_GAME = 300
SEARCH_POSITIONS_PER_GAME = 100  # a search level costs a few ms a decision even on a small budget
PEEK_POSITIONS_PER_GAME = 60


def build_level(game_def: GameDef, level: str) -> ComputerPlayer:
    """The registry's player, rebuilt with a small, deterministic budget if it searches."""
    player = make_player(game_def, level)
    budget: Any = getattr(player, "budget", None)
    if BUDGET_MODULE is None or budget is None:
        return player
    search_budget: Any = importlib.import_module(BUDGET_MODULE).SearchBudget
    assert isinstance(budget, search_budget), f"{level}'s budget is not a SearchBudget"
    module_name, _, factory_name = game_def.ai_levels[level].partition(":")
    factory: Any = getattr(importlib.import_module(module_name), factory_name)
    small = dataclasses.replace(budget, max_simulations=SMALL_SIMULATIONS, max_seconds=UNBINDING_SECONDS)
    rebuilt: Any = factory(budget=small)
    assert rebuilt.budget == small
    searching: ComputerPlayer = rebuilt
    return searching


def is_search_level(player: ComputerPlayer) -> bool:
    return getattr(player, "budget", None) is not None


LEVEL_CASES = [
    pytest.param(game_def, level, id=f"{game_def.name}-{level}")
    for game_def in all_games()
    for level in levels(game_def)
]


def rule_variants(game_def: GameDef) -> list[Rules]:
    """The default rules and, for each choice or flag the game declares, the rules with it changed alone.

    Variations the game refuses (a combination it does not allow) are left out."""
    overrides: list[dict[str, Any]] = [{}]
    for spec in game_def.rule_specs:
        if spec.kind == "bool":
            overrides.append({spec.key: not spec.default})
        elif spec.kind == "choice":
            overrides += [{spec.key: choice} for choice in spec.choices if choice != spec.default]
    variants = []
    for values in overrides:
        try:
            variants.append(make_rules(game_def.name, values))
        except RuleConfigError:
            continue
    return variants


def random_views(game_def: GameDef, count: int, seed: int) -> list[PlayerView]:
    """``count`` views of the seat to act, from random play under varied rules and table sizes.

    Random play spends most decisions on cards, so the views are drawn from a larger pool in turn from
    each phase (bidding, contract, discards, trump choice, play) while that phase has views left."""
    rng = random.Random(seed)
    variants = rule_variants(game_def)
    pool: dict[Phase, list[PlayerView]] = {}
    pooled = 0
    while pooled < 4 * count:
        rules = rng.choice(variants)
        players = rng.choice(game_def.player_counts())
        try:
            state, _ = new_game(rules, players, rng.randrange(1 << 30))
        except RuleConfigError:  # a house rule this table size does not allow
            continue
        for _ in range(400):
            if state.is_terminal:
                break
            if state.phase == Phase.HAND_OVER:
                state.apply_in_place(NEXT_DEAL, None, True)
                continue
            if rng.random() < 0.15:
                pool.setdefault(state.phase, []).append(state.view(state.current))
                pooled += 1
            state.apply_in_place(rng.choice(state.legal_actions()), None, True)
    queues = list(pool.values())
    for queue in queues:
        rng.shuffle(queue)
    views: list[PlayerView] = []
    while len(views) < count:
        for queue in queues:
            if queue and len(views) < count:
                views.append(queue.pop())
    return views


def positions_for(player: ComputerPlayer, game_def: GameDef, full: int, searching: int, seed: int) -> list[PlayerView]:
    return random_views(game_def, searching if is_search_level(player) else full, seed)


def test_rule_variants_cover_every_declared_choice() -> None:
    for game_def in all_games():
        variants = rule_variants(game_def)
        for spec in game_def.rule_specs:
            if spec.kind == "choice":
                seen = {getattr(rules, spec.key) for rules in variants}
                assert len(seen) > 1, f"{game_def.name}: no variant changes {spec.key}"


@pytest.mark.parametrize(("game_def", "level"), LEVEL_CASES)
def test_no_level_proposes_an_illegal_action(game_def: GameDef, level: str) -> None:
    player = build_level(game_def, level)
    views = positions_for(player, game_def, POSITIONS_PER_GAME, SEARCH_POSITIONS_PER_GAME, seed=11)
    phases = set()
    for index, view in enumerate(views):
        action = player.choose(view, random.Random(index))
        assert action in view.legal_actions, f"{level} chose {action} at {view.phase.name}, not legal"
        phases.add(view.phase)
    assert len(phases) >= 3, "the random positions should reach bidding, play and a declarer's or dealer's choice"


@pytest.mark.parametrize(("game_def", "level"), LEVEL_CASES)
def test_seeded_decisions_are_reproducible(game_def: GameDef, level: str) -> None:
    player = build_level(game_def, level)
    views = positions_for(player, game_def, POSITIONS_PER_GAME // 2, SEARCH_POSITIONS_PER_GAME // 2, seed=23)
    for index, view in enumerate(views):
        first = player.choose(view, random.Random(1000 + index))
        again = build_level(game_def, level).choose(view, random.Random(1000 + index))
        assert first == again, f"{level} gave {first} then {again} for the same view and seed"


@pytest.mark.parametrize("game_def", all_games(), ids=lambda game_def: game_def.name)
def test_no_level_peeks_at_hidden_cards(game_def: GameDef) -> None:
    players = {level: build_level(game_def, level) for level in levels(game_def)}
    different_worlds = 0
    for index, view in enumerate(random_views(game_def, PEEK_POSITIONS_PER_GAME, seed=37)):
        seat = view.seat
        world_a = state_from_view(view, sample_hidden(view, random.Random(2 * index)), random.Random(1))
        world_b = state_from_view(view, sample_hidden(view, random.Random(2 * index + 1)), random.Random(2))
        view_a, view_b = world_a.view(seat), world_b.view(seat)
        assert view_a == view_b == view, "both guesses must look the same from the acting seat"
        others = [s for s in range(view.num_players) if s != seat]
        if any(world_a.hands[s] != world_b.hands[s] for s in others):
            different_worlds += 1
        for level, player in players.items():
            seed = 5000 + index
            in_a = player.choose(view_a, random.Random(seed))
            in_b = player.choose(view_b, random.Random(seed))
            assert in_a == in_b, (
                f"{level} chose {in_a} with one guess of the hidden cards and {in_b} with "
                f"another, from the same view at {view.phase.name}"
            )
    # The check means something only if the hidden cards really differ between the two worlds.
    assert different_worlds >= PEEK_POSITIONS_PER_GAME // 2
