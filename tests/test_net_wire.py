"""The wire codec: every event, view, finished hand and score history of whole games reads back equal."""

from __future__ import annotations

import json
from typing import Any

import pytest

from game.net.wire import WireError, decode_action, decode_value, encode_value
from game.persistence.history_codec import score_history
from game.rules import PUBLIC_SEAT, Phase
from game.rules.actions import parse_action
from game.rules.house_rules import make_rules
from game.rules.view import PlayerView
from game.session.match import Match, Seat


def _round_trip(value: Any) -> Any:
    return decode_value(json.loads(json.dumps(encode_value(value))))


@pytest.mark.parametrize(
    ("game", "players", "values"), [("bidwhist", 4, {}), ("wizard", 3, {"rounds": 5}), ("wizard", 6, {"rounds": 4})]
)
def test_a_whole_game_reads_back_equal(game: str, players: int, values: dict[str, Any]) -> None:
    match = Match(make_rules(game, values), [Seat(f"c{i}", "ai:easy") for i in range(players)], 77)
    while not match.is_over:
        if match.phase == Phase.HAND_OVER:
            match.next_deal()
            assert _round_trip(match.finished_hand() or match.view(0)) is not None
        else:
            match.apply(match.choose_ai_action())
        for viewer in (PUBLIC_SEAT, *range(players)):
            view = match.view(viewer)
            assert _round_trip(view) == view
        finished = match.finished_hand()
        if finished is not None:
            assert _round_trip(finished) == finished
    for event in match.events:
        for viewer in (PUBLIC_SEAT, 0):
            seen = event.for_seat(viewer)
            assert _round_trip(seen) == seen
    scores = score_history(match.history())
    assert _round_trip(scores) == scores


def test_cards_travel_as_codes_and_hidden_cards_as_null() -> None:
    match = Match(make_rules("bidwhist"), [Seat(f"c{i}", "ai:easy") for i in range(4)], 5)
    dealt = next(event for event in match.events if type(event).__name__ == "Dealt")
    data = encode_value(dealt.for_seat(2))
    assert all(isinstance(code, str) and len(code) == 2 for code in data["hands"][2])
    assert all(code is None for code in data["hands"][0]) and all(code is None for code in data["kitty"])
    view = encode_value(match.view(match.current_player))
    assert all(isinstance(action, str) for action in view["legal_actions"])


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"type": "Nope"},
        {"type": "CardPlayed", "seat": 1},
        {"type": "CardPlayed", "seat": "1", "card": "AS", "renege": False},
        {"type": "CardPlayed", "seat": 1, "card": "ZZ", "renege": False},
        {"type": "CardPlayed", "seat": True, "card": "AS", "renege": False},
        {"type": "TrickWon", "winner": 0, "leader": 0, "plays": [[0]], "index": 0, "books": []},
        {"type": "Match"},
    ],
)
def test_a_malformed_value_is_a_wire_error(data: Any) -> None:
    with pytest.raises(WireError):
        decode_value(data)


def test_only_the_expected_kind_is_read() -> None:
    event = {"type": "CardPlayed", "seat": 1, "card": "AS", "renege": False}
    with pytest.raises(WireError):
        decode_value(event, PlayerView)


def test_actions_are_the_hand_history_strings() -> None:
    assert decode_action("4up") == parse_action("4up")
    assert decode_action(None) is None
    bad: object
    for bad in (4, "x" * 100, "4sideways", [], {"a": 1}):
        with pytest.raises(WireError):
            decode_action(bad)
