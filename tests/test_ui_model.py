"""The table's presentation model holds only what the watching seat may know.

``TableModel.sync(view)`` sets the model from one seat's view (or the public
view between hot-seat players); the animation director sets it from that
seat's filtered events. Either way no other seat's hidden cards or hidden
bids may ever be in it, which ``known_cards`` and ``known_bids`` let these
tests check after every single action of whole games. And since the table
re-syncs once its animations end, what the events built must be what the
view says: otherwise the picture would jump.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from collections import Counter

import pytest

from game.rules import BidWhistView, Phase, PlayerView, WizardView, get_game, make_rules
from game.rules.cards import parse_card
from game.rules.events import UNKNOWN_CARD
from game.rules.tricks import PUBLIC_SEAT
from game.session.match import Match, Seat
from game.ui.table.animations import Director
from game.ui.table.layout import compute_layout
from game.ui.table.model import TableModel
from game.ui.text import t

GAMES = [
    pytest.param("bidwhist", 4, {"target_score": 2}, 7, id="bidwhist"),
    pytest.param(
        "bidwhist",
        4,
        {"target_score": 2, "renege": "penalized", "all_pass": "redeal"},
        3,
        id="bidwhist-penalized-redeal",
    ),
    pytest.param("wizard", 4, {"rounds": 4}, 2, id="wizard-open"),
    pytest.param("wizard", 3, {"rounds": 4, "bidding": "hidden"}, 5, id="wizard-hidden"),
    pytest.param("wizard", 5, {"rounds": 3, "bidding": "delayed_reveal"}, 8, id="wizard-delayed"),
]


def new_match(game: str, players: int, rules: dict, seed: int) -> Match:
    return Match(make_rules(game, rules, players=players), [Seat(f"P{i}", "ai:random") for i in range(players)], seed)


def advance(match: Match) -> list:
    return match.next_deal() if match.phase == Phase.HAND_OVER else match.apply(match.choose_ai_action())


def may_know_cards(view: PlayerView) -> set[int]:
    """The card faces ``view``'s seat may know: its hand, the cards played,
    the turned-up card and the kitty it took."""
    cards = set(view.hand) | set(view.played_cards())
    if isinstance(view, WizardView):
        cards.add(view.turn_up)
    if isinstance(view, BidWhistView):
        cards |= set(view.kitty)
    return cards - {UNKNOWN_CARD}


def assert_holds_only_what(model: TableModel, match: Match, seat: int) -> None:
    """``model`` holds no card face and no bid that ``seat`` (-1: nobody) may not know."""
    view = match.view(seat)
    for other in range(match.num_players):
        if other != seat:
            assert set(model.hands[other]) <= {UNKNOWN_CARD}, f"seat {seat}'s table shows seat {other}'s cards"
    assert model.known_cards() <= may_know_cards(view)
    if isinstance(view, WizardView):
        public = match.view(PUBLIC_SEAT)
        assert isinstance(public, WizardView)
        for other, value in model.known_bids().items():
            if other != seat:
                assert public.predictions[other] == value, f"seat {seat}'s table holds seat {other}'s hidden bid"


# ---------------------------------------------------------------------------- sync


@pytest.mark.parametrize("game, players, rules, seed", GAMES)
def test_a_synced_model_never_holds_another_seats_secrets(game, players, rules, seed):
    match = new_match(game, players, rules, seed)
    models = {seat: TableModel.empty(get_game(game), players) for seat in [PUBLIC_SEAT, *range(players)]}
    while not match.is_over:
        for seat, model in models.items():
            view = match.view(seat)
            model.sync(view)
            assert_holds_only_what(model, match, seat)
            if seat >= 0:
                assert model.hands[seat] == list(view.hand)
            assert [len(hand) for hand in model.hands] == list(view.hand_sizes)
        advance(match)


def test_the_public_view_shows_every_hand_face_down():
    match = new_match("bidwhist", 4, {}, 1)
    model = TableModel.empty(get_game("bidwhist"), 4)
    model.sync(match.view(PUBLIC_SEAT))
    assert model.hands == [[UNKNOWN_CARD] * 12] * 4
    assert model.kitty == [UNKNOWN_CARD] * 6 and model.known_cards() == set()


def test_the_seats_own_hidden_bid_shows_only_as_its_own_secret():
    match = new_match("wizard", 3, {"rounds": 3, "bidding": "delayed_reveal"}, 4)
    while match.phase != Phase.PLAY:
        advance(match)
    for seat in range(3):
        model = TableModel.empty(get_game("wizard"), 3)
        view = match.view(seat)
        assert isinstance(view, WizardView)
        model.sync(view)
        own = view.predictions[seat]
        assert model.own_hidden_bid == (seat, own) and model.known_bids() == {seat: own}
        assert all(label == t("table.bid_hidden") for label in model.bid_labels.values())


# ---------------------------------------------------------------------------- events


@pytest.mark.parametrize("game, players, rules, seed", GAMES)
def test_a_model_fed_one_seats_events_holds_only_its_secrets_and_ends_as_the_view(game, players, rules, seed):
    game_def = get_game(game)
    layout = compute_layout((1280, 720), players, 0)
    for seat in (0, PUBLIC_SEAT):
        match = new_match(game, players, rules, seed)
        model = TableModel.empty(game_def, players)
        director = Director(model, lambda: layout, lambda: 0.0, lambda s: f"P{s}", game_def)
        events = list(match.events)
        while True:
            director.enqueue(match.events_for(events, seat), match.current_player)
            director.update(0.0)
            assert_holds_only_what(model, match, seat)
            assert_matches_a_synced_model(model, match.view(seat))
            if match.is_over:
                break
            events = advance(match)


def assert_matches_a_synced_model(model: TableModel, view: PlayerView) -> None:
    """What the events built is what ``sync(view)`` would show: nothing jumps when the table re-syncs."""
    synced = TableModel.empty(model.game_def, model.num_players)
    synced.total_rounds = model.total_rounds
    synced.sync(view)
    assert [Counter(hand) for hand in model.hands] == [Counter(hand) for hand in synced.hands]
    names = [
        "trick",
        "tricks_won",
        "books",
        "scores",
        "bid_labels",
        "trump",
        "kitty",
        "predictions",
        "own_hidden_bid",
        "dealer",
        "turn",
    ]
    if view.phase != Phase.CONTRACT:
        # While the declarer names the contract, the view already says who
        # declares and what; the table shows it from its re-sync (as it always has).
        names += ["declarer", "contract_books", "contract_mode", "high_bid"]
    for name in names:
        assert getattr(model, name) == getattr(synced, name), name
    if isinstance(view, WizardView):
        assert (model.turn_up, model.trump_pending, model.round_number) == (
            synced.turn_up,
            synced.trump_pending,
            synced.round_number,
        )
    if model.declares_contract and model.contract_mode >= 0:
        assert model.direction == synced.direction


# ---------------------------------------------------------------------------- hand order


@pytest.mark.parametrize("game", ["bidwhist", "wizard"])
def test_the_hand_is_sorted_by_the_rules_and_unknown_cards_go_last(game):
    game_def = get_game(game)
    model = TableModel.empty(game_def, 4)
    specials = sorted({card for card in game_def.deck if card >= 52})  # jokers, or Wizard and Jester
    cards = [parse_card(code) for code in ("2H", "AS", "KD", "3C", "TH")] + specials
    model.hands[0] = cards + [UNKNOWN_CARD]
    for trump, direction in [(-1, -1), (1, 0), (3, 1), (-1, 1)]:
        model.trump, model.direction = trump, direction
        assert model.sorted_hand(0) == game_def.hand_order(cards, trump, direction) + [UNKNOWN_CARD]
