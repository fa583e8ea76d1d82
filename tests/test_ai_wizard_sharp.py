"""The expert Wizard player's play-outs (``game.ai.wizard_sharp``): the medium player's cards with its
costliest slip mended, played out fast exactly as they are chosen from each seat's view."""

from __future__ import annotations

import random

import pytest

from conftest import card, drive, medium_wizard_positions, wz_deal, wz_round
from game.ai import search_pimc
from game.ai.expert import WizardExpertPlayer
from game.ai.hard import WizardHardPlayer
from game.ai.wizard_medium import choose_card
from game.ai.wizard_sharp import SharpWizardRolloutPlayer
from game.rules.actions import Action, play
from game.rules.view import PlayerView


class _ViewByView:
    """The sharp player without its fast play-out: the search then plays every move from a view."""

    def __init__(self) -> None:
        self.player = SharpWizardRolloutPlayer()

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return self.player.choose(view, rng)


@pytest.mark.parametrize("players,overrides", [(3, {"rounds": 8}), (4, {"bidding": "hidden", "rounds": 8}), (5, {})])
def test_a_round_played_out_fast_ends_as_the_view_by_view_loop_ends_it(players: int, overrides: dict) -> None:
    starts = 0
    for step, state in medium_wizard_positions(players, overrides, seed=11):
        if step % 4:
            continue
        fast, slow = state.clone(future_seed=step), state.clone(future_seed=step)
        search_pimc.play_out(fast, SharpWizardRolloutPlayer(), random.Random(step))
        search_pimc.play_out(slow, _ViewByView(), random.Random(step))
        assert fast.phase in search_pimc.HAND_ENDS
        assert (fast.history, fast.scores, fast.tricks) == (slow.history, slow.scores, slow.tricks)
        starts += 1
    assert starts > 20


def _one_short_with_a_wizard(seat_zero_leads: str | None):
    """Round 3, clubs trump: seat 1 bid one trick holding a Wizard, the ace of spades and a low heart,
    everyone else bid none. Seat 1 leads, or follows ``seat_zero_leads``."""
    deal = wz_deal(4, 3, {0: "WZ 4D 5D", 1: "WZ AS 2H", 2: "3D 6D 7D", 3: "8D 9D TD"}, "9C")
    if seat_zero_leads is None:
        state, _ = drive(wz_round(4, 3, deal, dealer=0), ["1", "0", "0", "0"])  # seat 1 bids first, leads
    else:
        state, _ = drive(wz_round(4, 3, deal, dealer=3), ["0", "1", "0", "0", seat_zero_leads])
    assert state.current == 1
    return state


def test_one_trick_short_with_a_wizard_in_hand_the_sharp_player_takes_it_with_the_wizard() -> None:
    view = _one_short_with_a_wizard(None).view(1)
    # The medium player tries the ace (it holds 60% of the time) and keeps the Wizard, which must
    # win a trick later: an overtrick when the ace holds. The sharp player leads the Wizard and can
    # lose the rest.
    assert choose_card(view, random.Random(0)) == card("AS")
    assert SharpWizardRolloutPlayer().choose(view, random.Random(0)) == play(card("WZ"))


def test_under_a_wizard_already_played_the_sharp_player_chooses_as_the_medium_player() -> None:
    view = _one_short_with_a_wizard("WZ").view(1)  # no card of seat 1 can win this trick
    assert SharpWizardRolloutPlayer().choose(view, random.Random(0)) == play(choose_card(view, random.Random(0)))


def test_expert_plays_out_with_the_sharp_player_and_hard_with_the_medium_player() -> None:
    assert isinstance(WizardExpertPlayer().rollout_policy(), SharpWizardRolloutPlayer)
    assert not isinstance(WizardHardPlayer().rollout_policy(), SharpWizardRolloutPlayer)
