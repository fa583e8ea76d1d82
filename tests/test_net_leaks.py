"""No frame the server sends carries a card, hidden bid or seed its receiver may not know yet.

Whole games of both games are played through a real server by bots and a spectator that keep
every frame; the table's log is then replayed, and each frame is checked against the full
state at its position, by a model of what each seat knows written here from RULES.md.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from game.net.bot_client import BotClient, create_table, take_seat
from game.net.table_log import replayed
from game.rules import PUBLIC_SEAT, Phase
from game.rules.actions import parse_action
from game.rules.cards import parse_card
from game.rules.events import (
    BidWhistHandScored,
    CardPlayed,
    Dealt,
    FirstDealerDrawn,
    KittyTaken,
    TrumpTurnedUp,
    WizardHandScored,
)
from game.session.match import Match
from net_servers import run, running_server

_CARD = re.compile(r"^-?([2-9TJQKA][SHDC]|BJ|LJ|WZ|JE)$")


Knowledge = tuple[set[int], set[int]]  # the cards a viewer may know, the seats whose bid it may not


def _knowledge(match: Match, viewer: int) -> Knowledge:
    """The cards ``viewer`` may know now, and the seats whose bid this deal it may not know."""
    known: set[int] = set()
    deal: Dealt | None = None
    for event in match.events:
        if isinstance(event, FirstDealerDrawn):
            known.update(card for _, card in event.draw)
        elif isinstance(event, Dealt):
            deal = event
            if viewer != PUBLIC_SEAT:
                known.update(event.hands[viewer])
        elif isinstance(event, TrumpTurnedUp):
            known.add(event.card)
        elif isinstance(event, CardPlayed):
            known.add(event.card)
        elif isinstance(event, KittyTaken) and event.seat == viewer:
            known.update(event.cards)
        elif isinstance(event, (BidWhistHandScored, WizardHandScored)) and deal is not None:
            # A finished hand is shown to everyone, face up (its review).
            known.update(card for hand in deal.hands for card in hand)
            known.update(deal.kitty)
    secret_bids: set[int] = set()
    bidding = getattr(match.rules, "bidding", "open")
    if bidding != "open" and (
        match.phase == Phase.PREDICT or (bidding == "delayed_reveal" and match.phase == Phase.PLAY)
    ):
        secret_bids = {seat for seat in range(match.num_players) if seat != viewer}
    return known, secret_bids


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)] + [str(key) for key in value]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


def _check_frame(frame: dict[str, Any], knowledge: Knowledge, seed: int) -> list[str]:
    """What ``frame`` tells its viewer beyond what it may know (``knowledge``, at the frame's position)."""
    problems = []
    known, secret_bids = knowledge
    for text in _strings(frame):
        if _CARD.match(text) and parse_card(text.lstrip("-")) not in known:
            problems.append(f"card {text}")
    if str(seed) in json.dumps(frame):
        problems.append("the seed")
    if frame["type"] == "step" and secret_bids:
        view = frame["view"]
        for seat in secret_bids:
            if view.get("predictions") and view["predictions"][seat] != -1:
                problems.append(f"seat {seat}'s bid in the view")
        hand_start = max((i for i, e in enumerate(frame["events"]) if e["event"]["type"] == "Dealt"), default=0)
        for numbered in frame["events"][hand_start:]:
            event = numbered["event"]
            if event["type"] == "BidMade" and event["seat"] in secret_bids and event["action"] is not None:
                problems.append(f"seat {event['seat']}'s bid in an event")
            if event["type"] == "BidsRevealed":
                problems.append("the bids revealed")
        for seat, action in view["actions"]:
            if seat in secret_bids and action is not None and parse_action(action).kind.name == "PREDICT":
                problems.append(f"seat {seat}'s bid in the view's actions")
    return problems


def _positions(log_path: Path) -> tuple[int, dict[tuple[int, int], dict[int, Knowledge]]]:
    """The table log replayed: the seed, and what each viewer may know at every position."""
    records = [json.loads(line) for line in log_path.read_text().splitlines()]
    knowledge: dict[tuple[int, int], dict[int, Knowledge]] = {}
    for table in replayed(records):
        if table is not None and table.match is not None:
            match = table.match
            viewers = (PUBLIC_SEAT, *range(match.num_players))
            knowledge[match.position_key()] = {viewer: _knowledge(match, viewer) for viewer in viewers}
    return int(records[0]["seed"]), knowledge


async def _play(game: str, seats: list[dict[str, Any]], values: dict[str, Any], data_dir: Path) -> list[BotClient]:
    async with running_server(data_dir) as (_, url):
        host, guest, watcher = (BotClient(url, seed=n, record=True) for n in (5, 6, 7))
        for bot in (host, guest, watcher):
            await bot.connect()
        created = await create_table(host, game, seats, values, spectators=True)
        await take_seat(guest, created["invite"], "Bob")
        await watcher.request({"type": "spectate", "invite": created["invite"]})
        await host.request({"type": "start", "table": created["table"], "host_token": created["host_token"]})
        await asyncio.gather(host.finish(30), guest.finish(30))
        await asyncio.sleep(0.1)  # the spectator's last steps
        for bot in (host, guest, watcher):
            await bot.close()
        return [host, guest, watcher]


CASES: dict[str, tuple[str, int, dict[str, Any]]] = {
    "bidwhist": ("bidwhist", 4, {"target_score": 5}),
    "wizard-open": ("wizard", 4, {"rounds": 4}),
    "wizard-hidden": ("wizard", 3, {"rounds": 4, "bidding": "hidden"}),
    "wizard-delayed": ("wizard", 4, {"rounds": 4, "bidding": "delayed_reveal"}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_frame_carries_only_what_its_seat_may_know(case: str, tmp_path: Path) -> None:
    game, players, values = CASES[case]
    seats = [{"kind": "host", "name": "Ann"}, {"kind": "open"}]
    seats += [{"kind": "computer", "level": "easy"} for _ in range(players - 2)]
    bots = run(_play(game, seats, values, tmp_path))
    (log_path,) = (tmp_path / "tables").glob("*.jsonl")
    seed, knowledge = _positions(log_path)
    checked = 0
    for bot, viewer in zip(bots, (0, 1, PUBLIC_SEAT)):
        for frame in bot.frames:
            if frame["type"] == "game_over":
                continue  # the whole record, seed and all, once the game is over: everyone may know it
            if frame["type"] != "step":
                assert str(seed) not in json.dumps(frame) and not any(_CARD.match(t) for t in _strings(frame))
                continue
            assert frame["viewer"] == viewer
            problems = _check_frame(frame, knowledge[tuple(frame["state"]["position"])][viewer], seed)
            assert not problems, f"{case}: a frame for viewer {viewer} at {frame['state']['position']}: {problems}"
            checked += 1
    assert checked > 50


def test_the_checker_finds_a_leak() -> None:
    """The model is not blind: another seat's dealt hand, a hidden bid or the seed is caught."""
    from game.net.wire import encode_value
    from game.rules.house_rules import make_rules
    from game.session.match import Seat

    match = Match(make_rules("wizard", {"bidding": "hidden"}), [Seat(f"p{i}", "human") for i in range(3)], 99)
    dealt = next(event for event in match.events if isinstance(event, Dealt))
    while match.phase != Phase.PREDICT:  # a Wizard turned up: trump is named first
        match.apply(match.view(match.current_player).legal_actions[0], match.current_player)
    match.apply(match.view(match.current_player).legal_actions[0], match.current_player)  # one secret bid
    viewer = match.current_player  # the next to bid may not know it
    frame = {"type": "step", "view": encode_value(match.view(viewer)), "events": [], "state": {}}
    knowledge = _knowledge(match, viewer)
    assert _check_frame(frame, knowledge, 99) == []
    leaky = {**frame, "events": [{"n": 1, "event": encode_value(dealt)}]}  # every hand, unmasked
    assert any(problem.startswith("card") for problem in _check_frame(leaky, knowledge, 99))
    told = json.loads(json.dumps(frame))
    told["view"]["predictions"] = [1, 1, 1]
    assert any("bid in the view" in problem for problem in _check_frame(told, knowledge, 99))
    assert "the seed" in _check_frame({**frame, "note": "game 99"}, knowledge, 99)
