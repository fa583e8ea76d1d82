"""Claims (RULES.md's trick play; issue 24): who may claim every trick left.

``claimable(state, seat)`` is asked of each game's rules through the registry.
The positions of the first tests are built late in a hand (a real game taken to
its first lead, then each seat's cards set to a few named ones), so the
expected answer can be read off the cards. The property tests then take many
random games to their last tricks and prove the rule sound: whenever a claim
is allowed, every legal play-out of the actual cards (all of them for a short
hand, many random orders otherwise) gives the claimant every trick left, and
``claim_play`` plays such a hand out to the end with the claimant taking all.
"""

from __future__ import annotations

import random

import pytest

from conftest import bw_deal, bw_game, cards, drive, to_play, wz_deal, wz_round
from game.rules import Phase, apply, get_game, make_rules, new_game
from game.rules.bidwhist import BidWhistState
from game.rules.claims import claim_play
from game.rules.house_rules import Rules
from game.rules.wizard import WizardState

BIDWHIST = get_game("bidwhist")
WIZARD = get_game("wizard")


def bw_late(hands: list[str], bid: str = "3up", contract: str = "trump:H", lead: int = 0, **overrides) -> BidWhistState:
    """A Bid Whist hand under ``bid`` / ``contract`` (declarer seat 0), late in its play:
    ``lead`` is on lead and each seat holds only the named cards."""
    state = to_play(bw_game(bw_deal({}), dealer=3, **overrides), bid=bid, contract=contract)
    assert state.phase == Phase.PLAY
    state.hands = [cards(text) for text in hands]
    state.current = state.leader = lead
    return state


def wz_late(hands: list[str], turn_up: str | None, lead: int = 1, **overrides) -> WizardState:
    """A Wizard round (3 players, dealer seat 0, so seat 1 leads) in its play phase with these hands."""
    size = len(cards(hands[0]))
    state = wz_round(3, size, wz_deal(3, size, dict(enumerate(hands)), turn_up), dealer=0, **overrides)
    while state.phase == Phase.PREDICT:
        state, _ = apply(state, state.legal_actions()[0])
    assert state.phase == Phase.PLAY
    state.current = state.leader = lead
    return state


# ---------------------------------------------------------------- Bid Whist
BIDWHIST_CASES = [
    # (name, hands of seats 0-3, bid, contract, claimant, claimable, house rules)
    (
        "top cards, no trump left outside",
        ["AS AD AC", "KS KD KC", "QS QD QC", "JS JD JC"],
        "3up",
        "trump:H",
        0,
        True,
        {},
    ),
    (
        "a trump left outside can ruff a side ace",
        ["AS AD AC", "KS KD 2H", "QS QD QC", "JS JD JC"],
        "3up",
        "trump:H",
        0,
        False,
        {},
    ),
    ("a joker is a trump outside", ["AS AD AC", "KS KD LJ", "QS QD QC", "JS JD JC"], "3up", "trump:H", 0, False, {}),
    (
        "only trumps, all higher than the trump outside",
        ["BJ AH KH", "2H KD KC", "QS QD QC", "JS JD JC"],
        "3up",
        "trump:H",
        0,
        True,
        {},
    ),
    ("a higher trump outside", ["LJ AH KH", "BJ KD KC", "QS QD QC", "JS JD JC"], "3up", "trump:H", 0, False, {}),
    (
        "a higher card of the suit outside",
        ["KS AD AC", "AS KD KC", "QS QD QC", "JS JD JC"],
        "3up",
        "trump:H",
        0,
        False,
        {},
    ),
    ("not on lead", ["AS AD AC", "KS KD KC", "QS QD QC", "JS JD JC"], "3up", "trump:H", 1, False, {}),
    ("a defender on lead may claim", ["KS KD KC", "AS AD AC", "QS QD QC", "JS JD JC"], "3up", "trump:H", 1, True, {}),
    (
        "downtown: the 2 is high after the ace",
        ["2S 3S AD", "KS QS KD", "JS TS QD", "9S 8S JD"],
        "3down",
        "trump:H",
        0,
        True,
        {},
    ),
    (
        "downtown: a 3 under an outside 2",
        ["3S 4S AD", "2S QS KD", "JS TS QD", "9S 8S JD"],
        "3down",
        "trump:H",
        0,
        False,
        {},
    ),
    (
        "downtown, ace low: the ace is the lowest",
        ["AS 2D 3D", "2S KD QD", "JS TS QC", "9S 8S JD"],
        "3down",
        "trump:H",
        0,
        False,
        {"downtown_ace": "low"},
    ),
    (
        "downtown, ace high: the same ace wins",
        ["AS 2D 3D", "2S KD QD", "JS TS QC", "9S 8S JD"],
        "3down",
        "trump:H",
        0,
        True,
        {},
    ),
    (
        "no trump: a joker in hand never wins",
        ["AS AD BJ", "KS KD KC", "QS QD QC", "JS JD JC"],
        "3nt",
        "uptown",
        0,
        False,
        {},
    ),
    (
        "no trump: jokers outside have no power",
        ["AS AD AC", "KS KD BJ", "QS QD LJ", "JS JD JC"],
        "3nt",
        "uptown",
        0,
        True,
        {},
    ),
    ("no trump: no trump to ruff with", ["AS AD AH", "KS KD KC", "QS QD QC", "JS JD JC"], "3nt", "uptown", 0, True, {}),
    (
        "no trump downtown: the 2 is beaten by an outside ace",
        ["2S 2D 2H", "AS KD KC", "QS QD QC", "JS JD JC"],
        "3nt",
        "downtown",
        0,
        False,
        {},
    ),
    (
        "a renege cannot win it: under penalized reneges still no trump outside",
        ["AS AD AC", "KS KD KC", "QS QD QC", "JS JD JC"],
        "3up",
        "trump:H",
        0,
        True,
        {"renege": "penalized"},
    ),
]


@pytest.mark.parametrize(
    "name, hands, bid, contract, seat, expected, rules", BIDWHIST_CASES, ids=[case[0] for case in BIDWHIST_CASES]
)
def test_bidwhist_claimable(
    name: str, hands: list[str], bid: str, contract: str, seat: int, expected: bool, rules: dict
) -> None:
    state = bw_late(hands, bid, contract, lead=seat, **rules)
    assert BIDWHIST.claimable is not None
    assert BIDWHIST.claimable(state, seat) is expected
    if expected:
        assert _claimant_always_takes_all(state, seat)


def test_bidwhist_not_claimable_outside_the_play_or_mid_trick() -> None:
    state = bw_game(bw_deal({}), dealer=3)
    assert BIDWHIST.claimable is not None
    assert not BIDWHIST.claimable(state, state.current)  # bidding
    state = bw_late(["AS AD AC", "KS KD KC", "QS QD QC", "JS JD JC"])
    state, _ = drive(state, ["AS"])
    state.current = 0  # even if it were seat 0's turn again
    assert not BIDWHIST.claimable(state, 0)


# ---------------------------------------------------------------- Wizard
WIZARD_CASES = [
    # (name, hands of seats 0-2, turn-up (trump), claimant, claimable)
    ("top cards of their suits, trump spades gone", ["2D 3D", "AH AC", "KH KC"], "4S", 1, True),
    ("a Wizard outside beats any suit card", ["WZ 3D", "AH AC", "KH KC"], "4S", 1, False),
    ("a Wizard led always wins, even with a Wizard outside", ["WZ 3D", "WZ WZ", "KH KC"], "4S", 1, True),
    ("a Jester led may lose", ["2D 3D", "AH JE", "KH KC"], "4S", 1, False),
    ("a trump outside can ruff", ["2S 3D", "AH AC", "KH KC"], "4S", 1, False),
    ("own trumps above the trump outside", ["2S 3D", "AS KS", "KH KC"], "4S", 1, True),
    ("a higher card of the suit outside", ["2D 3D", "KH AC", "AH KC"], "4S", 1, False),
    ("no trump (Jester turned up): suit cards high", ["2S 3D", "AH AC", "KH KC"], "JE", 1, True),
    ("not on lead", ["2D 3D", "AH AC", "KH KC"], "4S", 2, False),
]


@pytest.mark.parametrize("name, hands, turn_up, seat, expected", WIZARD_CASES, ids=[c[0] for c in WIZARD_CASES])
def test_wizard_claimable(name: str, hands: list[str], turn_up: str, seat: int, expected: bool) -> None:
    state = wz_late(hands, turn_up, lead=seat)
    assert WIZARD.claimable is not None
    assert WIZARD.claimable(state, seat) is expected
    if expected:
        assert _claimant_always_takes_all(state, seat)


# ---------------------------------------------------------------- soundness
def _claimant_always_takes_all(state, seat: int, samples: int = 24, rng: random.Random | None = None) -> bool:
    """Whether ``seat`` takes every trick left in every legal play-out of the actual cards:
    all of them when the hand is short, else ``samples`` random legal orders."""
    tricks_left = len(state.hands[seat])
    start = state.tricks_won[seat]
    if tricks_left <= 2:
        return all(won == start + tricks_left for won in _all_outcomes(state, seat))
    rng = rng or random.Random(0)
    for _ in range(samples):
        line = state.clone()
        while _playing(line):
            line.apply_in_place(rng.choice(line.legal_actions()), None, check=False)
        if line.tricks_won[seat] != start + tricks_left:
            return False
    return True


def _playing(state) -> bool:
    """Cards are still to be played (a position built late in a hand keeps its play phase
    once the named cards are gone, since the hand's count of tricks is not reached)."""
    return state.phase == Phase.PLAY and bool(state.hands[state.current])


def _all_outcomes(state, seat: int):
    """The claimant's tricks at the end of every legal play-out from ``state``."""
    if not _playing(state):
        yield state.tricks_won[seat]
        return
    for action in state.legal_actions():
        line = state.clone()
        line.apply_in_place(action, None, check=False)
        yield from _all_outcomes(line, seat)


def _random_late_positions(game: str, seeds: range, players: int = 4, **overrides):
    """Positions on lead late in random games (3 tricks or fewer left), reached by random legal play."""
    for seed in seeds:
        rng = random.Random(seed)
        rules: Rules
        if game == "bidwhist":
            rules = make_rules("bidwhist", overrides)
            state, _ = new_game(rules, 4, seed)
        else:
            rules = make_rules("wizard", overrides, players=players)
            state, _ = new_game(rules, players, seed, first_dealer=0, start_deal=rng.randint(2, 8))
        stop = rng.randint(1, 3)
        while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            if state.phase == Phase.PLAY and not state.trick and len(state.hands[state.current]) <= stop:
                yield state
                stop -= 1
                if stop == 0:
                    break
            state, _ = apply(state, rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    "game, overrides",
    [
        ("bidwhist", {}),
        ("bidwhist", {"renege": "penalized", "downtown_ace": "low"}),
        ("bidwhist", {"jokers": False}),
        ("wizard", {}),
    ],
)
def test_every_allowed_claim_takes_every_trick_left(game: str, overrides: dict) -> None:
    """Soundness: a claim the rules allow never loses a trick, in any play-out."""
    game_def = get_game(game)
    assert game_def.claimable is not None
    claims = positions = 0
    for state in _random_late_positions(game, range(100), **overrides):
        positions += 1
        seat = state.current
        if not game_def.claimable(state, seat):
            continue
        claims += 1
        assert _claimant_always_takes_all(state, seat, rng=random.Random(positions)), (game, state.hands)
        # The play-out the table makes: the claimant takes them all, and the hand ends.
        line, tricks_left, start = state.clone(), len(state.hands[seat]), state.tricks_won[seat]
        while line.phase == Phase.PLAY:
            line, _ = apply(line, claim_play(line))
        assert line.tricks_won[seat] == start + tricks_left
    # The sample holds allowed claims (most with a card or two left), and refused ones.
    assert claims >= 25 and positions - claims >= 25, (claims, positions)


def test_claim_play_follows_suit_under_penalized_reneges() -> None:
    """Where every card is legal, the play-out still follows the suit led: no renege is made up."""
    state = bw_late(["AS AD AC", "KS KD KC", "QS QD 2C", "JS JD JC"], renege="penalized")
    state, _ = drive(state, ["AD"])
    assert len(state.legal_actions()) == 3  # seat 1 may play any card...
    assert str(claim_play(state)) == "KD"  # ...but follows diamonds
    while _playing(state):
        state, _ = apply(state, claim_play(state))
    assert not state.reneges and state.tricks_won[0] == 3
