"""Hand histories (HAND_HISTORY.md): the recorded fields, the write/read/replay
round trip, tampered records, records without a seed, unreadable files, the
event table of the recorder, and files written by an older version of the
program (tests/data/history_v1), which must still replay and re-record to the
same bytes."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from game.ai import make_player
from game.persistence.history_codec import EVENT_HANDLERS, HistoryError, HistoryRecorder
from game.persistence.history_files import write_history
from game.persistence.history_reader import read_history
from game.persistence.history_replay import LATER_DEAL_FIELDS, check_file, check_game, recorded_actions
from game.persistence.history_schema import check_record_shape
from game.rules import EVENT_TYPES, Phase, events_for, game_names, get_game, make_rules, new_game
from game.rules.actions import PASS
from game.rules.events import UnhandledEventError
from game.session.match import Match, Seat

OLD_HISTORIES = Path(__file__).resolve().parent / "data" / "history_v1"

CARD = re.compile(r"^([2-9TJQKA][SHDC]|BJ|LJ|WZ|JE)$")
TOP_KEYS = [
    "format",
    "version",
    "game",
    "seed",
    "rules",
    "players",
    "first_dealer",
    "deals",
    "complete",
    "final_scores",
    "winners",
]
BIDWHIST_DEAL_KEYS = [
    "number",
    "dealer",
    "hands",
    "kitty",
    "bids",
    "redeal",
    "declarer",
    "contract",
    "discard",
    "tricks",
    "reneges",
    "books",
    "score_change",
    "scores",
]
WIZARD_DEAL_KEYS = [
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
SUIT_LETTER = {"S": 0, "H": 1, "D": 2, "C": 3}


def played_match(game: str, seed: int, players: int = 4, level: str = "random", **overrides) -> Match:
    rules = make_rules(game, overrides, players=players)
    seats = [Seat("You", "human")] + [Seat(f"Bot {i}", f"ai:{level}") for i in range(1, players)]
    match = Match(rules, seats, seed)
    stand_in = make_player(match.game_def, "random")  # plays for the human seat
    rng = random.Random(seed)
    while not match.is_over:
        if match.phase == Phase.HAND_OVER:
            match.next_deal()
        elif match.is_human_turn():
            match.apply(stand_in.choose(match.view(match.current_player), rng), seat=match.current_player)
        else:
            match.apply(match.choose_ai_action())
    return match


# ---------------------------------------------------------------- the format
def assert_cards(codes) -> None:
    assert isinstance(codes, list) and all(isinstance(c, str) and CARD.match(c) for c in codes), codes


def assert_trick(trick: dict, players: int) -> None:
    assert list(trick) == ["leader", "plays", "winner"]
    seats = [p["seat"] for p in trick["plays"]]
    assert seats == [(trick["leader"] + k) % players for k in range(players)]
    assert all(list(p) == ["seat", "card"] for p in trick["plays"])
    assert_cards([p["card"] for p in trick["plays"]])
    assert trick["winner"] in seats


def assert_bidwhist_deal(deal: dict, previous_scores: list[int], rules: dict) -> list[int]:
    assert list(deal) == BIDWHIST_DEAL_KEYS
    assert len(deal["hands"]) == 4 and all(len(h) == 12 for h in deal["hands"])
    for hand in deal["hands"]:
        assert_cards(hand)
    assert_cards(deal["kitty"])
    assert len(deal["kitty"]) == 6
    assert len({c for h in deal["hands"] for c in h} | set(deal["kitty"])) == 54
    assert [b["seat"] for b in deal["bids"]] == [(deal["dealer"] + k) % 4 for k in range(1, 5)]
    for entry in deal["bids"]:
        assert list(entry) == ["seat", "bid"]
        assert entry["bid"] == "pass" or (
            list(entry["bid"]) == ["books", "mode"]
            and entry["bid"]["mode"] in ("uptown", "downtown", "notrump")
            and rules["min_bid"] <= entry["bid"]["books"] <= 7
        )
    if deal["redeal"]:
        assert all(b["bid"] == "pass" for b in deal["bids"])
        assert deal["declarer"] is None and deal["contract"] is None
        assert deal["discard"] == [] and deal["tricks"] == [] and deal["reneges"] == []
        assert deal["books"] == [0, 0] and deal["score_change"] == [0, 0]
    else:
        contract = deal["contract"]
        assert list(contract) == ["books", "mode", "trump", "direction"]
        last_bid = [b for b in deal["bids"] if b["bid"] != "pass"][-1]
        assert last_bid["seat"] == deal["declarer"]
        assert {"books": contract["books"], "mode": contract["mode"]} == last_bid["bid"]
        if contract["mode"] == "notrump":
            assert contract["trump"] is None and contract["direction"] in ("uptown", "downtown")
        else:
            assert contract["trump"] in SUIT_LETTER and contract["direction"] == contract["mode"]
        assert_cards(deal["discard"])
        assert len(deal["discard"]) == 6
        assert len(deal["tricks"]) == 12
        for trick in deal["tricks"]:
            assert_trick(trick, 4)
        assert deal["tricks"][0]["leader"] == (
            deal["declarer"] if rules["first_lead"] == "declarer" else (deal["dealer"] + 1) % 4
        )
        for before, after in zip(deal["tricks"], deal["tricks"][1:]):
            assert after["leader"] == before["winner"]
        held = {c for h in deal["hands"] for c in h} | set(deal["kitty"])
        played = [p["card"] for t in deal["tricks"] for p in t["plays"]]
        assert sorted(played + deal["discard"]) == sorted(held)
        assert isinstance(deal["reneges"], list)
        if rules["renege"] == "prevented":
            assert deal["reneges"] == []
        for renege in deal["reneges"]:
            assert list(renege) == ["trick", "seat"] and 0 <= renege["trick"] < 12
        assert sum(deal["books"]) == 13
    change = deal["score_change"]
    assert len(change) == 2 and (deal["declarer"] is None or change[1 - deal["declarer"] % 2] == 0)
    scores = [p + c for p, c in zip(previous_scores, change)]
    assert deal["scores"] == scores
    return scores


def assert_wizard_deal(
    deal: dict, previous_scores: list[int], players: int, last_full_round: bool, rules: dict, older: bool
) -> list[int]:
    # ``trump_chosen_by`` follows the other keys on a deal where a player named trump.
    chooser = deal.get("trump_chosen_by")
    assert list(deal) == WIZARD_DEAL_KEYS + (["trump_chosen_by"] if chooser is not None else [])
    r = deal["number"]
    assert len(deal["hands"]) == players and all(len(h) == r for h in deal["hands"])
    for hand in deal["hands"]:
        assert_cards(hand)
    turn_up, trump = deal["turn_up"], deal["trump"]
    if last_full_round:
        assert turn_up is None and trump is None
    else:
        assert CARD.match(turn_up)
        if turn_up == "JE":
            assert trump is None
        elif turn_up == "WZ":
            turn_up_rule = rules.get("wizard_turn_up", "dealer_chooses")
            if turn_up_rule == "no_trump":
                assert trump is None and chooser is None
            else:  # a player's choice, never no trump
                assert trump in SUIT_LETTER
                offset = 0 if turn_up_rule == "dealer_chooses" else 1
                # A file written before ``trump_chosen_by`` existed lacks it.
                assert chooser == (deal["dealer"] + offset) % players or (older and chooser is None)
        else:
            assert trump == turn_up[1]
    if turn_up != "WZ":
        assert chooser is None
    assert [b["seat"] for b in deal["bids"]] == [(deal["dealer"] + k) % players for k in range(1, players + 1)]
    assert all(list(b) == ["seat", "bid"] and 0 <= b["bid"] <= r for b in deal["bids"])
    assert len(deal["tricks"]) == r
    for trick in deal["tricks"]:
        assert_trick(trick, players)
    assert deal["tricks"][0]["leader"] == (deal["dealer"] + 1) % players
    assert sum(deal["tricks_won"]) == r
    bids = {b["seat"]: b["bid"] for b in deal["bids"]}
    for seat in range(players):
        bid, taken = bids[seat], deal["tricks_won"][seat]
        assert deal["score_change"][seat] == (20 + 10 * taken if bid == taken else -10 * abs(bid - taken))
    scores = [p + c for p, c in zip(previous_scores, deal["score_change"])]
    assert deal["scores"] == scores
    return scores


def assert_history_format(record: dict, older: bool = False) -> None:
    """``older``: the record comes from a file written by an earlier version."""
    assert list(record) == TOP_KEYS
    assert record["format"] == "trick-table-history" and record["version"] == 1
    game = record["game"]
    # A history written before a house-rule key existed lacks it (its default applies).
    assert set(record["rules"]) <= {spec.key for spec in get_game(game).rule_specs}
    players = len(record["players"])
    for seat, entry in enumerate(record["players"]):
        assert list(entry) == ["seat", "name", "controller"] and entry["seat"] == seat
        assert entry["controller"] == "human" or entry["controller"].startswith("ai:")
    first = record["first_dealer"]
    assert list(first) == ["draw", "dealer"]
    if record["seed"] is not None:
        assert first["draw"] and first["draw"][-1]["seat"] == first["dealer"] or game == "wizard"
    assert all(list(d) == ["seat", "card"] and CARD.match(d["card"]) for d in first["draw"])
    scores = [0, 0] if game == "bidwhist" else [0] * players
    dealer = first["dealer"]
    for number, deal in enumerate(record["deals"], 1):
        assert deal["number"] == number and deal["dealer"] == dealer
        dealer = (dealer + 1) % players
        if game == "bidwhist":
            scores = assert_bidwhist_deal(deal, scores, record["rules"])
        else:
            last = record["rules"]["rounds"] == "full" and number * players == 60
            scores = assert_wizard_deal(deal, scores, players, last, record["rules"], older)
    assert record["final_scores"] == scores
    if record["complete"]:
        if game == "bidwhist":
            target = record["rules"]["target_score"]
            (team,) = record["winners"]
            assert scores[team] >= target or scores[1 - team] <= -target
        else:
            assert record["winners"] == [s for s in range(players) if scores[s] == max(scores)]
    else:
        assert record["winners"] == []
    # Plain JSON data only (no tuples that would come back as lists).
    assert json.loads(json.dumps(record)) == record


GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("bidwhist", 4, {}),
    ("bidwhist", 4, {"renege": "penalized", "first_lead": "left_of_dealer", "target_score": 3}),
    ("bidwhist", 4, {"all_pass": "redeal", "downtown_outranks_uptown": True, "min_bid": 1, "notrump_multiplier": 3}),
    ("wizard", 3, {}),
    ("wizard", 4, {"rounds": 6, "uneven_bids": "always"}),
    ("wizard", 5, {"bidding": "hidden", "rounds": 4}),
    ("wizard", 6, {"bidding": "delayed_reveal"}),
    ("wizard", 4, {"wizard_turn_up": "first_bidder_chooses"}),
    ("wizard", 3, {"wizard_turn_up": "no_trump"}),
]


@pytest.mark.parametrize("game,players,overrides", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_recorded_games_match_the_format_and_replay(game, players, overrides, seed) -> None:
    match = played_match(game, seed, players, **overrides)
    record = match.history()
    assert record["complete"] is True
    assert_history_format(record)
    assert check_game(record) == []


def test_write_read_round_trip(tmp_path: Path) -> None:
    records = [played_match(game, 7, players, **o).history() for game, players, o in GAMES]
    path = tmp_path / "games.jsonl"
    write_history(path, records[:3])
    write_history(path, records[3:], append=True)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(records)
    assert list(read_history(path)) == records
    assert check_file(path) == []
    assert json.loads(lines[0]) == records[0]


def test_write_replaces_the_file(tmp_path: Path) -> None:
    path = tmp_path / "one.jsonl"
    record = played_match("wizard", 3, 3, rounds=2).history()
    write_history(path, [record, record])
    write_history(path, [record])
    assert len(list(read_history(path))) == 1


def test_incomplete_game() -> None:
    rules = make_rules("bidwhist")
    match = Match(rules, [Seat(f"P{i}", "ai:random") for i in range(4)], 5)
    record = match.history()
    assert record["complete"] is False and record["final_scores"] == [0, 0] and record["winners"] == []
    for _ in range(30):
        match.apply(match.choose_ai_action())
    record = match.history()
    assert record["complete"] is False and record["winners"] == []
    assert len(record["deals"]) == 1 and record["deals"][0]["scores"] == []
    assert check_game(record) == []
    wizard = Match(make_rules("wizard", players=5), [Seat(f"P{i}", "ai:random") for i in range(5)], 5)
    assert wizard.history()["final_scores"] == [0] * 5


def test_history_of_a_redeal() -> None:
    rules = make_rules("bidwhist", {"all_pass": "redeal"})
    match = Match(rules, [Seat(f"P{i}", "ai:random") for i in range(4)], 12)
    for _ in range(4):
        match.apply(PASS)
    match.next_deal()
    match.play_out()
    record = match.history()
    first, second = record["deals"][0], record["deals"][1]
    assert first["redeal"] is True and first["declarer"] is None and first["contract"] is None
    assert first["books"] == [0, 0] and first["score_change"] == [0, 0] and first["scores"] == [0, 0]
    assert second["dealer"] == (first["dealer"] + 1) % 4 and second["redeal"] is False
    assert_history_format(record)
    assert check_game(record) == []


def test_history_of_a_wizard_turn_up() -> None:
    for seed in range(200):
        match = played_match("wizard", seed, 3, rounds=4)
        record = match.history()
        if any(d["turn_up"] == "WZ" for d in record["deals"]):
            break
    else:
        pytest.fail("no Wizard turned up in 200 short games")
    deal = next(d for d in record["deals"] if d["turn_up"] == "WZ")
    assert deal["trump"] in SUIT_LETTER
    assert check_game(record) == []


def test_reneges_are_recorded() -> None:
    record = played_match("bidwhist", 4, renege="penalized").history()
    reneges = [r for d in record["deals"] for r in d["reneges"]]
    assert reneges  # random players renege often
    assert check_game(record) == []


# ---------------------------------------------------------------- tampering
@pytest.fixture(scope="module")
def bidwhist_record() -> dict:
    return played_match("bidwhist", 21, renege="penalized", target_score=9).history()


@pytest.fixture(scope="module")
def wizard_record() -> dict:
    return played_match("wizard", 21, 4, rounds=5).history()


def _wheres(problems) -> list[str]:
    return [p.where for p in problems]


def test_changed_trick_winner_is_reported(bidwhist_record: dict) -> None:
    record = copy.deepcopy(bidwhist_record)
    trick = next(t for d in record["deals"] for t in d["tricks"])
    trick["winner"] = (trick["winner"] + 1) % 4
    problems = check_game(record)
    assert "deal 1: tricks" in _wheres(problems)
    assert "recorded" in str(problems[0]) and "engine says" in str(problems[0])


def test_changed_score_is_reported(bidwhist_record: dict) -> None:
    record = copy.deepcopy(bidwhist_record)
    record["deals"][0]["scores"][0] += 1
    record["final_scores"][1] -= 2
    wheres = _wheres(check_game(record))
    assert "deal 1: scores" in wheres and "final_scores" in wheres


def test_changed_books_and_winners_are_reported(bidwhist_record: dict) -> None:
    record = copy.deepcopy(bidwhist_record)
    record["deals"][-1]["books"] = [13, 0]
    record["winners"] = [1 - record["winners"][0]]
    wheres = _wheres(check_game(record))
    assert f"deal {len(record['deals'])}: books" in wheres and "winners" in wheres


def test_illegal_card_is_reported(wizard_record: dict) -> None:
    record = copy.deepcopy(wizard_record)
    deal = record["deals"][2]
    # The second player of the first trick plays a card of the third player's hand.
    plays = deal["tricks"][0]["plays"]
    other = deal["hands"][plays[2]["seat"]]
    plays[1]["card"] = next(c for c in other if c not in deal["hands"][plays[1]["seat"]])
    problems = check_game(record)
    assert any(p.where == "deal 3" and "illegal: You do not hold" in str(p.engine) for p in problems)


def test_card_not_following_suit_is_reported() -> None:
    record = played_match("bidwhist", 8).history()  # renege: prevented
    for deal in record["deals"]:
        for index, trick in enumerate(deal["tricks"][:-1]):
            second = trick["plays"][1]
            led = trick["plays"][0]["card"]
            # Swap in a card the same seat plays later that is of another suit.
            later = [p["card"] for t in deal["tricks"][index + 1 :] for p in t["plays"] if p["seat"] == second["seat"]]
            off = [
                c
                for c in later
                if c[1] != led[1]
                and c not in ("BJ", "LJ")
                and led not in ("BJ", "LJ")
                and second["card"][1] == led[1]
                and second["card"] not in ("BJ", "LJ")
            ]
            if off:
                second["card"] = off[0]
                problems = check_game(record)
                assert any("illegal: You must follow" in str(p.engine) for p in problems), problems
                return
    pytest.fail("no trick suitable for the test")


def test_changed_hand_with_a_seed_is_reported(bidwhist_record: dict) -> None:
    record = copy.deepcopy(bidwhist_record)
    hands = record["deals"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    assert "deal 1: hands" in _wheres(check_game(record))


def test_changed_first_dealer_is_reported(wizard_record: dict) -> None:
    record = copy.deepcopy(wizard_record)
    record["first_dealer"]["dealer"] = (record["first_dealer"]["dealer"] + 1) % 4
    assert "first_dealer" in _wheres(check_game(record))


def test_changed_wizard_bid_is_reported(wizard_record: dict) -> None:
    record = copy.deepcopy(wizard_record)
    record["deals"][1]["bids"][0]["bid"] = 9
    problems = check_game(record)
    assert problems and problems[0].where == "deal 2" and "illegal: Bid must be from 0 to 2" in str(problems[0])


def test_truncated_and_extra_deals_are_reported(wizard_record: dict) -> None:
    record = copy.deepcopy(wizard_record)
    record["deals"].append(copy.deepcopy(record["deals"][-1]))
    assert any("the game was already over" in str(p.engine) for p in check_game(record))
    record = copy.deepcopy(wizard_record)
    record["deals"].pop()
    assert "complete" in _wheres(check_game(record))


def test_unreadable_records_are_reported_not_raised(wizard_record: dict) -> None:
    for damage in ("game", "rules", "players", "first_dealer"):
        record = copy.deepcopy(wizard_record)
        del record[damage]
        problems = check_game(record)
        assert problems and problems[0].where == "game header"
    record = copy.deepcopy(wizard_record)
    record["rules"]["rounds"] = 99
    assert check_game(record)[0].where == "game header"
    # A record of the wrong shape is refused before the engine sees it,
    # naming the field at fault.
    record = copy.deepcopy(wizard_record)
    record["deals"] = "lots"
    problems = check_game(record)
    assert problems[0].where == "game header" and "deals: expected a list" in str(problems[0].engine)
    record = copy.deepcopy(wizard_record)
    del record["deals"][0]["tricks"]
    problems = check_game(record)
    assert problems[0].where == "game header" and "deals[0].tricks: missing" in str(problems[0].engine)


# ---------------------------------------------------------------- no seed
@pytest.mark.parametrize("game,players,overrides", GAMES)
def test_history_without_a_seed_replays_from_the_hands(game, players, overrides) -> None:
    record = copy.deepcopy(played_match(game, 31, players, **overrides).history())
    record["seed"] = None
    assert check_game(record) == []


def test_history_without_a_seed_still_checks_the_play(bidwhist_record: dict) -> None:
    record = copy.deepcopy(bidwhist_record)
    record["seed"] = None
    record["deals"][0]["tricks"][0]["winner"] = (record["deals"][0]["tricks"][0]["winner"] + 1) % 4
    assert "deal 1: tricks" in _wheres(check_game(record))


def test_history_without_a_seed_rejects_an_impossible_deal(bidwhist_record: dict) -> None:
    record = copy.deepcopy(bidwhist_record)
    record["seed"] = None
    record["deals"][0]["hands"][0][0] = record["deals"][0]["hands"][1][0]  # a card twice
    problems = check_game(record)
    assert problems[0].where == "game header" and "not one Bid Whist deck" in str(problems[0].engine)
    record = copy.deepcopy(bidwhist_record)
    record["seed"] = None
    record["deals"][0]["hands"][0].pop()
    problems = check_game(record)
    assert problems[0].where == "game header" and "4 hands of 12 cards" in str(problems[0].engine)


def test_history_without_a_seed_wizard_hand_sizes(wizard_record: dict) -> None:
    record = copy.deepcopy(wizard_record)
    record["seed"] = None
    record["deals"][2]["hands"][0].append("2S")
    problems = check_game(record)
    assert problems[0].where == "game header" and "round 3 deals 3 cards to each" in str(problems[0].engine)


# ---------------------------------------------------------------- broken files
def _write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_broken_json_line(tmp_path: Path, wizard_record: dict) -> None:
    path = _write_lines(tmp_path / "h.jsonl", [json.dumps(wizard_record), '{"format": "trick-table-hist'])
    with pytest.raises(HistoryError) as info:
        list(read_history(path))
    assert str(info.value).startswith(f"{path}: line 2: not valid JSON")


def test_line_that_is_not_utf8(tmp_path: Path, wizard_record: dict) -> None:
    path = tmp_path / "h.jsonl"
    path.write_bytes(json.dumps(wizard_record).encode() + b"\n\xff\xfe{}\n")
    with pytest.raises(HistoryError, match="line 2: not UTF-8 text"):
        list(read_history(path))


def test_not_a_history_line(tmp_path: Path) -> None:
    path = _write_lines(tmp_path / "h.jsonl", ['{"format": "something-else", "version": 1}'])
    with pytest.raises(HistoryError, match="line 1: not a Trick Table hand history"):
        list(read_history(path))
    path = _write_lines(tmp_path / "h2.jsonl", ["[1, 2, 3]"])
    with pytest.raises(HistoryError, match="line 1: not a Trick Table hand history"):
        list(read_history(path))


def test_unsupported_version(tmp_path: Path) -> None:
    path = _write_lines(tmp_path / "h.jsonl", ['{"format": "trick-table-history", "version": 2}'])
    with pytest.raises(HistoryError, match="line 1: history version 2 is not supported"):
        list(read_history(path))


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(HistoryError, match="cannot read"):
        list(read_history(tmp_path / "absent.jsonl"))


def test_blank_lines_are_skipped(tmp_path: Path, wizard_record: dict) -> None:
    path = _write_lines(tmp_path / "h.jsonl", ["", json.dumps(wizard_record), "   ", json.dumps(wizard_record)])
    assert len(list(read_history(path))) == 2


def test_check_file_reports_bad_games_by_number(tmp_path: Path, wizard_record: dict) -> None:
    bad = copy.deepcopy(wizard_record)
    bad["deals"][0]["scores"][0] += 10
    path = tmp_path / "h.jsonl"
    write_history(path, [wizard_record, bad, wizard_record])
    result = check_file(path)
    assert [number for number, _ in result] == [2]
    assert "deal 1: scores" in _wheres(result[0][1])


def test_history_without_a_seed_rejects_a_dealer_off_the_table(bidwhist_record: dict) -> None:
    record = copy.deepcopy(bidwhist_record)
    record["seed"] = None
    record["first_dealer"]["dealer"] = 9
    problems = check_game(record)
    assert problems[0].where == "game header" and "first_dealer must be a seat" in str(problems[0].engine)


# ---------------------------------------------------------------- the event table
def test_every_event_type_has_a_handler() -> None:
    assert set(EVENT_TYPES) <= set(EVENT_HANDLERS), set(EVENT_TYPES) - set(EVENT_HANDLERS)
    assert set(EVENT_HANDLERS) <= set(EVENT_TYPES), "a handler for an event kind the rules do not have"
    assert all(callable(handler) for handler in EVENT_HANDLERS.values())


def test_an_event_without_a_handler_raises() -> None:
    @dataclasses.dataclass(frozen=True)
    class Shuffled:  # an event kind the recorder was never taught
        seat: int

    recorder = HistoryRecorder(get_game("wizard"), 1, {}, [{"seat": s} for s in range(3)])
    with pytest.raises(UnhandledEventError, match="Shuffled"):
        recorder.feed([Shuffled(0)])  # type: ignore[list-item]  # an event of no known kind is the point


def test_a_filtered_event_stream_is_refused() -> None:
    """The history is the full record: a seat's stream (other hands hidden,
    hidden bids unknown) would write wrong cards, so it is refused."""
    rules = make_rules("wizard", {"bidding": "hidden"}, players=3)
    state, events = new_game(rules, 3, 4)
    game = get_game("wizard")
    recorder = HistoryRecorder(game, 4, rules.to_dict(), [{"seat": s} for s in range(3)])
    with pytest.raises(ValueError, match="hidden card"):
        recorder.feed(events_for(events, 0))
    recorder = HistoryRecorder(game, 4, rules.to_dict(), [{"seat": s} for s in range(3)])
    recorder.feed(events)
    if state.phase == Phase.TRUMP_CHOICE:  # a Wizard was turned up: trump first
        state.apply_in_place(state.legal_actions()[0], events)
    assert state.phase == Phase.PREDICT
    bidder = state.current_player
    bid_events: list = []
    state.apply_in_place(state.legal_actions()[0], bid_events)
    with pytest.raises(ValueError, match="hidden bid"):
        recorder.feed(events_for(bid_events, (bidder + 1) % 3))


def test_a_game_scored_another_way_has_no_history_shape() -> None:
    strange = dataclasses.replace(get_game("wizard"), scoring="auction")
    with pytest.raises(ValueError, match="'auction'"):
        HistoryRecorder(strange, 1, {}, [{"seat": s} for s in range(3)])


# ---------------------------------------------------------------- files of an older version
OLD_FILES = sorted(OLD_HISTORIES.glob("*.jsonl"))


def test_the_old_history_files_are_there() -> None:
    assert {path.name for path in OLD_FILES} == {"bidwhist.jsonl", "wizard.jsonl"}


@pytest.mark.parametrize("path", OLD_FILES, ids=lambda path: path.name)
def test_old_histories_replay_clean(path: Path) -> None:
    records = list(read_history(path))
    assert len(records) == 4
    assert check_file(path) == []
    for record in records:
        assert_history_format(record, older=True)
        unseeded = copy.deepcopy(record)
        unseeded["seed"] = None
        assert check_game(unseeded) == []


@pytest.mark.parametrize("path", OLD_FILES, ids=lambda path: path.name)
def test_old_histories_are_recorded_again_byte_for_byte(path: Path, tmp_path: Path) -> None:
    """The same decisions played through today's match write the very same file
    (but for the house-rule keys added since, written with their defaults, and
    the deal fields added since)."""
    again, expected = [], []
    for record in read_history(path):
        game = get_game(record["game"])
        rules = make_rules(game.name, record["rules"], players=len(record["players"]))
        expected.append({**record, "rules": rules.to_dict()})
        match = Match(rules, [Seat(p["name"], p["controller"]) for p in record["players"]], record["seed"])
        for index, deal in enumerate(record["deals"]):
            if index:
                match.next_deal()
            for action in recorded_actions(game, deal):
                match.apply(action)
        again.append(match.history())
        for old_deal, new_deal in zip(expected[-1]["deals"], again[-1]["deals"]):
            old_deal.update({key: new_deal[key] for key in LATER_DEAL_FIELDS if key in new_deal})
    written, wanted = tmp_path / path.name, tmp_path / ("expected-" + path.name)
    write_history(written, again)
    write_history(wanted, expected)
    assert written.read_bytes() == wanted.read_bytes()


# ---------------------------------------------------------------- every variant is readable
def _one_value_changed() -> list[tuple[str, int, dict]]:
    """One short game per game and per other value of each choice or on/off house rule."""
    cases = []
    for game in game_names():
        game_def = get_game(game)
        short = {spec.key: spec.minimum for spec in game_def.rule_specs if spec.key in ("target_score", "rounds")}
        for spec in game_def.rule_specs:
            values = spec.choices if spec.kind == "choice" else (True, False) if spec.kind == "bool" else ()
            for value in values:
                if value != spec.default:
                    cases.append((game, game_def.default_players, short | {spec.key: value}))
    return cases


@pytest.mark.parametrize(
    "game,players,overrides",
    _one_value_changed(),
    ids=lambda case: (
        str(case) if not isinstance(case, dict) else ",".join(f"{key}={value}" for key, value in case.items())
    ),
)
def test_every_house_rule_variant_writes_a_record_the_reader_accepts(game, players, overrides) -> None:
    """The shape the reader checks (game.persistence.history_schema) holds every field the writer
    writes under every house rule, so no variant's game is refused as 'written by a newer program'."""
    record = played_match(game, 5, players, **overrides).history()
    check_record_shape(record)
    assert check_game(record) == []
