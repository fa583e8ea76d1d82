"""Fit the Wizard play-out policy of ``game.ai.wizard_fitted`` to the baseline's card choices.

Run ``python -m benchmarks.wizard_imitation record --seed S --games N --out DIR [--simulations K]
[--rounds R]`` to play N games of four baseline players and keep each decision, then ``python -m
benchmarks.wizard_imitation fit DIR``.
"""

from __future__ import annotations

# ``record`` saves, per game, every decision's view and the action the baseline took (a pickle per
# game, so a run stopped early keeps the games it finished). The baseline stops on its time cap, so
# a second run of the same seeds need not make the same choices. ``fit`` reads the card choices that
# had more than one card playing differently, holds out every fourth game, and fits one row of
# weights per situation by maximum likelihood (L-BFGS, a small L2 penalty); it prints how often the
# fitted policy's likeliest card and the medium player's card are the baseline's, on the games it
# fitted and on those it held out, the mean log-likelihood of the held-out choices, and ``WEIGHTS``
# to paste into ``game/ai/wizard_fitted.py``. numpy and scipy come with the development requirements.

import argparse
import importlib
import math
import pickle
import random
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.baseline import BASELINE_BUDGET, wizard_baseline
from game.ai.budget import SearchBudget
from game.ai.search_pimc import RolloutPolicy, play_out
from game.ai.wizard_fitted import (
    CARD_FEATURES,
    SITUATIONS,
    FittedRolloutPlayer,
    card_features,
    choice_odds,
    situation,
)
from game.ai.wizard_medium import WizardTable, card_to_play
from game.ai.wizard_clairvoyant import ClairvoyantRolloutPlayer
from game.ai.wizard_rollout import WizardRolloutPlayer
from game.rules import Phase, make_rules, new_game
from game.rules.actions import NEXT_DEAL
from game.rules.wizard import WizardState

PLAYERS = 4
PENALTY = 1.0  # L2 weight on the fitted weights
DEFAULT_PLAYS = 40


def record(seed: int, games: int, out: Path, simulations: int | None = None, rounds: int | None = None) -> None:
    """Play ``games`` games of four baseline players from ``seed`` on, one pickle a game in ``out``
    (``simulations``: fewer than the baseline's 400 a decision; ``rounds``: shorter games)."""
    out.mkdir(parents=True, exist_ok=True)
    overrides = {} if rounds is None else {"rounds": rounds}
    rules = make_rules("wizard", overrides)
    budget = None if simulations is None else SearchBudget(simulations, BASELINE_BUDGET.max_seconds)
    player = wizard_baseline(budget)
    for game_seed in range(seed, seed + games):
        state, _ = new_game(rules, PLAYERS, game_seed)
        rng = random.Random(game_seed)
        decisions: list[tuple[Any, Any]] = []
        start = time.process_time()
        while not state.is_terminal:
            if state.phase == Phase.HAND_OVER:
                state.apply_in_place(NEXT_DEAL, None, True)
                continue
            view = state.view(state.current)
            action = player.choose(view, rng)
            decisions.append((view, action))
            state.apply_in_place(action, None, True)
        path = out / f"game{game_seed}.pkl"
        with path.open("wb") as file:
            pickle.dump({"seed": game_seed, "overrides": overrides, "decisions": decisions}, file)
        print(f"game {game_seed}: {len(decisions)} decisions, {time.process_time() - start:.0f} s CPU", flush=True)


@dataclass(frozen=True)
class Choice:
    """One card choice: its situation, each card's features, the card taken and the medium card."""

    situation: int
    features: list[tuple[float, ...]]
    taken: int  # index into ``features``
    medium: int


def choices(paths: Iterable[Path]) -> list[Choice]:
    """The card choices of the recorded games with more than one card playing differently."""
    found = []
    for path in paths:
        for view, action in _recorded(path)["decisions"]:
            if view.phase != Phase.PLAY or len(view.legal_actions) < 2:
                continue
            table = WizardTable.from_view(view)
            cards, rows = card_features(table)
            if len(cards) < 2 or action.value not in cards:
                continue
            found.append(Choice(situation(table), rows, cards.index(action.value), cards.index(card_to_play(table))))
    return found


def _recorded(path: Path) -> dict[str, Any]:
    with path.open("rb") as file:
        game: dict[str, Any] = pickle.load(file)
    return game


def fit(train: Sequence[Choice], penalty: float = PENALTY) -> list[list[float]]:
    """Weights maximising the likelihood of ``train``'s choices, less ``penalty`` times their squares."""
    import numpy as np

    minimize = importlib.import_module("scipy.optimize").minimize  # SciPy has no type information

    width = len(CARD_FEATURES)
    data = [(c.situation, np.array(c.features), c.taken) for c in train]

    def loss(flat: Any) -> tuple[float, Any]:
        weights = flat.reshape(SITUATIONS, width)
        total, grad = 0.0, np.zeros_like(weights)
        for row, features, taken in data:
            scores = features @ weights[row]
            odds = np.exp(scores - scores.max())
            odds /= odds.sum()
            total -= float(np.log(odds[taken]))
            grad[row] += odds @ features - features[taken]
        return total + penalty * float(flat @ flat), grad.ravel() + 2 * penalty * flat

    result = minimize(loss, np.zeros(SITUATIONS * width), jac=True, method="L-BFGS-B")
    return [[float(w) for w in row] for row in result.x.reshape(SITUATIONS, width)]


def likeliest_agrees(weights: Sequence[Sequence[float]], data: Sequence[Choice]) -> float:
    """Share of ``data`` whose likeliest card under ``weights`` is the one taken."""
    hits = 0
    for choice in data:
        odds = choice_odds(weights[choice.situation], choice.features)
        hits += int(max(range(len(odds)), key=odds.__getitem__) == choice.taken)
    return hits / len(data)


def mean_log_likelihood(weights: Sequence[Sequence[float]], data: Sequence[Choice]) -> float:
    """Mean log of the chance ``weights`` give the card taken."""
    total = sum(math.log(choice_odds(weights[c.situation], c.features)[c.taken]) for c in data)
    return total / len(data)


def recorded_games(directory: Path) -> list[Path]:
    paths = sorted(directory.glob("game*.pkl"))
    if len(paths) < 2:
        raise SystemExit(f"{directory}: at least two recorded games are needed, found {len(paths)}")
    return paths


def held_out(paths: Sequence[Path]) -> list[Path]:
    """The games the fit leaves out: every fourth (the last, when there are fewer than four)."""
    return list(paths[3::4] or paths[-1:])


def report(directory: Path) -> list[str]:
    paths = recorded_games(directory)
    held = held_out(paths)
    train = choices(p for p in paths if p not in held)
    test = choices(held)
    weights = fit(train)
    medium_train = sum(c.taken == c.medium for c in train) / len(train)
    medium_test = sum(c.taken == c.medium for c in test) / len(test)
    fitted_train, fitted_test = likeliest_agrees(weights, train), likeliest_agrees(weights, test)
    lines = [
        f"games: {len(paths) - len(held)} fitted, {len(held)} held out;"
        f" choices: {len(train)} fitted, {len(test)} held out",
        f"likeliest card is the baseline's: fitted {fitted_train:.1%} (medium card {medium_train:.1%}),"
        f" held out {fitted_test:.1%} (medium card {medium_test:.1%})",
        f"held-out mean log-likelihood a choice: {mean_log_likelihood(weights, test):.3f}",
        "# fmt: off",
        "WEIGHTS: tuple[tuple[float, ...], ...] = (",
    ]
    lines += ["    (" + ", ".join(f"{round(w, 2) + 0.0:.2f}" for w in row) + ")," for row in weights]
    lines += [")", "# fmt: on"]
    return lines


def round_starts(path: Path) -> Iterator[tuple[WizardState, tuple[int, ...]]]:
    """Each round of a recorded game as its play began (bids made, no card played) and the tricks
    each seat really took, replayed from the game's seed and the recorded actions."""
    game = _recorded(path)
    state, _ = new_game(make_rules("wizard", game["overrides"]), PLAYERS, game["seed"])
    assert isinstance(state, WizardState)
    start: WizardState | None = None
    for view, action in game["decisions"]:
        if state.phase == Phase.HAND_OVER:
            state.apply_in_place(NEXT_DEAL, None, True)
        if view.seat != state.current:
            raise ValueError(f"{path}: the recorded decisions do not replay from seed {game['seed']}")
        if state.phase == Phase.PLAY and start is None:
            start = state.copy()
        state.apply_in_place(action, None, True)
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER) and start is not None:
            yield start, tuple(state.history[-1][1])
            start = None


@dataclass
class OutcomeTally:
    """How a play-out policy's simulated rounds matched what the baseline players really did."""

    seats: int = 0
    real_hits: int = 0
    predicted_hits: float = 0.0
    brier: float = 0.0  # squared error of the chance of making the bid, against made or not
    trick_error: float = 0.0  # absolute error of the mean tricks taken

    def add(self, bids: Sequence[int], real: Sequence[int], simulated: Sequence[Sequence[int]]) -> None:
        for seat, bid in enumerate(bids):
            made = float(real[seat] == bid)
            chance = sum(tricks[seat] == bid for tricks in simulated) / len(simulated)
            mean = sum(tricks[seat] for tricks in simulated) / len(simulated)
            self.seats += 1
            self.real_hits += int(made)
            self.predicted_hits += chance
            self.brier += (chance - made) ** 2
            self.trick_error += abs(mean - real[seat])

    def text(self) -> str:
        n = self.seats
        return (
            f"bids made {self.predicted_hits / n:.1%} (really {self.real_hits / n:.1%}),"
            f" Brier score {self.brier / n:.3f}, tricks off by {self.trick_error / n:.3f} a seat"
        )


def outcomes(paths: Sequence[Path], plays: int) -> list[str]:
    """From each recorded round's real start of play, ``plays`` play-outs by the medium players, by
    the fitted policy and by the clairvoyant one, scored against the bids the baseline players really made."""
    policies: dict[str, RolloutPolicy] = {
        "medium": WizardRolloutPlayer(),
        "fitted": FittedRolloutPlayer(),
        "clairvoyant": ClairvoyantRolloutPlayer(),
    }
    tallies = {name: OutcomeTally() for name in policies}
    rounds = 0
    for path in paths:
        for start, real in round_starts(path):
            rounds += 1
            for name, policy in policies.items():
                simulated = []
                for play_seed in range(plays):
                    trial = start.copy()
                    play_out(trial, policy, random.Random(play_seed))
                    simulated.append(tuple(trial.tricks_won))
                tallies[name].add(start.bids, real, simulated)
    lines = [f"{rounds} rounds of {len(paths)} games, {plays} play-outs each from the real start of play:"]
    return lines + [f"  {name}: {tally.text()}" for name, tally in tallies.items()]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.wizard_imitation", description=__doc__)
    verbs = parser.add_subparsers(dest="verb", required=True)
    rec = verbs.add_parser("record", help="play games of four baseline players and keep their decisions")
    rec.add_argument("--seed", type=int, default=7000)
    rec.add_argument("--games", type=int, default=20)
    rec.add_argument("--out", type=Path, required=True)
    rec.add_argument("--simulations", type=int, help="fewer simulations a decision than the baseline's (a quick look)")
    rec.add_argument("--rounds", type=int, help="shorter games than the rules' (a quick look)")
    fitting = verbs.add_parser("fit", help="fit the weights to recorded games and report how well they predict")
    fitting.add_argument("directory", type=Path)
    told = verbs.add_parser("outcomes", help="how well each play-out policy predicts the bids made, held-out games")
    told.add_argument("directory", type=Path)
    told.add_argument("--plays", type=int, default=DEFAULT_PLAYS, help="play-outs a round and policy")
    args = parser.parse_args(argv)
    if args.verb == "record":
        record(args.seed, args.games, args.out, args.simulations, args.rounds)
    elif args.verb == "fit":
        print("\n".join(report(args.directory)))
    else:
        print("\n".join(outcomes(held_out(recorded_games(args.directory)), args.plays)))


if __name__ == "__main__":
    main()
