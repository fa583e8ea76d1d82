"""The Wizard play-out policy fitted to the hard player's card choices (``wizard_fitted``), and the
benchmark that records those choices and fits it (``benchmarks.wizard_imitation``)."""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path

import pytest

from benchmarks import wizard_imitation
from benchmarks.wizard_imitation import Choice
from conftest import medium_wizard_positions
from game.ai.hard import distinct_plays
from game.ai.wizard_fitted import CARD_FEATURES, SITUATIONS, WEIGHTS, FittedRolloutPlayer, card_features, card_odds
from game.ai.wizard_medium import WizardMediumPlayer, WizardTable, choose_card
from game.rules import Phase
from game.rules.view import WizardView


def _tables(seed: int, limit: int) -> list[tuple[WizardView, WizardTable]]:
    """Views and tables of medium games' card choices among more than one legal card."""
    found = []
    for _step, state in medium_wizard_positions(4, {"rounds": 9}, seed):
        if state.phase == Phase.PLAY and len(state.legal_cards()) > 1:
            view = state.view(state.current)
            found.append((view, WizardTable.from_view(view)))
            if len(found) == limit:
                break
    return found


def test_the_weights_have_a_row_for_each_situation_and_a_column_for_each_feature() -> None:
    assert len(WEIGHTS) == SITUATIONS
    assert all(len(row) == len(CARD_FEATURES) for row in WEIGHTS)


def test_the_cards_weighed_are_the_searchs_groups_and_their_odds_add_up_to_one() -> None:
    for view, table in _tables(seed=4, limit=150):
        medium = choose_card(view, random.Random(0))
        cards, odds = card_odds(table)
        assert cards == distinct_plays(view, medium)
        assert medium in cards
        assert all(0 < chance <= 1 for chance in odds) and math.isclose(sum(odds), 1.0)
        _, rows = card_features(table)
        assert [row[CARD_FEATURES.index("medium")] for row in rows] == [float(c == medium) for c in cards]


def test_the_policy_plays_each_card_about_as_often_as_its_odds_say() -> None:
    (view, table), *_ = [(v, t) for v, t in _tables(seed=6, limit=200) if len(card_odds(t)[0]) >= 3]
    cards, odds = card_odds(table)
    policy, rng, draws = FittedRolloutPlayer(), random.Random(3), 3000
    played = Counter(policy.choose(view, rng).value for _ in range(draws))
    assert set(played) <= set(cards)
    for card, chance in zip(cards, odds):
        # Four standard errors of a binomial share: fails by chance about once in 16,000 runs.
        assert abs(played[card] / draws - chance) < 4 * math.sqrt(chance * (1 - chance) / draws) + 1e-9


def test_bids_and_forced_cards_are_the_medium_players() -> None:
    policy, medium_rng, fitted_rng = FittedRolloutPlayer(), random.Random(2), random.Random(2)
    checked = 0
    for _step, state in medium_wizard_positions(4, {"rounds": 5}, seed=9):
        view = state.view(state.current)
        if state.phase == Phase.PREDICT or len(view.legal_actions) == 1:
            assert policy.choose(view, fitted_rng) == WizardMediumPlayer().choose(view, medium_rng)
            checked += 1
    assert checked > 10


def test_the_fit_finds_the_weights_that_made_the_choices() -> None:
    """Choices made by a known rule (the card of the highest "hold" among random features, in one
    situation) are predicted by the fitted weights, the rule's feature weighing most."""
    rng = random.Random(5)
    hold = CARD_FEATURES.index("hold")
    made = []
    for _ in range(400):
        count = rng.randint(2, 5)
        rows = [tuple(rng.random() for _ in CARD_FEATURES) for _ in range(count)]
        taken = max(range(count), key=lambda i: rows[i][hold])
        made.append(Choice(0, rows, taken, rng.randrange(count)))
    weights = wizard_imitation.fit(made[:300])
    assert wizard_imitation.likeliest_agrees(weights, made[300:]) > 0.9
    assert weights[0][hold] == max(weights[0])
    assert all(w == 0 for row in weights[1:] for w in row)  # no choice of theirs: the penalty keeps them at 0
    assert wizard_imitation.mean_log_likelihood(weights, made[300:]) > math.log(0.5)


def test_a_recorded_game_is_read_back_and_fitted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wizard_imitation.main(
        ["record", "--seed", "3", "--games", "2", "--out", str(tmp_path), "--simulations", "2", "--rounds", "4"]
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game3.pkl", "game4.pkl"]
    found = wizard_imitation.choices(sorted(tmp_path.iterdir()))
    assert found and all(0 <= c.taken < len(c.features) and len(c.features) >= 2 for c in found)
    wizard_imitation.main(["fit", str(tmp_path)])
    printed = capsys.readouterr().out
    assert "held out" in printed and "WEIGHTS: tuple[tuple[float, ...], ...] = (" in printed
    assert printed.count("\n    (") == SITUATIONS


def test_fitting_needs_two_recorded_games(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="at least two recorded games"):
        wizard_imitation.main(["fit", str(tmp_path)])


def test_each_recorded_round_replays_from_its_start_of_play(tmp_path: Path) -> None:
    wizard_imitation.record(11, 1, tmp_path, simulations=2, rounds=5)
    starts = list(wizard_imitation.round_starts(tmp_path / "game11.pkl"))
    assert [start.deal_number for start, _ in starts] == [1, 2, 3, 4, 5]
    for start, real in starts:
        assert start.phase == Phase.PLAY and not start.hand_plays and -1 not in start.bids
        assert sum(real) == start.deal_number
    lines = wizard_imitation.outcomes(sorted(tmp_path.iterdir()), plays=3)
    assert lines[0].startswith("5 rounds of 1 games, 3 play-outs each")
    assert [line.split(":")[0].strip() for line in lines[1:]] == ["medium", "fitted", "clairvoyant"]


def test_the_outcome_tally_scores_the_chance_of_each_bid_against_what_happened() -> None:
    tally = wizard_imitation.OutcomeTally()
    # Seat 0 bid 1 and took 1, seat 1 bid 0 and took 1; simulated: (1, 0) once, (0, 1) three times.
    tally.add([1, 0], [1, 1], [(1, 0), (0, 1), (0, 1), (0, 1)])
    assert (tally.seats, tally.real_hits) == (2, 1)
    assert math.isclose(tally.predicted_hits, 0.25 + 0.25)
    assert math.isclose(tally.brier, (0.25 - 1) ** 2 + 0.25**2)
    assert math.isclose(tally.trick_error, abs(0.25 - 1) + abs(0.75 - 1))
    assert tally.text() == "bids made 25.0% (really 50.0%), Brier score 0.312, tricks off by 0.500 a seat"
