"""A third game is one rules module and one registry entry.

Oh Hell (tests/ohhell.py) is registered for these tests only and then played,
recorded, saved, simulated and replayed through the very code that serves Bid
Whist and Wizard (``game.session``, ``game.persistence``, ``game.program``,
``game.settings``), none of which names it. If any of them compared game
names, or knew a deal's shape by game instead of by scoring style, these
tests would fail.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from game.persistence.history_files import write_history
from game.persistence.history_reader import read_history
from game.persistence.history_replay import check_file, check_game
from game.program.cli import main
from game.rules import EVENT_TYPES, IllegalActionError, Phase, apply, get_game, make_rules, new_game
from game.ai import levels
from game.rules.actions import predict
from game.session.match import Match, Seat
from ohhell import HAND_SIZES, NAME, OhHellEasyPlayer, OhHellRules, oh_hell_registered
from test_registry import registry_problems

PREDICTION_DEAL_KEYS = [
    "number",
    "dealer",
    "hands",
    "turn_up",
    "trump",
    "bids",
    "tricks",
    "tricks_won",
    "score_change",
    "scores",
]


def played(players: int, seed: int, **rules) -> Match:
    match = Match(
        make_rules(NAME, rules, players=players), [Seat(f"Bot {seat}", "ai:random") for seat in range(players)], seed
    )
    match.play_out()
    return match


def test_the_registry_entry_is_complete(oh_hell) -> None:
    # The checks every built-in game passes, except the two that belong to
    # the interface and the bundled files: its text and a presets file.
    problems = registry_problems(oh_hell)
    assert [p for p in problems if not p.startswith(("text key", "presets file"))] == []


@pytest.mark.parametrize("players", range(3, 8))
def test_a_whole_game_is_played_recorded_and_replayed(oh_hell, players: int) -> None:
    for seed in (1, 2):
        match = played(players, seed)
        assert match.is_over and match.game_def is oh_hell
        record = match.history()
        assert record["game"] == NAME and record["complete"] is True
        assert record["rules"] == {"hook": True}
        assert [len(deal["hands"][0]) for deal in record["deals"]] == list(HAND_SIZES)
        assert all(list(deal) == PREDICTION_DEAL_KEYS for deal in record["deals"])
        scores = [0] * players
        for deal in record["deals"]:
            assert deal["trump"] == deal["turn_up"][1]  # the turned-up card's suit is trump
            bids = {entry["seat"]: entry["bid"] for entry in deal["bids"]}
            for seat, taken in enumerate(deal["tricks_won"]):
                assert deal["score_change"][seat] == (10 + taken if bids[seat] == taken else 0)
            scores = [score + change for score, change in zip(scores, deal["score_change"])]
            assert deal["scores"] == scores
        assert record["final_scores"] == scores == list(match.view(-1).scores)
        assert record["winners"] == [seat for seat in range(players) if scores[seat] == max(scores)]
        assert check_game(record) == []
        unseeded = copy.deepcopy(record)
        unseeded["seed"] = None
        assert check_game(unseeded) == []


def test_it_is_played_by_its_own_registered_computer_levels(oh_hell) -> None:
    """The levels come from its registry entry: a random player any game may
    register, and its own easy player, resolved by import path like the
    built-in games' players; every decision of an easy seat is that player's."""
    assert levels(oh_hell) == ("random", "easy")
    seats = [Seat(f"Bot {seat}", f"ai:{level}") for seat, level in enumerate(("easy", "random", "easy", "random"))]
    match = Match(make_rules(NAME, {}, players=4), seats, 6)
    easy = OhHellEasyPlayer()
    while not match.is_over:
        if match.phase == Phase.HAND_OVER:
            match.next_deal()
            continue
        seat = match.current_player
        action = match.choose_ai_action()
        if seat % 2 == 0:
            assert action == easy.choose(match.view(seat), random.Random(0))
        match.apply(action)
    assert check_game(match.history()) == [] and match.history()["complete"] is True


def test_every_event_it_emits_is_a_known_kind(oh_hell) -> None:
    match = played(4, 3)
    assert {type(event) for event in match.events} <= set(EVENT_TYPES)


def test_a_tampered_record_is_caught(oh_hell) -> None:
    record = played(5, 4).history()
    changed = copy.deepcopy(record)
    changed["deals"][3]["tricks"][0]["winner"] = (changed["deals"][3]["tricks"][0]["winner"] + 1) % 5
    assert "deal 4: tricks" in [p.where for p in check_game(changed)]
    changed = copy.deepcopy(record)
    changed["seed"] = None
    changed["deals"][1]["hands"][0].append(changed["deals"][1]["hands"][1][0])
    problems = check_game(changed)
    assert problems[0].where == "game header" and "round 2 deals 2 cards" in str(problems[0].engine)


def test_a_save_resumes(oh_hell) -> None:
    # Match and new_game are typed for the two shipped games' rules; the registry takes any game's.
    match = Match(OhHellRules(hook=False), [Seat("You"), Seat("Bot", "ai:random"), Seat("Bot", "ai:random")], 8)  # type: ignore[arg-type]
    rng = random.Random(8)
    for _ in range(12):
        if match.phase == Phase.HAND_OVER:
            match.next_deal()
        else:
            match.apply(rng.choice(match.legal_actions()))
    resumed = Match.from_save(json.loads(json.dumps(match.to_save())))
    assert resumed.history() == match.history()
    assert resumed.view(0) == match.view(0)


def test_the_hook_rule_is_enforced(oh_hell) -> None:
    # Round 4 deals four cards; the dealer bids last and may not make the bids add up to 4.
    state, _ = new_game(OhHellRules(), 3, 5, first_dealer=0, start_deal=4)  # type: ignore[arg-type]  # as above
    for bid in (1, 2):
        state, _ = apply(state, predict(bid))
    assert state.current_player == state.dealer
    assert predict(1) not in state.legal_actions() and predict(0) in state.legal_actions()
    with pytest.raises(IllegalActionError) as refused:
        apply(state, predict(1))
    assert refused.value.code == "uneven_bids" and refused.value.params == {"bid": 1, "total": 4}
    without_hook, _ = new_game(OhHellRules(hook=False), 3, 5, first_dealer=0, start_deal=4)  # type: ignore[arg-type]  # as above
    for bid in (1, 2, 1):
        without_hook, _ = apply(without_hook, predict(bid))
    assert without_hook.phase == Phase.PLAY


def test_the_command_line_simulates_and_replays_it(oh_hell, tmp_path: Path, capsys) -> None:
    rules_file = tmp_path / "ohhell.yaml"
    rules_file.write_text(
        "game: ohhell\nrules:\n  hook: false\npresets:\n  hooked:\n"
        "    description: The dealer may not make the bids fit.\n"
        "    rules: {hook: true}\n",
        encoding="utf-8",
    )
    history = tmp_path / "ohhell.jsonl"
    code = main(
        [
            "simulate",
            "--game",
            NAME,
            "--games",
            "3",
            "--seed",
            "11",
            "--ai",
            "random",
            "--rules",
            str(rules_file),
            "--preset",
            "hooked",
            "--history",
            str(history),
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert f"{NAME}: 3 games, {get_game(NAME).default_players} players, computer levels random" in out
    assert "seat 3 (random)" in out and "bid-hit rate:" in out
    records = list(read_history(history))
    assert [r["seed"] for r in records] == [11, 12, 13] and all(r["rules"] == {"hook": True} for r in records)
    assert check_file(history) == []
    assert main(["replay", "--check", str(history)]) == 0
    assert "every game agrees" in capsys.readouterr().out
    code = main(["simulate", "--game", NAME, "--players", "8", "--games", "1", "--rules", str(rules_file)])
    assert code == 2 and "played by 3 to 7 players" in capsys.readouterr().err


def test_its_history_file_outlives_the_registration(tmp_path: Path) -> None:
    """A file of a game this program does not know is reported, not a crash."""
    with oh_hell_registered():
        record = played(3, 6).history()
    path = tmp_path / "unknown.jsonl"
    write_history(path, [record])
    ((number, problems),) = check_file(path)
    assert number == 1 and problems[0].where == "game header" and NAME in str(problems[0].engine)
