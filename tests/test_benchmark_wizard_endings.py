"""The Wizard endings comparison (benchmarks/wizard_endings.py), on tiny sizes: its positions are fixed by
the seed, each ending is played to the round's end from the same position, and the report pairs them."""

from __future__ import annotations

from benchmarks import wizard_endings
from game.rules import Phase


def test_a_seed_gives_the_same_positions_each_a_choice_with_the_cards_asked_for() -> None:
    found = wizard_endings.positions(3, 3)
    again = wizard_endings.positions(3, 3)
    assert found and [n for n, _ in found] == [n for n, _ in again]
    numbers = [n for n, _ in found]
    assert numbers == sorted(set(numbers)) and min(numbers) >= wizard_endings.MIN_ROUND
    for (_, state), (_, twin) in zip(found, again):
        assert state.phase == Phase.PLAY and len(state.hands[state.current]) == 3 and len(state.legal_cards()) > 1
        assert state.view(state.current) == twin.view(twin.current)


def test_both_endings_start_from_the_position_and_finish_the_round() -> None:
    job = wizard_endings.Job(seed=3, tricks_left=3, expert_simulations=4, baseline_simulations=4)
    number, state = wizard_endings.positions(3, 3)[0]
    legal = state.legal_actions()
    on = wizard_endings.play_ending(state.copy(), job, True, 7)
    off = wizard_endings.play_ending(state.copy(), job, False, 7)
    for ending in (on, off):
        assert ending.first_choice in legal and len(ending.cpu_seconds) >= 1
    assert state.phase == Phase.PLAY and state.round_number == number  # the position itself is untouched
    lines = wizard_endings.report([(on, off), (off, on), (on, on)])
    assert lines[0].startswith("3 positions;") and "+0.00" in lines[1]  # on-off and off-on cancel, on-on is 0
    assert wizard_endings.report([(on, off)]) == ["1 position(s): too few to compare"]
