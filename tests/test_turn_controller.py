"""The table's turn flow, without pygame: who acts, who may look, what happens next.

Each test builds a ``TurnController`` for a seating (no human, one human,
hot seat) and feeds it the facts of successive frames, checking the typed
decision it returns. Nothing here imports pygame or starts a thread.
"""

from __future__ import annotations

import ast

import pytest

from game.rules import Phase
from game.rules.tricks import PUBLIC_SEAT
from game.ui.table.turn_controller import (
    AutoNextDeal,
    AutoPlay,
    ComputerTurn,
    GameOver,
    Prompt,
    ShowCover,
    ShowHandOver,
    TableFacts,
    TurnController,
    Wait,
)

FRAME = 1 / 60


def facts(
    position=(0, 1), phase=Phase.BID, seat=0, animating=False, covered=False, ai_pause=0.0, auto_next_delay=0.0
) -> TableFacts:
    return TableFacts(
        position=position,
        phase=phase,
        current_seat=seat,
        animating=animating,
        covered=covered,
        ai_pause=ai_pause,
        auto_next_delay=auto_next_delay,
    )


def test_the_controller_imports_no_window_thread_or_clock():
    import game.ui.table.turn_controller as module

    tree = ast.parse(open(module.__file__, encoding="utf-8").read())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0] if not node.module.startswith("game") else node.module)
    assert not imported & {"pygame", "threading", "time", "random", "queue"}, imported
    assert not any(name.startswith("game.ui") for name in imported if name != module.__name__), imported


def forced(position=(0, 1), seat=0, delay=0.5, covered=False, animating=False) -> TableFacts:
    """A human at ``seat`` to play with one card they may play, auto-play on."""
    return TableFacts(
        position=position,
        phase=Phase.PLAY,
        current_seat=seat,
        animating=animating,
        covered=covered,
        forced_play=True,
        auto_play_delay=delay,
    )


# ---------------------------------------------------------------- the viewer


def test_single_human_is_always_the_viewer():
    turns = TurnController([2])
    assert turns.viewer == 2 and not turns.hot_seat
    turns.action_applied(actor=2, next_seat=3, new_deal=False)
    turns.action_applied(actor=3, next_seat=0, new_deal=False)
    turns.action_applied(actor=-1, next_seat=1, new_deal=True)
    assert turns.viewer == 2


def test_no_human_views_seat_zero_at_the_bottom():
    turns = TurnController([])
    assert turns.viewer == 0 and not turns.hot_seat
    turns.action_applied(actor=0, next_seat=1, new_deal=False)
    turns.action_applied(actor=-1, next_seat=1, new_deal=True)
    assert turns.viewer == 0


def test_hot_seat_starts_public():
    turns = TurnController([0, 2])
    assert turns.hot_seat and turns.viewer == PUBLIC_SEAT


def test_hot_seat_viewer_after_cover_then_public_after_acting():
    turns = TurnController([0, 2])
    turns.cover_passed(0)
    assert turns.viewer == 0
    turns.action_applied(actor=0, next_seat=1, new_deal=False)
    assert turns.viewer == PUBLIC_SEAT


def test_hot_seat_same_human_acting_straight_again_keeps_the_screen():
    turns = TurnController([0, 1])
    turns.cover_passed(1)
    # The declarer names trump and then discards: nobody else acted in between.
    turns.action_applied(actor=1, next_seat=1, new_deal=False)
    assert turns.viewer == 1


def test_hot_seat_new_deal_always_goes_public():
    turns = TurnController([0, 1])
    turns.cover_passed(1)
    # Even when the same human is first to act in the new deal (issue 9's finding).
    turns.action_applied(actor=1, next_seat=1, new_deal=True)
    assert turns.viewer == PUBLIC_SEAT


def test_hot_seat_computer_action_keeps_public_view():
    turns = TurnController([0, 2])
    turns.action_applied(actor=1, next_seat=2, new_deal=False)
    assert turns.viewer == PUBLIC_SEAT


def test_cover_for_a_computer_seat_is_refused():
    with pytest.raises(ValueError):
        TurnController([0, 2]).cover_passed(1)


# ---------------------------------------------------------------- waiting


@pytest.mark.parametrize("animating, covered", [(True, False), (False, True), (True, True)])
def test_nothing_happens_while_animating_or_covered(animating, covered):
    for humans, seat in (([0], 0), ([0], 1), ([0, 1], 1), ([], 2)):
        turns = TurnController(humans)
        assert turns.next_step(facts(seat=seat, animating=animating, covered=covered), FRAME) == Wait()
    turns = TurnController([0])
    for phase in (Phase.HAND_OVER, Phase.GAME_OVER):
        assert turns.next_step(facts(phase=phase, seat=-1, covered=covered, animating=animating), FRAME) == Wait()


# ---------------------------------------------------------------- humans


@pytest.mark.parametrize(
    "phase", [Phase.BID, Phase.CONTRACT, Phase.DISCARD, Phase.PLAY, Phase.PREDICT, Phase.TRUMP_CHOICE]
)
def test_single_human_is_prompted_once_per_position(phase):
    turns = TurnController([0])
    assert turns.next_step(facts(phase=phase, seat=0), FRAME) == Prompt(0, phase)
    assert turns.next_step(facts(phase=phase, seat=0), FRAME) == Wait()
    assert turns.next_step(facts(position=(1, 1), phase=phase, seat=0), FRAME) == Prompt(0, phase)


def test_refused_choice_prompts_again():
    turns = TurnController([0])
    assert turns.next_step(facts(seat=0), FRAME) == Prompt(0, Phase.BID)
    turns.action_refused()
    assert turns.next_step(facts(seat=0), FRAME) == Prompt(0, Phase.BID)


def test_a_prompt_waits_for_the_table_to_be_uncovered():
    turns = TurnController([0])
    assert turns.next_step(facts(seat=0, covered=True), FRAME) == Wait()
    assert turns.next_step(facts(seat=0), FRAME) == Prompt(0, Phase.BID)


def test_hot_seat_cover_before_every_human_turn():
    turns = TurnController([0, 2])
    assert turns.next_step(facts(seat=0), FRAME) == ShowCover(0)
    assert turns.next_step(facts(seat=0, covered=True), FRAME) == Wait()
    turns.cover_passed(0)
    assert turns.next_step(facts(seat=0), FRAME) == Prompt(0, Phase.BID)
    turns.action_applied(actor=0, next_seat=2, new_deal=False)
    # Seat 1 is a computer; seat 2's player gets a cover of their own.
    assert turns.next_step(facts(position=(1, 1), seat=2), FRAME) == ShowCover(2)
    turns.cover_passed(2)
    assert turns.viewer == 2
    assert turns.next_step(facts(position=(1, 1), seat=2), FRAME) == Prompt(2, Phase.BID)


def test_hot_seat_same_human_again_after_computers_passes_a_fresh_cover():
    turns = TurnController([0, 2])
    turns.cover_passed(0)
    assert turns.next_step(facts(phase=Phase.PLAY, seat=0), FRAME) == Prompt(0, Phase.PLAY)
    turns.action_applied(actor=0, next_seat=1, new_deal=False)
    turns.action_applied(actor=1, next_seat=0, new_deal=False)
    assert turns.next_step(facts(position=(2, 1), phase=Phase.PLAY, seat=0), FRAME) == ShowCover(0)


def test_hot_seat_same_human_straight_again_is_prompted_without_cover():
    turns = TurnController([0, 1])
    turns.cover_passed(1)
    assert turns.next_step(facts(phase=Phase.CONTRACT, seat=1), FRAME) == Prompt(1, Phase.CONTRACT)
    turns.action_applied(actor=1, next_seat=1, new_deal=False)
    assert turns.next_step(facts(position=(1, 1), phase=Phase.DISCARD, seat=1), FRAME) == Prompt(1, Phase.DISCARD)


def test_showing_a_cover_hands_the_screen_over():
    """Should a cover be due while another human still holds the screen, the screen goes public first."""
    turns = TurnController([0, 1])
    turns.cover_passed(0)
    assert turns.next_step(facts(seat=1), FRAME) == ShowCover(1)
    assert turns.viewer == PUBLIC_SEAT


# ---------------------------------------------------------------- computers


def test_a_computer_turn_is_paced_once_its_pause_is_over():
    # The thinking itself is the session's (tests/test_session.py); the table only paces it.
    turns = TurnController([0])
    pause = 0.5
    decisions = [turns.next_step(facts(position=(4, 1), seat=3, ai_pause=pause), 0.1) for _ in range(6)]
    assert decisions[:4] == [ComputerTurn(3, paced=False)] * 4
    assert decisions[4] == ComputerTurn(3, paced=True)


def test_the_pause_counts_only_while_the_table_is_idle_and_uncovered():
    turns = TurnController([0])
    for _ in range(10):
        turns.next_step(facts(position=(4, 1), seat=3, ai_pause=0.3, covered=True), 0.1)
        turns.next_step(facts(position=(4, 1), seat=3, ai_pause=0.3, animating=True), 0.1)
    assert turns.next_step(facts(position=(4, 1), seat=3, ai_pause=0.3), 0.1) == ComputerTurn(3, paced=False)


def test_the_pause_starts_again_at_every_position():
    turns = TurnController([0])
    for _ in range(10):
        turns.next_step(facts(position=(4, 1), seat=3, ai_pause=0.3), 0.1)
    assert turns.next_step(facts(position=(5, 1), seat=1, ai_pause=0.3), 0.1) == ComputerTurn(1, paced=False)


def test_nobody_to_act_outside_a_hand_over_waits():
    for humans in ([], [0], [0, 1]):
        assert TurnController(humans).next_step(facts(phase=Phase.PLAY, seat=-1), FRAME) == Wait()


def test_no_computer_moves_behind_an_open_menu():
    turns = TurnController([0])
    assert turns.next_step(facts(position=(4, 1), seat=2, covered=True), FRAME) == Wait()


# ---------------------------------------------------------------- the end of a hand and of the game


def test_hand_over_with_humans_shows_the_pad_once():
    turns = TurnController([0])
    over = facts(position=(52, 1), phase=Phase.HAND_OVER, seat=-1)
    assert not turns.awaiting_next_deal((52, 1))
    assert turns.next_step(over, FRAME) == ShowHandOver((52, 1))
    assert turns.awaiting_next_deal((52, 1))
    assert turns.next_step(over, FRAME) == Wait()
    # The player closed the pad without dealing: it is not pushed again.
    assert turns.next_step(over, 5.0) == Wait()
    assert not turns.awaiting_next_deal((53, 2))


def test_hot_seat_hand_over_is_shown_to_everyone():
    turns = TurnController([0, 1])
    assert turns.next_step(facts(position=(52, 1), phase=Phase.HAND_OVER, seat=-1), FRAME) == ShowHandOver((52, 1))
    assert turns.viewer == PUBLIC_SEAT


def test_hand_over_without_humans_deals_on_after_the_delay():
    turns = TurnController([])
    over = facts(position=(52, 1), phase=Phase.HAND_OVER, seat=-1, auto_next_delay=1.0)
    assert [turns.next_step(over, 0.4) for _ in range(2)] == [Wait(), Wait()]
    assert turns.next_step(over, 0.4) == AutoNextDeal()


def test_hand_over_without_humans_at_instant_speed_deals_at_once():
    turns = TurnController([])
    assert turns.next_step(facts(position=(52, 1), phase=Phase.HAND_OVER, seat=-1), 0.0) == AutoNextDeal()


def test_game_over_is_decided_once():
    turns = TurnController([0])
    end = facts(position=(90, 5), phase=Phase.GAME_OVER, seat=-1)
    assert turns.next_step(facts(position=(90, 5), phase=Phase.GAME_OVER, seat=-1, covered=True), FRAME) == Wait()
    assert turns.next_step(end, FRAME) == GameOver()
    assert turns.next_step(end, FRAME) == Wait()
    assert turns.next_step(end, FRAME) == Wait()


def test_game_over_waits_for_the_last_animation():
    turns = TurnController([])
    assert turns.next_step(facts(position=(90, 5), phase=Phase.GAME_OVER, seat=-1, animating=True), FRAME) == Wait()
    assert turns.next_step(facts(position=(90, 5), phase=Phase.GAME_OVER, seat=-1), FRAME) == GameOver()


# ---------------------------------------------------------------- a whole hot-seat sequence


def test_a_hot_seat_trick_sequence():
    """Humans at 0 and 2, computers at 1 and 3, one trick and the next lead, frame by frame."""
    turns = TurnController([0, 2])
    seen = []
    order = [0, 1, 2, 3, 2]  # seat 2 wins the trick and leads the next one
    for index, seat in enumerate(order):
        position = (index, 1)
        for _ in range(4):
            step = turns.next_step(facts(position=position, phase=Phase.PLAY, seat=seat), FRAME)
            seen.append((seat, type(step).__name__, turns.viewer))
            if isinstance(step, ShowCover):
                turns.cover_passed(step.seat)
            elif isinstance(step, (Prompt, ComputerTurn)):
                break
        turns.action_applied(actor=seat, next_seat=order[index + 1] if index + 1 < len(order) else 3, new_deal=False)
    names = [(seat, name) for seat, name, _ in seen]
    assert names == [
        (0, "ShowCover"),
        (0, "Prompt"),
        (1, "ComputerTurn"),
        (2, "ShowCover"),
        (2, "Prompt"),
        (3, "ComputerTurn"),
        (2, "ShowCover"),
        (2, "Prompt"),
    ]
    # Computers always play with the screen public.
    assert all(viewer == PUBLIC_SEAT for seat, name, viewer in seen if seat in (1, 3))


# ---------------------------------------------------------------- forced cards


def test_a_forced_card_plays_itself_once_after_the_pause():
    turns = TurnController([0])
    assert turns.next_step(forced(), FRAME) == Prompt(0, Phase.PLAY)
    assert turns.next_step(forced(), 0.3) == Wait()
    assert turns.next_step(forced(), 0.3) == AutoPlay(0, (0, 1))
    assert turns.next_step(forced(), 0.3) == Wait(), "once per position"
    assert turns.next_step(forced(position=(4, 1)), FRAME) == Prompt(0, Phase.PLAY)


def test_the_forced_card_pause_counts_only_while_the_table_is_idle_and_uncovered():
    turns = TurnController([0])
    turns.next_step(forced(), FRAME)
    assert turns.next_step(forced(covered=True), 5.0) == Wait()
    assert turns.next_step(forced(animating=True), 5.0) == Wait()
    assert turns.next_step(forced(), 0.2) == Wait()
    assert turns.next_step(forced(), 0.4) == AutoPlay(0, (0, 1))


def test_without_a_forced_card_nothing_plays():
    turns = TurnController([0])
    playing = facts(phase=Phase.PLAY)
    turns.next_step(playing, FRAME)
    assert turns.next_step(playing, 10.0) == Wait()


def test_a_hot_seat_forced_card_waits_for_its_cover():
    turns = TurnController([0, 2])
    assert turns.next_step(forced(), FRAME) == ShowCover(0)
    assert turns.next_step(forced(), 10.0) == Wait(), "nobody at the screen yet"
    turns.cover_passed(0)
    assert turns.next_step(forced(), FRAME) == Prompt(0, Phase.PLAY)
    assert turns.next_step(forced(), 0.3) == Wait(), "the pause starts when the cover is passed"
    assert turns.next_step(forced(), 0.3) == AutoPlay(0, (0, 1))


def test_a_forced_card_at_a_position_undone_to_waits_for_its_player():
    turns = TurnController([0])
    turns.next_step(forced(), FRAME)
    assert turns.next_step(forced(), 1.0) == AutoPlay(0, (0, 1))
    turns.position_rewound((0, 1))  # the player took the card back
    assert turns.next_step(forced(), FRAME) == Prompt(0, Phase.PLAY)
    assert turns.next_step(forced(), 10.0) == Wait()
