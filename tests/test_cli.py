"""The headless command line: simulate, replay --check, and their error exits.

The summary of ``simulate`` is gathered from the engine's events; the tests
recount it from the hand histories written by the same run, so both views of
the games must agree."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.program.cli import main
from game.rules import game_names, get_game

ROOT = Path(__file__).resolve().parent.parent


def run_main(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_bidwhist_prints_summary_and_writes_history(tmp_path, capsys):
    out_file = tmp_path / "bw.jsonl"
    code, out, _ = run_main(
        capsys, "simulate", "--game", "bidwhist", "--games", "3", "--seed", "5", "--history", str(out_file)
    )
    assert code == 0
    assert "bidwhist: 3 games" in out
    assert "team 0 (seats 0 and 2)" in out and "team 1 (seats 1 and 3)" in out
    for mode in ("uptown", "downtown", "notrump"):
        assert f"{mode} contracts:" in out
    lines = out_file.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    records = [json.loads(line) for line in lines]
    assert [r["seed"] for r in records] == [5, 6, 7]
    assert all(r["complete"] for r in records)
    assert all(p["controller"] == "ai:medium" for r in records for p in r["players"])


def test_simulate_wizard_reports_bid_hit_rate_per_seat_levels(tmp_path, capsys):
    code, out, _ = run_main(
        capsys,
        "simulate",
        "--game",
        "wizard",
        "--players",
        "3",
        "--games",
        "2",
        "--seed",
        "1",
        "--ai",
        "medium,random,medium",
        "--set",
        "rounds=4",
    )
    assert code == 0
    assert "wizard: 2 games, 3 players, computer levels medium,random,medium" in out
    assert "seat 1 (random)" in out
    assert "bid-hit rate:" in out


def test_same_seed_gives_byte_identical_history(tmp_path, capsys):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for target in (first, second):
        assert (
            run_main(
                capsys,
                "simulate",
                "--game",
                "wizard",
                "--players",
                "5",
                "--games",
                "2",
                "--seed",
                "42",
                "--preset",
                "quick",
                "--history",
                str(target),
            )[0]
            == 0
        )
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--set", "min_bid=9"], "min_bid: must be a whole number from 1 to 7, not 9"),
        (["--set", "min_bid"], "--set"),
        (["--preset", "nonesuch"], "no preset named 'nonesuch'"),
        (["--set", "colour=blue"], "colour"),
    ],
)
def test_bad_rules_exit_2_with_a_clear_message(capsys, args, message):
    code, _, err = run_main(capsys, "simulate", "--game", "bidwhist", "--games", "1", *args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_bad_rules_file_names_file_and_key(tmp_path, capsys):
    broken = tmp_path / "house.yaml"
    broken.write_text("game: wizard\nrules:\n  uneven_bids: always\n  bidding: hidden\n", encoding="utf-8")
    code, _, err = run_main(capsys, "simulate", "--game", "wizard", "--games", "1", "--rules", str(broken))
    assert code == 2
    assert str(broken) in err and "uneven_bids" in err


def test_wrong_player_count_and_unknown_ai_level_exit_2(capsys):
    assert run_main(capsys, "simulate", "--game", "wizard", "--players", "7", "--games", "1")[0] == 2
    code, _, err = run_main(capsys, "simulate", "--game", "wizard", "--games", "1", "--ai", "genius")
    assert code == 2 and "unknown level 'genius'" in err


def test_replay_check_accepts_good_and_rejects_tampered_history(tmp_path, capsys):
    history = tmp_path / "h.jsonl"
    run_main(capsys, "simulate", "--game", "bidwhist", "--games", "2", "--seed", "3", "--history", str(history))
    code, out, _ = run_main(capsys, "replay", "--check", str(history))
    assert code == 0 and "every game agrees" in out

    records = [json.loads(line) for line in history.read_text(encoding="utf-8").splitlines()]
    records[1]["deals"][0]["score_change"] = [99, 0]
    tampered = tmp_path / "bad.jsonl"
    tampered.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    code, out, _ = run_main(capsys, "replay", "--check", str(tampered))
    assert code == 1
    assert "line 2: the engine disagrees" in out and "score_change" in out


def test_replay_check_of_unreadable_file_is_a_message(tmp_path, capsys):
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("{not json\n", encoding="utf-8")
    code, _, err = run_main(capsys, "replay", "--check", str(garbage))
    assert code == 2 and "line 1" in err
    code, _, err = run_main(capsys, "replay", "--check", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "cannot read" in err


def test_main_py_runs_as_a_script(tmp_path):
    """The documented command line works end to end in a fresh interpreter."""
    result = subprocess.run(
        [
            sys.executable,
            "main.py",
            "simulate",
            "--game",
            "wizard",
            "--games",
            "1",
            "--seed",
            "2",
            "--preset",
            "quick",
            "--data-dir",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "wizard: 1 games" in result.stdout


def _simulate_with_history(capsys, tmp_path, *args: str) -> tuple[str, list[dict]]:
    history = tmp_path / "games.jsonl"
    code, out, err = run_main(capsys, "simulate", *args, "--history", str(history))
    assert code == 0, err
    return out, [json.loads(line) for line in history.read_text(encoding="utf-8").splitlines()]


def test_contract_summary_agrees_with_the_histories(tmp_path, capsys):
    out, records = _simulate_with_history(
        capsys,
        tmp_path,
        "--game",
        "bidwhist",
        "--games",
        "3",
        "--seed",
        "6",
        "--set",
        "all_pass=redeal",
        "--set",
        "renege=penalized",
    )
    game = get_game("bidwhist")
    for team in (0, 1):
        seats = " and ".join(str(s) for s in game.team_members(team, 4))
        wins = sum(r["winners"] == [team] for r in records)
        mean = sum(r["final_scores"][team] for r in records) / len(records)
        assert f"  team {team} (seats {seats}): {wins} wins, mean final score {mean:.2f}" in out
    played = [d for r in records for d in r["deals"] if not d["redeal"]]
    for mode in ("uptown", "downtown", "notrump"):
        deals = [d for d in played if d["contract"]["mode"] == mode]
        made = sum(d["books"][game.team_of(d["declarer"])] >= 6 + d["contract"]["books"] for d in deals)
        assert f"  {mode} contracts: {len(deals)} played, {made} made, {len(deals) - made} set" in out
    redeals = sum(d["redeal"] for r in records for d in r["deals"])
    assert redeals > 0 and f"  redeals: {redeals}" in out


def test_prediction_summary_agrees_with_the_histories(tmp_path, capsys):
    out, records = _simulate_with_history(
        capsys,
        tmp_path,
        "--game",
        "wizard",
        "--players",
        "5",
        "--games",
        "2",
        "--seed",
        "4",
        "--preset",
        "quick",
        "--ai",
        "random",
    )
    hits = made = 0
    for record in records:
        for deal in record["deals"]:
            bids = {b["seat"]: b["bid"] for b in deal["bids"]}
            made += len(bids)
            hits += sum(bids[seat] == taken for seat, taken in enumerate(deal["tricks_won"]))
    assert f"  bid-hit rate: {hits / made:.1%} ({hits} of {made} bids)" in out
    for seat in range(5):
        wins = sum(seat in r["winners"] for r in records)
        mean = sum(r["final_scores"][seat] for r in records) / len(records)
        assert f"  seat {seat} (random): {wins} wins, mean final score {mean:.1f}" in out


def test_games_and_default_table_come_from_the_registry(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--game", "cribbage", "--games", "1"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert "invalid choice: 'cribbage' (choose from " + ", ".join(repr(n) for n in game_names()) + ")" in err
    for name in game_names():
        code, out, _ = run_main(capsys, "simulate", "--game", name, "--games", "1", "--seed", "1", "--ai", "random")
        assert code == 0 and f"{name}: 1 games, {get_game(name).default_players} players" in out
