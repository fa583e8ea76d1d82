"""The computer players: always legal, honest, pure and deterministic, the
medium level clearly stronger than random play; plus the club-player habits
the medium players are meant to have."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import copy
import dataclasses
import random
from collections import Counter

import pytest

from conftest import bw_deal, bw_game, card, drive, to_play, wz_deal, wz_game
from game.ai import RandomPlayer, levels, make_player
from game.ai.bidwhist_medium import BidWhistMediumPlayer
from game.ai.bidwhist_play import BidWhistTable
from game.ai.budget import SearchBudget
from game.ai.hard import BidWhistHardPlayer, WizardHardPlayer
from game.ai.hand_eval import POWER, mode_estimates
from game.ai.medium import MediumPlayer
from game.ai.wizard_medium import WizardMediumPlayer
from game.rules import (
    ActionKind,
    BidMode,
    Phase,
    PlayerView,
    all_games,
    apply,
    game_of,
    get_game,
    make_rules,
    new_game,
)
from game.rules.actions import DOWNTOWN, NEXT_DEAL, PASS, UPTOWN, action_to_str
from game.rules.bidwhist import rank_power
from game.rules.cards import WIZARD, Suit, parse_card
from game.rules.events import CardPlayed, GameOver, WizardHandScored
from game.rules.tricks import TrickGameState
from game.session import match as match_module
from game.session.match import Match, Seat

BIDWHIST_RULES = [
    {},
    {"renege": "penalized"},
    {"downtown_outranks_uptown": True, "all_pass": "redeal"},
    {"first_lead": "left_of_dealer", "min_bid": 1, "notrump_multiplier": 1},
    {"renege": "penalized", "downtown_outranks_uptown": True, "min_bid": 4, "target_score": 11},
]
WIZARD_RULES = [
    ({}, 3),
    ({"uneven_bids": "always"}, 4),
    ({"uneven_bids": "leader_only"}, 5),
    ({"bidding": "hidden"}, 6),
    ({"bidding": "delayed_reveal"}, 4),
    ({"uneven_bids": "always"}, 3),
]
# How many random actions ``random_state`` may take from a fresh game: a Wizard
# game needs more to reach its longer rounds.
RANDOM_STEPS = {"bidwhist": 120, "wizard": 250}


# ---------------------------------------------------------------------- helpers
def random_state(game: str, overrides: dict, players: int, seed: int):
    """A state reached by random play from a fresh game (any phase but the end).

    Bidding passes more often than uniform so that forced dealers, redeals and
    every contract show up."""
    rules = make_rules(game, overrides, players=players)
    state, _ = new_game(rules, players, seed)
    rng = random.Random(seed)
    steps = rng.randrange(0, RANDOM_STEPS[game])
    for _ in range(steps):
        if state.phase == Phase.HAND_OVER:
            state.apply_in_place(NEXT_DEAL, None, check=False)
            continue
        legal = state.legal_actions()
        if PASS in legal and rng.random() < 0.7:
            action = PASS
        else:
            action = rng.choice(legal)
        state.apply_in_place(action, None, check=False)
        if state.is_terminal:
            state, _ = new_game(rules, players, seed + 10_000)
    if state.phase == Phase.HAND_OVER:
        state.apply_in_place(NEXT_DEAL, None, check=False)
    return state


def random_states(count: int):
    for index in range(count):
        overrides, players = (BIDWHIST_RULES[index % len(BIDWHIST_RULES)], 4)
        yield "bidwhist", overrides, players, index
        overrides, players = WIZARD_RULES[index % len(WIZARD_RULES)]
        yield "wizard", overrides, players, index


def strategy_choice(player, view: PlayerView, rng: random.Random):
    """What a medium player's strategy itself proposes (without the legal
    fallback of ``choose``), checked to be legal; ``None`` when there is
    nothing to think about (a single legal action)."""
    assert isinstance(player, MediumPlayer)
    if len(view.legal_actions) < 2:
        return None
    proposed = player.decide(view, rng)
    assert proposed in view.legal_actions, f"the strategy proposed the illegal {action_to_str(proposed)}"
    return proposed


def choose(state, seed: int = 0):
    """The medium player's decision for the seat to act, from that seat's view."""
    view = state.view(state.current_player)
    player = make_player(game_of(state), "medium")
    strategy_choice(player, view, random.Random(seed))
    return player.choose(view, random.Random(seed))


def play_out_checked(match: Match) -> None:
    """``Match.play_out``, checking every medium decision: the strategy's own
    choice is legal (the fallback of ``MediumPlayer.choose`` never served) and
    is the action played."""
    while not match.is_over:
        if match.phase == Phase.HAND_OVER:
            match.next_deal()
            continue
        request = match.ai_request()
        action = request.decide()
        assert action in request.view.legal_actions
        if isinstance(request.player, MediumPlayer):
            proposed = strategy_choice(request.player, request.view, random.Random(request.rng_seed))
            assert proposed in (None, action)
        match.apply(action)


def shuffle_hidden(state, seat: int, seed: int):
    """A copy of ``state`` in which every card ``seat`` cannot see is dealt anew
    among the hidden places (other hands, and the kitty while nobody holds it,
    that is during the bidding)."""
    other = state.clone()
    rng = random.Random(seed)
    hidden_kitty = state.phase == Phase.BID
    places = [s for s in range(state.num_players) if s != seat]
    pool = [c for s in places for c in other.hands[s]] + (list(other.kitty) if hidden_kitty else [])
    rng.shuffle(pool)
    for s in places:
        size = len(other.hands[s])
        other.hands[s], pool = pool[:size], pool[size:]
    if hidden_kitty:
        other.kitty = pool
    return other


def values_inside(value) -> list:
    """Every value a player can reach from ``value`` by reading fields:
    dataclass fields and the items of tuples, lists, sets and dicts, recursively."""
    found, stack, seen = [], [value], set()
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        found.append(item)
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        elif isinstance(item, (tuple, list, set, frozenset)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
    return found


def every_game_and_level():
    return [(game_def.name, level) for game_def in all_games() for level in levels(game_def)]


def short_rules(game_def, players: int):
    """The game's default rules, made quick where the game has a rounds setting."""
    overrides = {"rounds": 4} if game_def.spec("rounds") is not None else {}
    return make_rules(game_def.name, overrides, players=players)


class FirstLegalPlayer:
    """Always the first legal action, with no randomness at all: the player a
    test registers for a game of its own (``game.ai`` must find it by its import
    path alone), and the equal players of test_benchmark_ai's tournament."""

    def choose(self, view, rng):
        return view.legal_actions[0]


# ---------------------------------------------------------------------- the registry and the protocol
def test_each_game_registers_its_own_medium_player():
    assert isinstance(make_player(get_game("bidwhist"), "medium"), BidWhistMediumPlayer)
    assert isinstance(make_player(get_game("wizard"), "medium"), WizardMediumPlayer)
    for game_def in all_games():
        assert isinstance(make_player(game_def, "random"), RandomPlayer)
        assert levels(game_def) == tuple(game_def.ai_levels)
        assert {"random", "medium"} <= set(levels(game_def))


def test_a_medium_player_refuses_the_view_of_another_game():
    wizard_view = next(
        s.view(s.current_player)
        for s in (random_state("wizard", {}, 4, seed) for seed in range(50))
        if s.phase == Phase.PLAY and len(s.legal_actions()) > 1
    )
    with pytest.raises(TypeError, match="BidWhistView"):
        BidWhistMediumPlayer().choose(wizard_view, random.Random(0))


def test_unknown_level_names_the_known_levels_of_that_game():
    game_def = get_game("wizard")
    with pytest.raises(ValueError) as error:
        make_player(game_def, "grandmaster")
    message = str(error.value)
    assert "grandmaster" in message and "wizard" in message
    for level in levels(game_def):
        assert level in message


def test_a_new_game_registers_players_without_any_edit_to_game_ai():
    invented = dataclasses.replace(
        get_game("wizard"), name="ohhell", ai_levels={"first": f"{__name__}:FirstLegalPlayer"}
    )
    assert levels(invented) == ("first",)
    assert isinstance(make_player(invented, "first"), FirstLegalPlayer)
    for path, problem in (
        ("no colon here", "module:factory"),
        ("game.ai:NoSuchPlayer", "has no 'NoSuchPlayer'"),
        ("game.no_such_module:Player", "no module 'game.no_such_module'"),
    ):
        broken = dataclasses.replace(invented, ai_levels={"first": path})
        with pytest.raises(ValueError, match=problem):
            make_player(broken, "first")


def test_players_receive_only_a_view_and_keep_nothing(monkeypatch):
    """Whole games of every game and level, through the match: each player is
    handed the seat's view of the game's own view type and an RNG, and nothing
    reachable from those arguments is a game state. A player holds at most
    its configuration (a search budget, a clock), fixed when it is built and
    unchanged by play, so nothing carries over between decisions."""
    calls: list[tuple[str, object, object]] = []
    players: list[tuple[object, dict[str, object]]] = []

    class Spy:
        def __init__(self, inner, game_name: str) -> None:
            self.inner, self.game_name = inner, game_name

        def choose(self, *args, **kwargs):
            assert not kwargs and len(args) == 2
            calls.append((self.game_name, *args))
            return self.inner.choose(*args)

    def spying_make_player(game_def, level, budget=None):
        player = make_player(game_def, level, budget)
        players.append((player, dict(vars(player))))
        return Spy(player, game_def.name)

    monkeypatch.setattr(match_module, "make_player", spying_make_player)
    for name, level in every_game_and_level():
        game_def = get_game(name)
        players_count = game_def.default_players
        seats = [Seat(str(i), f"ai:{level}") for i in range(players_count)]
        # Search players get a few simulations and a time limit that never binds.
        Match(short_rules(game_def, players_count), seats, 3, ai_budget=SearchBudget(3, 60.0)).play_out()
    assert {game for game, _, _ in calls} == {game_def.name for game_def in all_games()}
    for game, view, rng in calls:
        assert type(view) is get_game(game).view_type
        assert type(rng) is random.Random
        assert not any(isinstance(value, TrickGameState) for value in values_inside(view))
    assert all(vars(player) == built_with for player, built_with in players)


def test_choose_is_pure():
    """The same view and an RNG in the same state give the same action, whatever
    was decided in between, by a fresh player or from a copy of the view; and
    the player draws from that RNG exactly as much each time."""
    states = [random_state(game, overrides, players, seed) for game, overrides, players, seed in random_states(40)]
    for name, level in every_game_and_level():
        # A simulation-count budget whose time limit never binds: search players
        # are reproducible exactly when the count, not the clock, ends the search.
        budget = SearchBudget(3, 60.0)
        player, fresh = make_player(get_game(name), level, budget), make_player(get_game(name), level, budget)
        views = [s.view(s.current_player) for s in states if s.game == name]
        first = []
        for index, view in enumerate(views):
            rng = random.Random(index)
            first.append((player.choose(view, rng), rng.getstate()))
        for index, view in reversed(list(enumerate(views))):
            for chooser, seen in ((player, view), (fresh, copy.deepcopy(view))):
                rng = random.Random(index)
                assert (chooser.choose(seen, rng), rng.getstate()) == first[index], (name, level, index)


@pytest.mark.parametrize("name,level", every_game_and_level())
def test_every_registered_player_plays_legally(name, level):
    game_def = get_game(name)
    for players in game_def.player_counts():
        rules = short_rules(game_def, players)
        for seed in range(2):
            # Search players think with a few simulations: legality, not strength, is checked here.
            match = Match(
                rules,
                [Seat(str(i), f"ai:{level}") for i in range(players)],
                100 * players + seed,
                ai_budget=SearchBudget(3, 60.0),
            )
            play_out_checked(match)
            assert match.is_over


# ---------------------------------------------------------------------- legality
def test_medium_always_returns_a_legal_action_from_random_states():
    phases: Counter = Counter()
    for game, overrides, players, seed in random_states(300):
        state = random_state(game, overrides, players, seed)
        action = choose(state, seed)
        assert action in state.legal_actions(), (game, overrides, seed, action_to_str(action))
        apply(state, action)  # the engine agrees
        phases[(game, state.phase)] += 1
    for phase in (Phase.BID, Phase.CONTRACT, Phase.DISCARD, Phase.PLAY):
        assert phases[("bidwhist", phase)] > 0, phase
    for phase in (Phase.PREDICT, Phase.PLAY):
        assert phases[("wizard", phase)] > 0, phase


@pytest.mark.parametrize("overrides", BIDWHIST_RULES)
def test_whole_bidwhist_games_under_every_house_rule_combo(overrides):
    rules = make_rules("bidwhist", overrides)
    for seed in range(6):
        match = Match(rules, [Seat(str(i), "ai:medium") for i in range(4)], seed)
        play_out_checked(match)
        assert match.is_over
        # Even where a renege would be allowed (and penalized), medium never reneges.
        assert not any(isinstance(e, CardPlayed) and e.renege for e in match.events)


@pytest.mark.parametrize("overrides,players", WIZARD_RULES)
def test_whole_wizard_games_for_3_to_6_players(overrides, players):
    rules = make_rules("wizard", {**overrides, "rounds": min(8, 60 // players)}, players=players)
    for seed in range(3):
        match = Match(rules, [Seat(str(i), "ai:medium") for i in range(players)], seed)
        play_out_checked(match)
        assert match.is_over


# ---------------------------------------------------------------------- honesty and determinism
def test_decisions_do_not_depend_on_hidden_cards():
    compared = 0
    for game, overrides, players, seed in random_states(120):
        state = random_state(game, overrides, players, seed)
        seat = state.current_player
        other = shuffle_hidden(state, seat, seed)
        assert state.view(seat) == other.view(seat)
        assert choose(state, seed) == choose(other, seed)
        compared += other.hands != state.hands
    assert compared > 100  # the hidden cards really did differ in most cases


def test_same_seed_same_game():
    for game, players in (("bidwhist", 4), ("wizard", 4)):
        rules = make_rules(game, players=players)
        seats = [Seat(str(i), "ai:medium") for i in range(players)]
        first, second = Match(rules, seats, 42), Match(rules, seats, 42)
        first.play_out()
        second.play_out()
        assert first.actions == second.actions
        third = Match(rules, seats, 43)
        third.play_out()
        assert third.actions != first.actions


def test_same_rng_state_same_choice_and_the_global_random_is_untouched():
    state = random_state("bidwhist", {}, 4, 7)
    random.seed(123)
    before = random.random()
    random.seed(123)
    choices = {choose(state, 5) for _ in range(5)}
    assert len(choices) == 1
    assert random.random() == before


def test_a_renege_let_through_is_not_read_as_a_void():
    spades = int(Suit.SPADES)
    # Under "penalized" seat 1 plays a diamond on a spade lead although it holds
    # four spades: seat 2 must still fear spades from seat 1.
    state = to_play(bw_game(bw_deal(PLAY_DEAL), renege="penalized"), bid="3up", contract="trump:H")
    state, events = drive(state, "KS 2D")
    assert events[-1] == CardPlayed(1, card("2D"), True)
    table = BidWhistTable(state.view(2))
    assert spades not in table.voids[1]
    assert table.may_hold(1, spades)
    # A seat that really has no spade left shows the void.
    no_spades = {**PLAY_DEAL, 1: "3H 4H 5H 6H 2D 3D 4D 5D 2C 3C 4C 5C", 3: "TS QS 8S 2S 4S 5S 6S 7H 8H 9H TD JD"}
    state = to_play(bw_game(bw_deal(no_spades)), bid="3up", contract="trump:H")
    state, _ = drive(state, "KS 2D")
    table = BidWhistTable(state.view(2))
    assert spades in table.voids[1]
    assert not table.may_hold(1, spades)


# ---------------------------------------------------------------------- strength
def test_medium_team_beats_random_team_at_bidwhist():
    rules = make_rules("bidwhist")
    seats = [Seat("m0", "ai:medium"), Seat("r1", "ai:random"), Seat("m2", "ai:medium"), Seat("r3", "ai:random")]
    games = 120
    wins = 0
    for seed in range(games):
        match = Match(rules, seats, seed)
        match.play_out()
        wins += any(isinstance(e, GameOver) and e.winners == (0,) for e in match.events)
    # A correct strategy wins ~99%; two random teams split about evenly.
    assert wins / games >= 0.85


def test_medium_hits_its_wizard_bid_far_more_often_than_random():
    rules = make_rules("wizard", players=4)
    seat_levels = ("medium", "random", "medium", "random")
    seats = [Seat(str(i), f"ai:{level}") for i, level in enumerate(seat_levels)]
    hits: Counter = Counter()
    rounds: Counter = Counter()
    for seed in range(20):
        match = Match(rules, seats, seed)
        match.play_out()
        for event in match.events:
            if isinstance(event, WizardHandScored):
                for seat, level in enumerate(seat_levels):
                    rounds[level] += 1
                    hits[level] += event.bids[seat] == event.tricks_won[seat]
    medium, rand = hits["medium"] / rounds["medium"], hits["random"] / rounds["random"]
    # Measured about 0.50 against 0.16 over 100 games.
    assert medium >= 0.38
    assert medium >= rand + 0.2


# ---------------------------------------------------------------------- Bid Whist habits
def test_power_respects_the_direction_and_is_the_rules_own():
    assert POWER == (rank_power(UPTOWN), rank_power(DOWNTOWN))
    up, down = POWER[UPTOWN], POWER[DOWNTOWN]
    ace, two, three, king = (parse_card(c) for c in ("AS", "2S", "3S", "KS"))
    assert up[ace] > up[king] > up[three] > up[two]
    assert down[ace] > down[two] > down[three] > down[king]


def test_strong_hand_bids_and_weak_hand_passes():
    strong = bw_game(bw_deal({0: "BJ LJ AS KS QS JS TS AH KH AD KD AC"}))
    assert choose(strong).kind == ActionKind.BID
    weak = bw_game(bw_deal({0: "7S 8S 9S 7H 8H 9H 7D 8D 9D 7C 8C 9C"}))
    assert choose(weak) == PASS


def test_low_hand_prefers_downtown():
    hand = "AS 2S 3S 4S 5S 2H 3H AD 2D 3C 4C 6D"
    estimates = mode_estimates([parse_card(c) for c in hand.split()])
    assert estimates[DOWNTOWN] > estimates[UPTOWN]
    action = choose(bw_game(bw_deal({0: hand})))
    assert action.kind == ActionKind.BID and action.mode in (BidMode.DOWNTOWN, BidMode.NOTRUMP)


def test_forced_dealer_bids_the_minimum():
    state, _ = drive(bw_game(bw_deal({3: "7S 8S 9S 7H 8H 9H 7D 8D 9D 7C 8C 9C"})), "pass pass pass")
    action = choose(state)
    assert action.kind == ActionKind.BID and action.value == state.rules.min_bid


def test_declarer_names_the_long_strong_suit_and_keeps_trumps_in_the_discard():
    deal = bw_deal({0: "AH KH QH 9H 7H 5H AS 2S 3D 4D 5C 6C"}, kitty="BJ 2H 9S 8D 7C 3C")
    state, _ = drive(bw_game(deal), "3up pass pass pass")
    trump = choose(state)
    assert action_to_str(trump) == "trump:H"
    state, _ = apply(state, trump)
    for _ in range(6):
        state, _ = apply(state, choose(state))
    kept = {action_to_str(a) for a in state.legal_actions()} if state.phase == Phase.PLAY else set()
    hand = state.hands[0]
    for code in ("AH", "KH", "QH", "9H", "7H", "5H", "2H", "BJ", "AS"):
        assert card(code) in hand, code
    assert kept  # the declarer leads next
    # A short side suit without a winner was thrown whole: a void to ruff later.
    side_lengths = [sum(1 for c in hand if c < 52 and c // 13 == suit) for suit in (0, 2, 3)]
    assert 0 in side_lengths


def test_notrump_discard_throws_the_jokers():
    deal = bw_deal({0: "AS KS QS JS TS AH KH AD KD AC 2C 3C"}, kitty="BJ LJ 9S 8D 7C 4C")
    state, _ = drive(bw_game(deal), "3nt pass pass pass uptown")
    first, second = choose(state), None
    state, _ = apply(state, first)
    second = choose(state)
    assert {first.value, second.value} == {card("BJ"), card("LJ")}


# A full deal for the play tests: team 0 (seats 0, 2) against team 1 (seats 1, 3).
PLAY_DEAL = {
    0: "KS 9S AH KH QH JH TH AD KD AC KC QD",
    1: "2S 4S 5S 6S 2D 3D 4D 5D 2C 3C 4C 5C",
    2: "AS 3S 7S 6D 7D 8D 9D 6C 7C 8C 9C 2H",
    3: "TS QS 8S 3H 4H 5H 6H 7H 8H 9H TD JD",
}  # kitty: JS TC JC QC BJ LJ


def play_state(moves: str, bid: str = "3up", contract: str = "trump:H"):
    state = to_play(bw_game(bw_deal(PLAY_DEAL)), bid=bid, contract=contract)
    state, _ = drive(state, moves)
    return state


def test_declarer_with_many_trumps_draws_them():
    # The jokers went into the declarer's own discard, so the ace is the top trump.
    assert action_to_str(choose(play_state(""))) == "AH"


def test_does_not_overtake_a_partner_who_is_winning():
    # Partner (seat 0) led the king of spades; the ace is in seat 2's own hand,
    # so nothing left can beat it: seat 2 plays low instead of its ace.
    assert action_to_str(choose(play_state("KS 2S"))) == "3S"


def test_last_hand_wins_as_cheaply_as_possible():
    assert action_to_str(choose(play_state("9S 2S 3S"))) == "TS"


def test_trumps_in_when_void_and_opponents_are_winning():
    assert action_to_str(choose(play_state("AC 2C 6C"))) == "3H"


def test_second_hand_low_respects_the_direction():
    assert action_to_str(choose(play_state("9S"))) == "2S"
    assert action_to_str(choose(play_state("9S", bid="3down"))) == "6S"


# ---------------------------------------------------------------------- Wizard habits
def test_wizard_predictions_follow_hand_strength():
    state = wz_game(4, {1: wz_deal(4, 1, {1: "WZ"}, "5S")}, dealer=0)
    assert choose(state).value == 1
    state = wz_game(4, {1: wz_deal(4, 1, {1: "JE"}, "5S")}, dealer=0)
    assert choose(state).value == 0
    state = wz_game(4, {1: wz_deal(4, 1, {1: "3C"}, "5S")}, dealer=0)
    assert choose(state).value == 0


def advance_to_round(state, number: int):
    while not (state.deal_number == number and state.phase in (Phase.PREDICT, Phase.TRUMP_CHOICE)):
        legal = state.legal_actions()
        state.apply_in_place(legal[0], None, check=False)
    return state


def test_wizard_forbidden_prediction_moves_to_the_nearest_legal():
    deal = wz_deal(4, 2, {1: "WZ WZ"}, "5S")
    state = advance_to_round(wz_game(4, {2: deal}, dealer=0, uneven_bids="always"), 2)
    assert state.dealer == 1
    state, _ = drive(state, "0 0 0")  # seats 2, 3, 0: the dealer (seat 1) may not bid 2
    assert 2 not in [a.value for a in state.legal_actions()]
    assert choose(state).value == 1


def test_wizard_dealer_names_the_strongest_suit_after_a_wizard_turn_up():
    deal = wz_deal(4, 4, {0: "2H 9H KH 3C"}, "WZ")
    state = advance_to_round(wz_game(4, {4: deal}, dealer=1), 4)
    assert state.phase == Phase.TRUMP_CHOICE and state.current_player == 0
    assert action_to_str(choose(state)) == "trump:H"


def test_wizard_at_its_bid_ducks_under_the_winner():
    # Round 3, trump spades, seat 1 leads; seat 2 (bid 0) may win with KC or lose with 4C.
    deal = wz_deal(4, 3, {1: "QC 5D 6D", 2: "KC 4C 2D", 3: "3C 7D 8D", 0: "AC 2C 9D"}, "5S")
    state = advance_to_round(wz_game(4, {3: deal}, dealer=2), 3)  # seat 0 deals round 3
    state, _ = drive(state, "1 0 1 1 QC")
    assert action_to_str(choose(state)) == "4C"


def test_wizard_needing_a_trick_wins_it_as_cheaply_as_possible():
    # Seat 0 plays last and needs a trick: the king does it, the ace is kept.
    deal = wz_deal(4, 3, {1: "QC 5D 6D", 2: "2C 7H 8H", 3: "3C 7D 8D", 0: "KC AC 9D"}, "5S")
    state = advance_to_round(wz_game(4, {3: deal}, dealer=2), 3)  # seat 0 deals round 3
    state, _ = drive(state, "0 0 0 2 QC 2C 3C")
    assert action_to_str(choose(state)) == "KC"


def test_wizard_when_past_the_bid_sheds_a_wizard_under_an_earlier_wizard():
    deal = wz_deal(3, 2, {1: "WZ 2C", 2: "WZ 3C", 0: "4C 5C"}, "5S")
    state = advance_to_round(wz_game(3, {2: deal}, dealer=2), 2)  # seat 0 deals round 2
    state, _ = drive(state, "1 0 0 WZ")  # seat 2 bid 0; seat 1 led a Wizard
    assert choose(state).value == WIZARD


def test_the_match_gives_its_thinking_time_to_the_players_that_search_only():
    """The settings' thinking time reaches hard players through the match; the
    rule-based players, which take no budget, are built as always."""
    budget = SearchBudget(7, 0.9)
    players = [make_player(get_game("bidwhist"), level, budget) for level in ("hard", "medium", "easy", "random")]
    assert isinstance(players[0], BidWhistHardPlayer) and players[0].budget == budget
    assert all(not hasattr(player, "budget") for player in players[1:])
    hard_seat = Match(make_rules("wizard", players=4), [Seat(str(i), "ai:hard") for i in range(4)], 5, ai_budget=budget)
    request = hard_seat.ai_request()
    assert isinstance(request.player, WizardHardPlayer) and request.player.budget == budget
    assert request.decide() in request.view.legal_actions
