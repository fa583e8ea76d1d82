"""The benchmark that measures the expert's model of a Bid Whist hand counts every scored hand once,
in the form ``bidwhist_odds.HAND_OUTCOMES`` holds."""

from __future__ import annotations

import ast

import pytest

from benchmarks.bidwhist_outcomes import count_outcomes, main
from game.ai.bidwhist_odds import HAND_OUTCOMES


def test_every_scored_hand_is_counted_once_under_its_contract_kind() -> None:
    trump, notrump, hands, thrown_in = count_outcomes(12, 70000)
    assert hands >= 12  # a game has at least one hand
    assert sum(trump.values()) + sum(notrump.values()) + thrown_in == hands
    # Made contracts score at least the 3 books bid over six, set ones lose at least 3; no-trump
    # changes are counted before the multiplier, so they lie in the same range.
    for change in list(trump) + list(notrump):
        assert 3 <= abs(change) <= 13


def test_the_printed_table_is_the_form_the_odds_module_reads(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--games", "3"])
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("HAND_OUTCOMES = (")
    table = ast.literal_eval(last.split("=", 1)[1].strip())
    assert len(table) == len(HAND_OUTCOMES) and all(isinstance(kind, dict) for kind in table)
