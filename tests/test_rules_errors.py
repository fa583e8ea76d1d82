"""Engine errors (issue 7, item 6): any value given as an action is answered
with ``IllegalActionError`` and leaves the state alone; ``parse_action`` raises
only ``ParseError``; ``explain_illegal`` answers anything without crashing;
and every error's parameters are codes and numbers, never English words, so
an interface can translate them.
"""

from __future__ import annotations

import copy
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from game.rules import (
    Action,
    ActionKind,
    IllegalActionError,
    ParseError,
    RuleConfigError,
    apply,
    make_rules,
    new_game,
    parse_action,
)
from game.rules.actions import bid, bid_from_json
from game.rules.cards import parse_card
from game.rules.engine import GameState
from game.rules.tricks import is_well_formed

GAMES = [
    ("bidwhist", 4, {}),
    ("bidwhist", 4, {"renege": "penalized"}),
    ("wizard", 3, {}),
    ("wizard", 4, {"uneven_bids": "always"}),
    ("wizard", 6, {"bidding": "hidden"}),
]
CODE = re.compile(r"^[a-z][a-z_]*$")


def state_after(case: int, seed: int, steps: int) -> GameState:
    game, players, overrides = GAMES[case]
    rng = random.Random(seed)
    state, _ = new_game(make_rules(game, overrides, players=players), players, seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply_in_place(rng.choice(state.legal_actions()), None, check=False)
    return state


states = st.builds(state_after, st.integers(0, len(GAMES) - 1), st.integers(0, 10_000), st.integers(0, 400))

odd_values = st.one_of(
    st.integers(-(10**30), 10**30),
    st.integers(-3, 70),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.text(max_size=4),
    st.tuples(st.integers(0, 60)),
    st.tuples(st.integers(0, 60), st.integers(0, 3)),
    st.lists(st.integers(0, 60), max_size=2),
    st.sampled_from(list(ActionKind)),
)
odd_kinds = st.one_of(
    st.sampled_from(list(ActionKind)), st.integers(-5, 12), st.booleans(), st.none(), st.floats(), st.text(max_size=3)
)
any_action = st.one_of(
    # Well-formed in shape, values anywhere near the range the games use.
    st.builds(Action, st.sampled_from(list(ActionKind)), st.integers(-2, 66), st.integers(-1, 3)),
    # Actions with fields of the wrong type or far out of range.
    st.builds(Action, odd_kinds, odd_values, odd_values),
    # Not actions at all.
    odd_values,
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.tuples(st.sampled_from(list(ActionKind)), st.integers(0, 55), st.integers(0, 2)),
)


def snapshot(state: GameState) -> dict:
    return {
        name: copy.deepcopy(getattr(state, name))
        for cls in type(state).__mro__
        for name in getattr(cls, "__slots__", ())
        if hasattr(state, name)
    }


def assert_translatable(error: IllegalActionError) -> None:
    """A code word and parameters that are numbers (or flags), never words to translate."""
    assert CODE.match(error.code), error.code
    assert error.message and str(error) == error.message
    for name, value in error.params.items():
        assert CODE.match(name)
        assert type(value) in (int, bool, type(None)), (error.code, name, value)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=states, action=any_action)
def test_apply_answers_any_value_with_illegal_action_error(state: GameState, action: object) -> None:
    before = snapshot(state)
    try:
        new_state, _ = apply(state, action)  # type: ignore[arg-type]
    except IllegalActionError as error:
        assert_translatable(error)
        assert snapshot(state) == before
        return
    # Accepted: then it was a legal action, exactly.
    assert action in state.legal_actions()
    assert snapshot(state) == before and new_state is not state


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=states, action=any_action)
def test_explain_illegal_never_crashes(state: GameState, action: object) -> None:
    before = snapshot(state)
    error = state.explain_illegal(action)  # type: ignore[arg-type]
    assert isinstance(error, IllegalActionError)
    assert_translatable(error)
    assert snapshot(state) == before
    well_formed = is_well_formed(action)
    if well_formed and action in state.legal_actions():
        assert error.code == "allowed"
    elif not well_formed:
        # A bare tuple, or an Action with a field of the wrong type (an enum
        # where a plain int belongs), is no action, even one equal to a legal one.
        assert error.code == "malformed_action"


@pytest.mark.parametrize("case", range(len(GAMES)))
def test_explain_illegal_on_values_no_game_has(case: int) -> None:
    odd = [
        Action(ActionKind.PLAY, 55),
        Action(ActionKind.PLAY, 53),
        Action(ActionKind.PLAY, -1),
        Action(ActionKind.DISCARD, 55),
        Action(ActionKind.TRUMP, 9),
        Action(ActionKind.TRUMP, -1),
        Action(ActionKind.DIRECTION, 5),
        Action(ActionKind.PREDICT, -1),
        Action(ActionKind.PREDICT, 64),
        Action(ActionKind.BID, 0, 2),
        Action(ActionKind.BID, 9, 0),
        Action(ActionKind.BID, 4, 3),
        Action(ActionKind.PASS, 3),
        Action(ActionKind.PLAY, 12, 2),
        Action(ActionKind.NEXT_DEAL, 0, 1),
    ]
    for seed in range(4):
        for steps in (0, 5, 20, 60, 150, 400):
            state = state_after(case, seed, steps)
            for action in odd:
                error = state.explain_illegal(action)
                assert_translatable(error)
                if action not in state.legal_actions():
                    with pytest.raises(IllegalActionError):
                        apply(state, action)


def test_malformed_actions_are_named_so() -> None:
    state = state_after(0, 1, 0)
    for action in [
        None,
        "4up",
        3,
        3.5,
        (3, 4, 0),
        [3, 4, 0],
        True,
        Action(ActionKind.BID, 4.0, 0),  # type: ignore[arg-type]
        Action(ActionKind.BID, True, 0),
        Action(ActionKind.BID, 4, None),  # type: ignore[arg-type]
        Action(9, 4, 0),  # type: ignore[arg-type]
        Action(True, 4, 0),  # type: ignore[arg-type]
        Action("bid", 4, 0),  # type: ignore[arg-type]
        Action(ActionKind.PLAY, (12,)),  # type: ignore[arg-type]
        Action(ActionKind.PLAY, 10**40),
        Action(ActionKind.PASS, 1),
        Action(ActionKind.PLAY, 12, 1),
    ]:
        with pytest.raises(IllegalActionError) as info:
            apply(state, action)  # type: ignore[arg-type]
        assert info.value.code == "malformed_action", action
    assert bid(4, 0) in state.legal_actions()  # the well-formed bid of the same value is fine


@pytest.mark.parametrize("case", range(len(GAMES)))
def test_every_refusal_has_a_code_and_numeric_params(case: int) -> None:
    """Walk many states and every action no game has or allows there: each
    refusal is translatable (a code, and parameters that are numbers)."""
    candidates = (
        [Action(ActionKind.PLAY, c) for c in range(-1, 57)]
        + [Action(ActionKind.DISCARD, c) for c in range(-1, 57)]
        + [Action(ActionKind.PASS)]
        + [Action(ActionKind.NEXT_DEAL)]
        + [Action(ActionKind.BID, n, m) for n in range(-1, 10) for m in range(3)]
        + [Action(ActionKind.PREDICT, n) for n in range(-1, 23)]
        + [Action(ActionKind.TRUMP, s) for s in range(-1, 10)]
        + [Action(ActionKind.DIRECTION, d) for d in range(-1, 6)]
    )
    codes: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        game, players, overrides = GAMES[case]
        state, _ = new_game(make_rules(game, overrides, players=players), players, seed)
        for _ in range(150):
            if state.is_terminal:
                break
            legal = set(state.legal_actions())
            for action in candidates:
                if action in legal:
                    continue
                try:  # (pytest.raises costs more than the apply, 90,000 times over)
                    apply(state, action)
                except IllegalActionError as error:
                    assert_translatable(error)
                    codes.add(error.code)
                else:
                    pytest.fail(f"{action} was accepted, though not legal")
            state, _ = apply(state, rng.choice(sorted(legal)))
    assert {"wrong_phase", "not_in_hand"} <= codes


# ---------------------------------------------------------------- parsing
@settings(deadline=None)
@given(
    st.one_of(
        st.text(),
        st.text(alphabet="0123456789", min_size=1, max_size=6000),
        st.binary(),
        st.integers(),
        st.floats(),
        st.none(),
        st.booleans(),
        st.lists(st.text(max_size=3)),
        st.tuples(st.integers()),
    )
)
def test_parse_action_raises_only_parse_error(value: object) -> None:
    try:
        action = parse_action(value)  # type: ignore[arg-type]
    except ParseError as error:
        assert str(error)
        return
    assert isinstance(value, str) and isinstance(action, Action)


@pytest.mark.parametrize("value", [None, 12, 4.0, b"AS", ["AS"], ("AS",), True])
def test_parse_card_and_action_refuse_non_strings_with_parse_error(value: object) -> None:
    with pytest.raises(ParseError):
        parse_card(value)  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        parse_action(value)  # type: ignore[arg-type]


def test_a_long_number_is_not_a_bid() -> None:
    with pytest.raises(ParseError):
        parse_action("9" * 5000)  # int() of this would be slow, or refused outright


@pytest.mark.parametrize(
    "data",
    [
        {"books": "x", "mode": "uptown"},
        {"books": None, "mode": "notrump"},
        {"books": 3.5, "mode": "downtown"},
        {"mode": "uptown"},
        [],
        "4up",
    ],
)
def test_bid_from_json_refuses_with_parse_error(data: object) -> None:
    with pytest.raises(ParseError):
        bid_from_json(data)


def _deeply_nested(depth: int) -> list:
    outer: list = []
    inner = outer
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return outer


@pytest.mark.parametrize(
    "parse,value",
    [
        (parse_action, "x" * 50_000),
        (parse_action, ["AS"] * 50_000),
        (parse_action, _deeply_nested(100_000)),
        (parse_action, 10**5000),
        (parse_card, "Q" * 50_000),
        (bid_from_json, {"books": "9" * 50_000, "mode": "up"}),
    ],
    ids=["long text", "long list", "deep list", "long number", "long card", "long bid"],
)
def test_a_parse_error_quotes_only_the_start_of_a_huge_value(parse, value) -> None:
    with pytest.raises(ParseError) as info:
        parse(value)
    assert len(str(info.value)) < 250


@pytest.mark.parametrize(
    "values",
    [{"min_bid": 10**5000}, {"all_pass": "x" * 100_000}, {"jokers": ["no"] * 100_000}],
    ids=["long number", "long text", "long list"],
)
def test_a_rule_value_error_quotes_only_the_start_of_a_huge_value(values: dict) -> None:
    with pytest.raises(RuleConfigError) as info:
        make_rules("bidwhist", values)
    assert len(str(info.value)) < 250
