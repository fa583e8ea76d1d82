"""The round-by-round comparison of two hard Wizard settings (benchmarks/wizard_paired.py), on tiny sizes.

Checks what its error bars rest on: a round's deal does not depend on how the earlier rounds were played,
one setting played twice gives the same round exactly (every decision has its own seeded RNG), and the
report pairs each round's base with its variant and counts one sample per deal."""

from __future__ import annotations

import pytest

from benchmarks import wizard_paired as paired
from game.ai.budget import SearchBudget
from game.rules import Phase, WizardView
from test_benchmark_ai import (
    deals_of_a_random_game,  # deal number -> (dealer, hands) of a random game
)


def test_round_starts_are_the_seeds_deals_before_any_bid() -> None:
    starts = paired.round_starts(7)
    assert [start.deal_number for start in starts] == list(range(1, 16))
    # Each at its first decision: the dealer's trump choice after a Wizard turn-up, else the first bid.
    for start in starts:
        view = start.view(0)
        assert isinstance(view, WizardView)
        assert start.phase in (Phase.TRUMP_CHOICE, Phase.PREDICT) and all(bid < 0 for bid in view.predictions)
    # The medium players reach the same cards as random play would: the deal is the seed's.
    random_deals = deals_of_a_random_game("wizard", 7, play_seed=99)
    assert {start.deal_number: tuple(tuple(h) for h in start.hands) for start in starts} == {
        number: hands for number, (_, hands) in random_deals.items()
    }


def test_one_setting_plays_a_round_the_same_way_twice() -> None:
    setting = paired.Setting.parse("sims=12,seconds=1000")
    start = paired.round_starts(3)[5]
    first = paired.play_round(start, 2, setting.player(), seed=3)
    second = paired.play_round(start, 2, setting.player(), seed=3)
    assert (first.bid, first.taken, first.lead) == (second.bid, second.taken, second.lead)
    assert len(first.decision_seconds) == len(second.decision_seconds) > 0
    # Under a cap of 12 simulations and no time limit, every searched decision runs all 12.
    assert first.simulations == second.simulations and set(first.simulations) == {12}
    assert 0 <= first.bid <= 6 and 0 <= first.taken <= 6


def result(lead: float, bid: int = 1, taken: int = 1) -> paired.RoundResult:
    return paired.RoundResult(bid, taken, lead, (0.1,), (100, 300))


def test_report_counts_a_deal_as_one_sample_and_names_the_rounds_that_differ() -> None:
    base, variant = paired.Setting(SearchBudget(200, 0.3)), paired.Setting(SearchBudget(400, 0.3))
    # Two deals of four seats: the variant gains 4 points in one round of the first deal, none in the second.
    rows = [(result(10), result(14))] + [(result(0), result(0))] * 7
    lines = paired.report(rows, [base, variant])
    assert lines[0].startswith("base      200 simulations") and lines[1].startswith("variant   400 simulations")
    assert lines[0].endswith("200 simulations a searched decision on average, median 200")
    assert "variant - base: +0.50 ± " in lines[2]
    assert "over 2 deals" in lines[2] and "1 of 8 rounds came out differently" in lines[2]


def test_report_compares_every_variant_with_the_base() -> None:
    settings = [paired.Setting(), paired.Setting(spoil_weight=1.0), paired.Setting(play_deviation_z=1.0)]
    # One deal: variant 1 loses 8 points in one seat's round, variant 2 changes nothing.
    rows = [(result(10), result(2), result(10))] + [(result(0), result(0), result(0))] * 3
    lines = paired.report(rows, settings)
    assert [line.split()[:2] for line in lines[:3]] == [["base", "400"], ["variant", "1"], ["variant", "2"]]
    assert "spoil 1," in lines[1] and "play z 1, play fit 4:" in lines[2]
    assert lines[3].startswith("variant 1 - base: -2.00 ") and "1 of 4 rounds came out differently" in lines[3]
    assert lines[4].startswith("variant 2 - base: +0.00 ") and "0 of 4 rounds came out differently" in lines[4]


def test_settings_parse_and_reject_what_no_search_could_run() -> None:
    assert paired.Setting.parse("sims=400,seconds=0.25") == paired.Setting(SearchBudget(400, 0.25))
    assert paired.Setting.parse("") == paired.Setting()
    assert paired.Setting.parse("spoil=1,play_z=0.5") == paired.Setting(spoil_weight=1.0, play_deviation_z=0.5)
    player = paired.Setting.parse("spoil=0.25,play_z=2").player()
    assert (player.spoil_weight, player.play_deviation_z) == (0.25, 2.0)
    for bad in ("sims=0", "seconds=0", "depth=3", "spoil=-1", "play_z=-0.5"):
        with pytest.raises((SystemExit, ValueError)):
            paired.Setting.parse(bad)
    assert paired.parse_seeds("1401-1403,9") == [1401, 1402, 1403, 9]
