"""Shared test setup and helpers for building engine states from explicit hands.

Every test runs headless: SDL is pointed at its dummy drivers before anything
can import pygame. The helpers below let a test say "these are the hands" in
card codes and get a real engine state from the public ``new_game`` (through
its ``first_dealer`` and ``fixed_deals`` parameters), then drive it with
action strings exactly as a player would. Test modules import them with
``from conftest import ...`` (pytest puts this folder on ``sys.path``).
"""

from __future__ import annotations

import copy
import os
import random
import signal
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from collections.abc import Iterable, Iterator, Mapping, Sequence

import pytest
from hypothesis import settings as hypothesis_settings
from game.rules import GameEvent, apply, make_rules, new_game, parse_action
from game.rules.actions import discard
from game.rules.cards import BIDWHIST_DECK, WIZARD_DECK, card_code, parse_card
from game.rules.bidwhist import BidWhistState
from game.rules.engine import AnyState
from game.rules.wizard import WizardState
from game.rules.registry import GameDef, game_names
from ohhell import NAME as OH_HELL_NAME, oh_hell_registered

# Each property test tries Hypothesis's default 100 examples in the everyday run
# (a failure found is kept in .hypothesis/ and tried first next time);
# `python -m pytest --hypothesis-profile thorough tests/` tries 1,000 of each.
hypothesis_settings.register_profile("thorough", max_examples=1000)


@pytest.fixture(scope="module", autouse=True)
def default_termination_signals():
    """Opening a window makes SDL catch SIGTERM and SIGINT (to turn them into a
    quit event), and a process forked later in the run inherits that: a pool
    worker ended with SIGTERM (the AI benchmark's tests, the statistics' span
    readers) would never end. After every module the two signals get their
    usual handling back, whichever modules opened windows before."""
    yield
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session", autouse=True)
def bundled_yaml_parsed_once() -> Iterator[None]:
    """The bundled files in config/ and assets/i18n/ are parsed once per test
    process. Every start screen reads both games' rule files twice (pure-Python
    YAML), and hundreds of tests open one; a catalogue takes 0.3 s to read, and
    the catalogue tests read each several times. Only the exact texts of those files are
    remembered, and only while the reader is as shipped (a test may lower its
    limits to see a refusal); each caller gets its own copy of the document.
    Any other text, and any text the reader refuses, is read afresh."""
    from game.settings import yaml_files

    original = yaml_files.parse_yaml_text
    shipped = (yaml_files.MAX_YAML_BYTES, yaml_files.MAX_YAML_DEPTH, yaml_files._GuardedLoader)
    root = Path(__file__).resolve().parent.parent
    bundled = {
        path.read_bytes().decode("utf-8")
        for path in [*(root / "config").glob("*.yaml"), *(root / "assets" / "i18n").glob("*.yaml")]
    }
    parsed: dict[str, object] = {}

    def parse(text: str, source: str) -> object:
        reader = (yaml_files.MAX_YAML_BYTES, yaml_files.MAX_YAML_DEPTH, yaml_files._GuardedLoader)
        if text not in bundled or reader != shipped:
            return original(text, source)
        if text not in parsed:
            parsed[text] = original(text, source)
        return copy.deepcopy(parsed[text])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(yaml_files, "parse_yaml_text", parse)
        yield


@pytest.fixture
def oh_hell() -> Iterable[GameDef]:
    """The test-only third game (tests/ohhell.py) registered for one test; the
    registry is checked to be without it before and after."""
    assert OH_HELL_NAME not in game_names()
    with oh_hell_registered() as game:
        yield game
    assert OH_HELL_NAME not in game_names(), "the registry was not restored"


def cards(text: str | Iterable[str]) -> list[int]:
    """Card ids from codes: ``cards("AS KH BJ")`` or ``cards(["AS", "KH"])``."""
    codes = text.split() if isinstance(text, str) else list(text)
    return [parse_card(code) for code in codes]


def card(code: str) -> int:
    return parse_card(code)


def _fill(
    given: Mapping[int, list[int]], sizes: Sequence[int], deck: Sequence[int], extra: list[int] | None = None
) -> list[list[int]]:
    """Complete partial hands with the unused cards of ``deck``, in deck order.

    ``extra`` (a kitty) is reserved first so no filler card duplicates it.
    """
    pool = list(deck)
    for hand in list(given.values()) + ([extra] if extra else []):
        for c in hand:
            pool.remove(c)  # raises if a card is given twice or is not in the deck
    hands = []
    for seat, size in enumerate(sizes):
        hand = list(given.get(seat, []))
        if len(hand) > size:
            raise ValueError(f"seat {seat} was given {len(hand)} cards, more than {size}")
        while len(hand) < size:
            hand.append(pool.pop(0))
        hands.append(hand)
    if extra is not None:
        hands.append(pool)  # the rest (e.g. what is left for the kitty)
    return hands


def bw_deal(hands: Mapping[int, str], kitty: str | None = None) -> tuple[list[list[int]], list[int]]:
    """A complete Bid Whist deal: the given seats hold exactly the given cards
    (when 12 are named) or those plus filler; the kitty is the named 6 cards,
    or the 6 cards left over."""
    given = {seat: cards(text) for seat, text in hands.items()}
    kitty_cards = cards(kitty) if kitty else []
    completed = _fill(given, [12, 12, 12, 12], BIDWHIST_DECK, kitty_cards)
    rest = completed.pop()
    kitty_out = kitty_cards if kitty else rest
    if kitty and rest:
        raise AssertionError("the hands and kitty do not use the whole deck")
    assert len(kitty_out) == 6, kitty_out
    return completed, kitty_out


def bw_game(deal: tuple[list[list[int]], list[int]], dealer: int = 3, seed: int = 1, **overrides) -> BidWhistState:
    """A Bid Whist game whose first deal is ``deal`` and whose first dealer is ``dealer``."""
    rules = make_rules("bidwhist", overrides)
    state, _ = new_game(rules, 4, seed, first_dealer=dealer, fixed_deals={1: deal})
    assert isinstance(state, BidWhistState)
    return state


def wz_deal(
    players: int, round_number: int, hands: Mapping[int, str], turn_up: str | None
) -> tuple[list[list[int]], int]:
    """A Wizard round's deal: named hands completed with unused suit cards."""
    given = {seat: cards(text) for seat, text in hands.items()}
    reserved = [parse_card(turn_up)] if turn_up else []
    # Filler comes from the suit cards only so a test's Wizards and Jesters are the only ones.
    pool = [c for c in WIZARD_DECK if c < 52]
    for hand in list(given.values()) + [reserved]:
        for c in hand:
            if c < 52:
                pool.remove(c)
    completed = []
    for seat in range(players):
        hand = list(given.get(seat, []))
        while len(hand) < round_number:
            hand.append(pool.pop(0))
        completed.append(hand)
    return completed, (parse_card(turn_up) if turn_up else -1)


def wz_game(
    players: int, deals: Mapping[int, tuple[list[list[int]], int]], dealer: int = 0, seed: int = 1, **overrides
) -> WizardState:
    rules = make_rules("wizard", overrides, players=players)
    state, _ = new_game(rules, players, seed, first_dealer=dealer, fixed_deals=dict(deals))
    assert isinstance(state, WizardState)
    return state


def wz_round(players: int, number: int, deal: tuple[list[list[int]], int], dealer: int, **overrides) -> WizardState:
    """A Wizard game started at round ``number`` with ``deal`` (see ``wz_deal``), dealt by ``dealer``."""
    state, _ = new_game(
        make_rules("wizard", overrides, players=players),
        players,
        1,
        first_dealer=dealer,
        start_deal=number,
        fixed_deals={number: deal},
    )
    assert isinstance(state, WizardState)
    return state


def drive(state: AnyState, moves: str | Iterable[str]) -> tuple[AnyState, list[GameEvent]]:
    """Apply actions given as strings (``"3up pass pass pass trump:H"``) through
    the public, checked ``apply``; returns the final state and all events."""
    texts = moves.split() if isinstance(moves, str) else list(moves)
    events: list[GameEvent] = []
    for text in texts:
        state, new_events = apply(state, parse_action(text))
        events.extend(new_events)
    return state, events


def to_play(
    state: BidWhistState, bid: str = "3up", contract: str = "trump:H", discards: str | None = None
) -> BidWhistState:
    """Take a fresh Bid Whist deal to the first lead: the first bidder (dealer's
    left) bids ``bid``, the others pass, the declarer names ``contract`` and
    discards ``discards`` (default: the six kitty cards just taken)."""
    state, _ = drive(state, [bid, "pass", "pass", "pass", contract])
    if discards is None:
        to_drop = list(state.kitty)
    else:
        to_drop = cards(discards)
    for c in to_drop:
        state, _ = apply(state, discard(c))
    return state


# ---------------------------------------------------------------- reference rules
# Independent, deliberately plain restatements of RULES.md used to check the
# engine (in property tests and random playouts); they share no code with it.
_UPTOWN_ORDER = "AKQJT98765432"  # strongest first
_DOWNTOWN_ORDER = "A23456789TJQK"  # strongest first


def reference_bidwhist_winner(trick: Sequence[int], trump: int, direction: int) -> int:
    """Index of the winning card of a full Bid Whist trick (trump -1 = no trump)."""
    order = _UPTOWN_ORDER if direction == 0 else _DOWNTOWN_ORDER

    def suit(c: int) -> int:
        return trump if c >= 52 else c // 13  # jokers: trumps, or suitless in no trump

    def strength(c: int) -> int:
        if c >= 52:
            return 100 - (c - 52)  # big joker 100, little joker 99
        return 50 - order.index(card_code(c)[0])

    led = next((suit(c) for c in trick if suit(c) != -1), -1)
    wanted = trump if trump != -1 and any(suit(c) == trump for c in trick) else led
    candidates = [i for i, c in enumerate(trick) if wanted != -1 and suit(c) == wanted]
    return max(candidates, key=lambda i: strength(trick[i]))


def reference_wizard_winner(trick: Sequence[int], trump: int) -> int:
    """Index of the winning card of a full Wizard trick (trump -1 = no trump)."""
    wizard, jester = 54, 55
    if wizard in trick:
        return list(trick).index(wizard)
    suited = [i for i, c in enumerate(trick) if c != jester]
    if not suited:
        return 0
    trumps = [i for i in suited if trick[i] // 13 == trump]
    if trumps:
        return max(trumps, key=lambda i: trick[i] % 13)
    led = trick[suited[0]] // 13
    return max((i for i in suited if trick[i] // 13 == led), key=lambda i: trick[i] % 13)


def reference_bidwhist_books(tricks_won_by_seat: Sequence[int], declarer: int, reneges: Sequence[int]) -> list[int]:
    """Books per team: tricks, the kitty book for the declarer's team, then each
    renege (by seat, in order): 3 books to the other team, or all 13 to them
    when the offenders hold fewer than 3."""
    books = [tricks_won_by_seat[0] + tricks_won_by_seat[2], tricks_won_by_seat[1] + tricks_won_by_seat[3]]
    books[declarer % 2] += 1
    for seat in reneges:
        team = seat % 2
        if books[team] < 3:
            books = [13, 13]
            books[team] = 0
        else:
            books[team] -= 3
            books[1 - team] += 3
    return books


def reference_wizard_score(bid: int, taken: int) -> int:
    return 20 + 10 * taken if bid == taken else -10 * abs(bid - taken)


def medium_wizard_positions(
    players: int, overrides: Mapping[str, object], seed: int
) -> Iterator[tuple[int, WizardState]]:
    """Each position of a Wizard game of medium players where a seat is to
    act, numbered: the live state, which moves on after the caller's turn
    (clone it to keep it)."""
    from game.ai.wizard_medium import WizardMediumPlayer
    from game.rules import Phase
    from game.rules.actions import NEXT_DEAL

    medium, rng = WizardMediumPlayer(), random.Random(seed)
    state, _ = new_game(make_rules("wizard", dict(overrides), players=players), players, seed)
    assert isinstance(state, WizardState)
    step = 0
    while not state.is_terminal:
        if state.phase == Phase.HAND_OVER:
            state.apply_in_place(NEXT_DEAL, None, check=False)
            continue
        yield step, state
        step += 1
        state.apply_in_place(medium.choose(state.view(state.current), rng), None, check=False)
