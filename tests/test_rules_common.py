"""What both games share: card and action strings, parse errors, house-rule
checks, and the purity of ``game.rules`` (no pygame, clock, files or global RNG).
"""

from __future__ import annotations

import ast
import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from game.rules import (
    Action,
    ActionKind,
    BidMode,
    IllegalActionError,
    ParseError,
    RuleConfigError,
    action_to_str,
    apply,
    card_code,
    make_rules,
    new_game,
    parse_action,
    parse_card,
)
from game.rules.actions import (
    NEXT_DEAL,
    PASS,
    bid,
    bid_from_json,
    bid_to_json,
    choose_direction,
    choose_trump,
    discard,
    play,
    predict,
)
from game.rules.bidwhist import BidWhistState
from game.rules.cards import BIDWHIST_DECK, WIZARD_DECK, card_name

RULES_DIR = Path(__file__).resolve().parent.parent / "game" / "rules"
ALL_CARDS = list(range(56))


# ---------------------------------------------------------------- cards
@pytest.mark.parametrize("card", ALL_CARDS)
def test_card_code_round_trip(card: int) -> None:
    code = card_code(card)
    assert len(code) == 2
    assert parse_card(code) == card
    assert parse_card(code.lower()) == card
    assert parse_card(f"  {code} ") == card


@pytest.mark.parametrize(
    "code,expected",
    [
        ("AS", 12),
        ("2S", 0),
        ("TH", 21),
        ("10H", 21),
        ("10c", 47),
        ("KD", 37),
        ("2C", 39),
        ("BJ", 52),
        ("LJ", 53),
        ("WZ", 54),
        ("JE", 55),
    ],
)
def test_known_codes(code: str, expected: int) -> None:
    assert parse_card(code) == expected


@pytest.mark.parametrize("code", ["", "A", "1S", "11H", "AX", "ZZ", "JOKER", "S A", "AS2"])
def test_bad_card_codes(code: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_card(code)
    assert "is not a card" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_card_names() -> None:
    assert card_name(parse_card("AS")) == "the ace of spades"
    assert card_name(parse_card("TH")) == "the 10 of hearts"
    assert card_name(parse_card("QD")) == "the queen of diamonds"
    assert card_name(parse_card("BJ")) == "the big joker"
    assert card_name(parse_card("LJ")) == "the little joker"
    assert card_name(parse_card("WZ")) == "a Wizard"
    assert card_name(parse_card("JE")) == "a Jester"


def test_decks() -> None:
    assert len(BIDWHIST_DECK) == 54 and len(set(BIDWHIST_DECK)) == 54
    assert len(WIZARD_DECK) == 60
    assert WIZARD_DECK.count(54) == 4 and WIZARD_DECK.count(55) == 4


# ---------------------------------------------------------------- actions
EXAMPLES = [
    ("AS", play(12)),
    ("-AS", discard(12)),
    ("-BJ", discard(52)),
    ("pass", PASS),
    ("4up", bid(4, 0)),
    ("4down", bid(4, 1)),
    ("4nt", bid(4, 2)),
    ("7nt", bid(7, 2)),
    ("1up", bid(1, 0)),
    ("2", predict(2)),
    ("0", predict(0)),
    ("20", predict(20)),
    ("trump:H", choose_trump(1)),
    ("trump:C", choose_trump(3)),
    ("uptown", choose_direction(0)),
    ("downtown", choose_direction(1)),
    ("next", NEXT_DEAL),
    ("WZ", play(54)),
    ("JE", play(55)),
]


@pytest.mark.parametrize("text,action", EXAMPLES, ids=[t for t, _ in EXAMPLES])
def test_action_strings(text: str, action: Action) -> None:
    assert parse_action(text) == action
    assert action_to_str(action) == text
    assert str(action) == text


@pytest.mark.parametrize(
    "text,action",
    [
        ("PASS", PASS),
        (" Pass ", PASS),
        ("4UP", bid(4, 0)),
        ("3Nt", bid(3, 2)),
        ("trump:h", choose_trump(1)),
        ("TRUMP:S", choose_trump(0)),
        ("Downtown", choose_direction(1)),
        ("as", play(12)),
        ("-10h", discard(21)),
        ("NEXT", NEXT_DEAL),
    ],
)
def test_lenient_spellings(text: str, action: Action) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "bid",
        "8up",
        "0up",
        "4sideways",
        "trump:X",
        "trump:",
        "trump:HH",
        "-",
        "-ZZ",
        "up",
        "4 up",
        "ZZ",
        "--AS",
        "\u00b2",
        "4\u00b2",
        "\u0663",
    ],
)
def test_bad_action_strings(text: str) -> None:
    with pytest.raises(ParseError):
        parse_action(text)


def test_bad_action_message_lists_the_grammar() -> None:
    with pytest.raises(ParseError) as info:
        parse_action("sideways")
    message = str(info.value)
    assert "'sideways' is not an action" in message
    for example in ("AS", "-AS", "pass", "4up", "trump:H", "uptown", "next"):
        assert example in message


actions = st.one_of(
    st.sampled_from(ALL_CARDS).map(play),
    st.sampled_from(ALL_CARDS).map(discard),
    st.just(PASS),
    st.just(NEXT_DEAL),
    st.builds(bid, st.integers(1, 7), st.sampled_from(list(BidMode))),
    st.integers(0, 20).map(predict),
    st.integers(0, 3).map(choose_trump),
    st.integers(0, 1).map(choose_direction),
)


@given(actions)
def test_action_round_trip_property(action: Action) -> None:
    text = action_to_str(action)
    assert parse_action(text) == action
    assert parse_action(text.upper()) == action
    assert action_to_str(parse_action(text)) == text


@given(st.text(max_size=8) | st.sampled_from(["\u00b2", "1\u00b2", "\u0663", "\uff13"]))
def test_parse_action_never_fails_oddly(text: str) -> None:
    try:
        action = parse_action(text)
    except ParseError:
        return
    assert isinstance(action, Action)
    assert parse_action(action_to_str(action)) == action


@given(st.builds(bid, st.integers(1, 7), st.sampled_from(list(BidMode))) | st.just(PASS))
def test_bid_json_round_trip(action: Action) -> None:
    data = bid_to_json(action)
    assert bid_from_json(json.loads(json.dumps(data))) == action


@pytest.mark.parametrize("data", [None, "Pass", {"books": 3}, {"books": 3, "mode": "sideways"}, 3])
def test_bad_bid_json(data: object) -> None:
    with pytest.raises(ParseError):
        bid_from_json(data)


# ---------------------------------------------------------------- house rules
@pytest.mark.parametrize(
    "game,values,key",
    [
        ("bidwhist", {"min_bid": 0}, "min_bid"),
        ("bidwhist", {"min_bid": 8}, "min_bid"),
        ("bidwhist", {"min_bid": True}, "min_bid"),
        ("bidwhist", {"target_score": 100}, "target_score"),
        ("bidwhist", {"notrump_multiplier": 5}, "notrump_multiplier"),
        ("bidwhist", {"all_pass": "shrug"}, "all_pass"),
        ("bidwhist", {"renege": "allowed"}, "renege"),
        ("bidwhist", {"downtown_outranks_uptown": "yes"}, "downtown_outranks_uptown"),
        ("bidwhist", {"rounds": 3}, "rounds"),
        ("wizard", {"rounds": 0}, "rounds"),
        ("wizard", {"rounds": "half"}, "rounds"),
        ("wizard", {"bidding": "loud"}, "bidding"),
    ],
)
def test_rule_values_are_checked(game: str, values: dict, key: str) -> None:
    with pytest.raises(RuleConfigError) as info:
        make_rules(game, values)
    assert info.value.key == key
    assert str(info.value).startswith("house rules: " + key)


def test_rules_round_trip_through_dict() -> None:
    rules = make_rules("bidwhist", {"min_bid": 4, "renege": "penalized"})
    assert make_rules("bidwhist", rules.to_dict()) == rules
    assert set(rules.to_dict()) == {
        "min_bid",
        "downtown_outranks_uptown",
        "all_pass",
        "first_lead",
        "renege",
        "notrump_multiplier",
        "target_score",
        "jokers",
        "dealer_takes",
        "boston",
        "downtown_ace",
    }
    wizard = make_rules("wizard", {"rounds": 7})
    assert set(wizard.to_dict()) == {"rounds", "bidding", "uneven_bids", "wizard_turn_up"}


def test_new_game_argument_checks() -> None:
    with pytest.raises(ValueError, match="bidwhist is played by 4 players, not 3"):
        new_game(make_rules("bidwhist"), 3, 1)
    with pytest.raises(ValueError, match="wizard is played by 3 to 6 players, not 7"):
        new_game(make_rules("wizard"), 7, 1)
    with pytest.raises(TypeError):
        new_game(make_rules("wizard"), 4, "7")  # type: ignore[arg-type]


# ---------------------------------------------------------------- purity
FORBIDDEN_MODULES = {
    "pygame",
    "time",
    "datetime",
    "os",
    "io",
    "pathlib",
    "shutil",
    "tempfile",
    "threading",
    "socket",
    "secrets",
    "uuid",
    "sys",
    "importlib",
    "game.ui",
    "game.settings",
    "game.session",
    "game.persistence",
    "game.ai",
    "game.program",
    "yaml",
}
FORBIDDEN_CALLS = {"open", "input", "print", "eval", "exec", "__import__", "hash", "id"}


def _rules_modules() -> list[Path]:
    modules = sorted(RULES_DIR.glob("*.py"))
    assert len(modules) >= 8
    return modules


def purity_problems(source: str) -> list[str]:
    """Every forbidden import or call in ``source``, as "line N: what"."""
    problems = []
    tree = ast.parse(source)
    # The names the random module is bound to (``import random as rnd`` too):
    # on them only the class ``Random`` may be used.
    random_names = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name == "random"
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if any(alias.name == m or alias.name.startswith(m + ".") for m in FORBIDDEN_MODULES):
                    problems.append(f"line {node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if any(module == m or module.startswith(m + ".") for m in FORBIDDEN_MODULES):
                problems.append(f"line {node.lineno}: from {module} import ...")
            if module == "random" and any(alias.name != "Random" for alias in node.names):
                problems.append(f"line {node.lineno}: from random import a global-RNG function")
        elif isinstance(node, ast.Attribute):
            # Only the class random.Random may be used; random.random(), shuffle,
            # choice, seed... all touch the global generator.
            if isinstance(node.value, ast.Name) and node.value.id in random_names and node.attr != "Random":
                problems.append(f"line {node.lineno}: random.{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in FORBIDDEN_CALLS:
                problems.append(f"line {node.lineno}: {node.func.id}(...)")
    return problems


@pytest.mark.parametrize("path", _rules_modules(), ids=lambda p: p.name)
def test_rules_module_is_pure(path: Path) -> None:
    problems = purity_problems(path.read_text(encoding="utf-8"))
    assert problems == [], f"{path.name} is not pure: {problems}"


@pytest.mark.parametrize(
    "source",
    [
        "import pygame",
        "import pygame.display",
        "import time",
        "from time import monotonic",
        "import datetime",
        "import os",
        "from os import path",
        "import io",
        "from pathlib import Path",
        "import random\nrandom.random()",
        "import random\nrandom.shuffle(x)",
        "import random\nrandom.choice(x)",
        "import random\nrandom.seed(1)",
        "from random import shuffle",
        "open('f')",
        "from game.ui import theme",
        "import game.settings",
        "import random as rnd\nrnd.shuffle(x)",
        "from random import *",
        "from random import Random, choice",
        "import importlib\nimportlib.import_module('pygame')",
        "__import__('pygame')",
        "from game.ai import medium",
        "import datetime as dt",
        "from io import StringIO",
        "with open('f') as f: pass",
    ],
)
def test_the_purity_scan_catches(source: str) -> None:
    assert purity_problems(source)


def test_the_purity_scan_allows_a_private_generator() -> None:
    assert purity_problems("import random\nrng = random.Random('x')\nrng.shuffle(cards)\nrng.random()") == []


def test_importing_the_rules_loads_no_pygame_or_app_modules() -> None:
    code = (
        "import sys, game.rules, game.rules.engine, game.rules.search, game.rules.hidden\n"
        "bad = sorted(m for m in sys.modules if m == 'pygame' or m.startswith('pygame.') "
        "or m.startswith('game.') and not m.startswith('game.rules') or m == 'yaml')\n"
        "print(','.join(bad))\n"
    )
    root = RULES_DIR.parent.parent
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def _play_some(state, count: int, rng: random.Random):
    for _ in range(count):
        if state.is_terminal:
            break
        state, _ = apply(state, rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game,players", [("bidwhist", 4), ("wizard", 3), ("wizard", 6)])
def test_engine_leaves_the_global_rng_alone(game: str, players: int) -> None:
    random.seed(1234)
    before = random.getstate()
    state, _ = new_game(make_rules(game, players=players), players, 99)
    _play_some(state, 300, random.Random(5))
    assert random.getstate() == before


def _snapshot(state) -> dict:
    return {name: copy.deepcopy(getattr(state, name)) for name in type(state).__slots__ if hasattr(state, name)}


@pytest.mark.parametrize("game,players", [("bidwhist", 4), ("wizard", 4)])
def test_apply_returns_a_new_state_and_leaves_the_old_one_alone(game: str, players: int) -> None:
    state, _ = new_game(make_rules(game, players=players), players, 17)
    rng = random.Random(3)
    for _ in range(120):
        if state.is_terminal:
            break
        before = _snapshot(state)
        new_state, _ = apply(state, rng.choice(state.legal_actions()))
        assert new_state is not state
        assert _snapshot(state) == before
        # An illegal action leaves the state untouched too.
        with pytest.raises(IllegalActionError):
            apply(
                new_state,
                Action(ActionKind.PLAY, 99) if new_state.phase.label == "play" else Action(ActionKind.DIRECTION, 7),
            )
        state = new_state


@pytest.mark.parametrize("game,players", [("bidwhist", 4), ("wizard", 5)])
def test_clone_is_independent(game: str, players: int) -> None:
    state, _ = new_game(make_rules(game, players=players), players, 8)
    state = _play_some(state, 15, random.Random(1))
    twin = state.clone()
    before = _snapshot(state)
    _play_some(twin, 40, random.Random(2))
    assert _snapshot(state) == before


def test_same_seed_same_deal_different_seed_different_deal() -> None:
    rules = make_rules("bidwhist")
    a, _ = new_game(rules, 4, 42)
    b, _ = new_game(rules, 4, 42)
    c, _ = new_game(rules, 4, 43)
    assert isinstance(a, BidWhistState) and isinstance(b, BidWhistState)
    assert a.hands == b.hands and a.kitty == b.kitty and a.dealer == b.dealer
    assert a.hands != c.hands


@pytest.mark.parametrize(
    "game,players,dealer",
    [("bidwhist", 4, 4), ("bidwhist", 4, -1), ("wizard", 3, 3), ("wizard", 6, 6), ("wizard", 5, "2")],
)
def test_first_dealer_must_be_a_seat(game: str, players: int, dealer: object) -> None:
    with pytest.raises(ValueError, match="first_dealer must be a seat"):
        new_game(make_rules(game, players=players), players, 1, first_dealer=dealer)  # type: ignore[arg-type]
