"""Statistics from the hand history (game.persistence.stats) and the statistics screen.

The numbers are checked against a direct count from the engine's own events
of the same simulated games (wins from ``GameOver``, contracts made or set
from ``BidWhistHandScored.made``, bids hit from ``WizardHandScored``), so the
summaries read from the files must agree with what the engine decided. The
screen is opened from the start screen by synthesized clicks, its charts are
checked to lie inside an 800x600 window, and an empty folder, a damaged
file and an unreadable cache each get a clear outcome, never an exception.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pygame
import pytest

from game.persistence import history_reader, stats_spans
from game.persistence.history_files import repair_history_tail, write_history
from game.persistence.stats import (
    LoadedStats,
    PlayerStats,
    StatsBook,
    level_of,
    load_stats,
    summarize,
    summary_players,
    summary_rounds,
)
from game.rules.actions import BidMode
from game.rules.events import BidWhistHandScored, GameOver, WizardHandScored
from game.session.match import Match, Seat
from game.settings.app_settings import Settings
from game.settings.house_rule_files import resolve_rules
from game.ui.app import App
from game.ui.scenes.start_scene import StartScene
from game.ui.scenes.stats_scene import StatsScene
from game.ui.text import problem_words, set_language, t, text_in

FRAME = 1 / 60
# Every seat is played by the computer; the records then say Ann (seat 0) was
# a human, as a game at the table would.
WIZARD_SEATS = [Seat("Ann", "ai:random"), Seat("Ben", "ai:random"), Seat("Cy", "ai:random")]
BIDWHIST_SEATS = [Seat("Ann", "ai:medium"), Seat("Ben", "ai:medium"), Seat("Cy", "ai:easy"), Seat("Dee", "ai:medium")]


def play(game: str, seats: list[Seat], seed: int, **rules) -> Match:
    match = Match(
        resolve_rules(game, None, None, [f"{k}={v}" for k, v in rules.items()], players=len(seats)), seats, seed
    )
    match.play_out()
    return match


@pytest.fixture(scope="module")
def wizard_matches() -> list[Match]:
    return [play("wizard", WIZARD_SEATS, seed, rounds=6) for seed in range(1, 6)]


@pytest.fixture(scope="module")
def bidwhist_matches() -> list[Match]:
    return [play("bidwhist", BIDWHIST_SEATS, seed, target_score=5) for seed in range(1, 4)]


def recorded(match: Match) -> dict:
    """The match's history with seat 0 recorded as the human at the table."""
    record = match.history()
    record["players"][0] = {**record["players"][0], "controller": "human"}
    return record


def level_at(seat: int) -> str:
    return "human" if seat == 0 else BIDWHIST_SEATS[seat].controller.split(":")[-1]


def write(folder: Path, game: str, records: list) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{game}.jsonl"
    write_history(path, [recorded(r) if isinstance(r, Match) else r for r in records])
    return path


# ---------------------------------------------------------------------- numbers against a direct count
def test_wizard_numbers_match_a_direct_count_of_the_engine_events(tmp_path, wizard_matches):
    write(tmp_path / "histories", "wizard", wizard_matches)
    book = load_stats(tmp_path / "histories").book
    for seat, seat_info in enumerate(WIZARD_SEATS):
        wins = hits = bids = 0
        by_size: Counter = Counter()
        sized: Counter = Counter()
        finals = []
        for match in wizard_matches:
            for event in match.events:
                if isinstance(event, GameOver):
                    wins += seat in event.winners
                    finals.append(event.final_scores[seat])
                elif isinstance(event, WizardHandScored):
                    size = len(match.history()["deals"][event.number - 1]["hands"][seat])
                    hit = event.bids[seat] == event.tricks_won[seat]
                    hits, bids = hits + hit, bids + 1
                    by_size[size] += hit
                    sized[size] += 1
        stats = book.get("wizard", seat_info.name)
        assert stats is not None
        assert (stats.games, stats.wins) == (len(wizard_matches), wins)
        assert stats.best == max(finals) and stats.average == pytest.approx(sum(finals) / len(finals))
        assert stats.hits == (hits, bids)
        assert stats.hit_by_size == {size: [by_size[size], sized[size]] for size in sized}
        assert len(stats.hit_per_game) == len(wizard_matches)


@pytest.mark.parametrize("game", ["wizard", "bidwhist"])
def test_a_summary_gives_back_the_seats_and_the_running_scores_of_its_game(game, wizard_matches, bidwhist_matches):
    # The summary keeps flat lists; read back in shape they are the record's own.
    record = recorded((wizard_matches if game == "wizard" else bidwhist_matches)[0])
    summary = summarize(record, "h.jsonl", 1)
    assert summary_players(summary) == [
        (player["name"], level_of(player["controller"])) for player in record["players"]
    ]
    assert summary_rounds(summary) == [deal["scores"] for deal in record["deals"] if deal.get("scores")]
    # A deal whose scores do not fit the game's sides is no game to count.
    damaged = {**record, "deals": [{**record["deals"][0], "scores": [1, 2, 3, 4, 5]}]}
    with pytest.raises(ValueError, match="5 scores"):
        summarize(damaged)


def test_bidwhist_contracts_by_mode_and_level_match_the_engine(tmp_path, bidwhist_matches):
    write(tmp_path / "histories", "bidwhist", bidwhist_matches)
    book = load_stats(tmp_path / "histories").book
    for seat, seat_info in enumerate(BIDWHIST_SEATS):
        level = level_at(seat)
        expected: Counter = Counter()
        wins = 0
        for match in bidwhist_matches:
            for event in match.events:
                if isinstance(event, BidWhistHandScored) and event.contract is not None and event.declarer == seat:
                    expected[(BidMode(event.contract.mode).label, level, "made" if event.made else "set")] += 1
                if isinstance(event, GameOver):
                    wins += (seat % 2) in event.winners
        stats = book.get("bidwhist", seat_info.name)
        assert stats is not None and stats.contracts == expected
        assert stats.wins == wins
        totals = stats.contract_totals("mode")
        for mode, (bid, made, set_) in totals.items():
            assert bid == made + set_ == sum(n for key, n in expected.items() if key[0] == mode)
    assert sum(sum(player_stats(book, "bidwhist", s.name).contracts.values()) for s in BIDWHIST_SEATS) > 0


def test_wins_by_opponent_level_count_each_opponent_level_once_per_game(tmp_path, bidwhist_matches):
    write(tmp_path / "histories", "bidwhist", bidwhist_matches)
    ann = player_stats(load_stats(tmp_path / "histories").book, "bidwhist", "Ann")
    # Ann (seat 0, team 0) plays against seats 1 and 3: both medium.
    wins = sum(0 in m.history()["winners"] for m in bidwhist_matches)
    assert ann.against == {"medium": [len(bidwhist_matches), wins]}


def player_stats(book: StatsBook, game: str, name: str) -> PlayerStats:
    """The figures of ``name`` at ``game``, who must be in ``book``."""
    stats = book.get(game, name)
    assert stats is not None, f"{name} has no {game} figures"
    return stats


def seated(record: dict, names: list[str]) -> dict:
    """``record`` with its seats renamed, so that games can have different players."""
    return {**record, "players": [{**player, "name": name} for player, name in zip(record["players"], names)]}


def undo_history(matches: list[Match]) -> list[dict]:
    """A game Ann, Ben and Cy finished; one Ann, Dan and Eve finished with undo used (a
    record score and a win for Ann); one Ann, Fay and Gus left unfinished."""
    best = recorded(matches[0])
    undone = {
        **seated(recorded(matches[1]), ["Ann", "Dan", "Eve"]),
        "undo_used": True,
        "final_scores": [999, 0, 0],
        "winners": [0],
    }
    unfinished = {**seated(best, ["Ann", "Fay", "Gus"]), "complete": False}
    return [best, undone, unfinished]


def test_undo_and_unfinished_games_are_counted_apart_and_never_make_a_record(tmp_path, wizard_matches):
    best, _, _ = history_records = undo_history(wizard_matches)
    write(tmp_path / "histories", "wizard", history_records)
    book = load_stats(tmp_path / "histories").book
    ann = player_stats(book, "wizard", "Ann")
    assert ann.games == 1 and ann.best == best["final_scores"][0] and ann.wins == (0 in best["winners"])
    assert ann.against == {"random": [1, int(0 in best["winners"])]} and len(ann.hit_per_game) == 1
    assert book.undo_games["wizard"] == 1 and book.unfinished_games["wizard"] == 1
    assert book.games == 1 and book.finished_games == 2


def test_a_finished_undo_game_is_listed_and_counted_apart_only_for_its_own_players(tmp_path, wizard_matches):
    write(tmp_path / "histories", "wizard", undo_history(wizard_matches))
    book = load_stats(tmp_path / "histories").book
    ann, ben, dan = (player_stats(book, "wizard", name) for name in ("Ann", "Ben", "Dan"))
    # Listed with each of its players' games (so it can be charted and replayed), the undo game
    # is counted apart for them alone.
    assert [summary["index"] for summary in ann.summaries] == [1, 2] and ann.seats == [0, 0]
    assert [summary["index"] for summary in dan.summaries] == [2] and dan.seats == [1]
    assert [summary["index"] for summary in ben.summaries] == [1]
    assert (ann.undo_games, dan.undo_games, ben.undo_games) == (1, 1, 0)
    assert (dan.games, dan.wins, dan.scores, dan.against, dan.hits) == (0, 0, [], {}, (0, 0))
    # An unfinished game is counted for those who sat in it, and listed for nobody.
    assert [book.unfinished_of("wizard", name) for name in ("Ann", "Ben", "Dan", "Fay")] == [1, 0, 0, 1]
    assert book.get("wizard", "Fay") is None and "Fay" not in book.names("wizard")
    assert book.names("wizard")[0] == "Ann"


def test_adding_one_game_at_a_time_gives_the_same_totals(wizard_matches):
    summaries = [summarize(m.history()) for m in wizard_matches]
    at_once = StatsBook().add_all(summaries)
    one_by_one = StatsBook()
    for summary in summaries:
        one_by_one.add(summary)
        ben = one_by_one.get("wizard", "Ben")
        assert ben is not None and ben.games == len(ben.hit_per_game)
    assert player_stats(one_by_one, "wizard", "Ben").hit_by_size == player_stats(at_once, "wizard", "Ben").hit_by_size


# ---------------------------------------------------------------------- the cache
def test_the_cache_skips_unchanged_files_and_rereads_a_changed_one(tmp_path, wizard_matches):
    folder, cache = tmp_path / "histories", tmp_path / "stats_cache.json"
    path = write(folder, "wizard", wizard_matches[:3])
    first = load_stats(folder, cache)
    assert first.read_again == 1 and cache.exists()
    again = load_stats(folder, cache)
    assert again.read_again == 0
    assert player_stats(again.book, "wizard", "Ann").scores == player_stats(first.book, "wizard", "Ann").scores
    write_history(path, [recorded(wizard_matches[3])], append=True)
    grown = load_stats(folder, cache)
    assert grown.read_again == 1 and player_stats(grown.book, "wizard", "Ann").games == 4


def test_a_damaged_cache_is_ignored(tmp_path, wizard_matches):
    folder, cache = tmp_path / "histories", tmp_path / "stats_cache.json"
    write(folder, "wizard", wizard_matches[:2])
    cache.write_text("{not json", encoding="utf-8")
    loaded = load_stats(folder, cache)
    assert player_stats(loaded.book, "wizard", "Ann").games == 2 and not loaded.problems
    assert json.loads(cache.read_text(encoding="utf-8"))["format"] == "trick-table-stats-cache"


def everything_counted(loaded: LoadedStats) -> tuple:
    """All a load worked out, to compare a load from the cache with a fresh one."""
    book = loaded.book
    players = {
        key: (
            stats.games,
            stats.wins,
            stats.scores,
            dict(stats.contracts),
            stats.against,
            stats.hit_by_size,
            stats.hit_per_game,
            stats.summaries,
            stats.seats,
        )
        for key, stats in book.players.items()
    }
    return players, book.games, dict(book.undo_games), dict(book.unfinished_games), loaded.problems


@pytest.fixture
def parsed_lines(monkeypatch) -> list[int]:
    """The line numbers the history reader parses from now on."""
    seen: list[int] = []
    parse = history_reader._parse_line

    def counting(path, number, raw):
        seen.append(number)
        return parse(path, number, raw)

    monkeypatch.setattr(history_reader, "_parse_line", counting)
    return seen


def test_a_game_appended_to_a_cached_history_is_the_only_game_read(tmp_path, wizard_matches, parsed_lines):
    folder, cache = tmp_path / "histories", tmp_path / "stats_cache.json"
    first = recorded(wizard_matches[0])
    path = write(folder, "wizard", [first, {**first, "undo_used": True}, wizard_matches[1]])
    load_stats(folder, cache)
    for number, record in enumerate(
        [recorded(wizard_matches[2]), {**first, "complete": False}, {**recorded(wizard_matches[3]), "undo_used": True}],
        4,
    ):
        write_history(path, [record], append=True)
        parsed_lines.clear()
        grown = load_stats(folder, cache)
        assert parsed_lines == [number]
        assert (grown.read_again, grown.resumed, grown.games_read) == (1, 1, 1)
        assert everything_counted(grown) == everything_counted(load_stats(folder))
    assert player_stats(grown.book, "wizard", "Ann").games == 3
    assert grown.book.undo_games["wizard"] == 2 and grown.book.unfinished_games["wizard"] == 1
    # Her finished games, the two with undo used (2 and 6) among them; the unfinished one (5) is not listed.
    assert [summary["index"] for summary in player_stats(grown.book, "wizard", "Ann").summaries] == [1, 2, 3, 4, 6]


@pytest.mark.parametrize("rewrite", ["same size, games reordered", "fewer games", "first game edited"])
def test_a_history_rewritten_instead_of_appended_to_is_read_again_whole(
    tmp_path, wizard_matches, parsed_lines, rewrite
):
    folder, cache = tmp_path / "histories", tmp_path / "stats_cache.json"
    path = write(folder, "wizard", wizard_matches[:3])
    stale = everything_counted(load_stats(folder, cache))
    before = path.stat()
    lines = path.read_bytes().splitlines(keepends=True)
    if rewrite == "same size, games reordered":
        path.write_bytes(b"".join(reversed(lines)))
        assert path.stat().st_size == before.st_size
    elif rewrite == "fewer games":
        path.write_bytes(b"".join(lines[:2]))
    else:  # the same length: Ann renamed Amy in the first game only
        path.write_bytes(lines[0].replace(b'"Ann"', b'"Amy"') + b"".join(lines[1:]))
    # A new modification time, so that the file is looked at however coarse the
    # file system's clock: what is tested is the check of its contents.
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 10**9))
    parsed_lines.clear()
    again = load_stats(folder, cache)
    assert (again.read_again, again.resumed) == (1, 0) and parsed_lines[0] == 1
    assert everything_counted(again) == everything_counted(load_stats(folder)) != stale


def test_a_repaired_torn_tail_keeps_the_games_before_it_cached(tmp_path, wizard_matches, parsed_lines):
    folder, cache = tmp_path / "histories", tmp_path / "stats_cache.json"
    path = write(folder, "wizard", wizard_matches[:2])
    with open(path, "ab") as handle:
        handle.write(b'{"format": "trick-table-history", "version": 1, "ga')
    torn = load_stats(folder, cache)
    assert len(torn.problems) == 1 and "line 3" in str(torn.problems[0])
    # Appending repairs the tail first (it is set aside) and then adds the game.
    write_history(path, [recorded(wizard_matches[2])], append=True)
    parsed_lines.clear()
    mended = load_stats(folder, cache)
    assert parsed_lines == [3] and mended.resumed == 1 and mended.problems == []
    assert everything_counted(mended) == everything_counted(load_stats(folder))


def test_a_last_game_without_its_newline_is_read_again_once_it_gets_one(tmp_path, wizard_matches, parsed_lines):
    folder, cache = tmp_path / "histories", tmp_path / "stats_cache.json"
    path = write(folder, "wizard", wizard_matches[:2])
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    assert player_stats(load_stats(folder, cache).book, "wizard", "Ann").games == 2
    assert repair_history_tail(path) == 0 and path.read_bytes().endswith(b"}\n")
    write_history(path, [recorded(wizard_matches[2])], append=True)
    parsed_lines.clear()
    grown = load_stats(folder, cache)
    assert parsed_lines == [1, 2, 3] and grown.resumed == 0
    assert everything_counted(grown) == everything_counted(load_stats(folder))


def test_a_damaged_line_is_skipped_and_still_reported_after_games_are_appended(tmp_path, wizard_matches):
    # Issue 25 item 5: one damaged middle line used to stop the statistics there
    # (three good games counted as one, and the games appended later not at all).
    folder, cache = tmp_path / "histories", tmp_path / "stats_cache.json"
    path = write(folder, "wizard", wizard_matches[:3])
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:1] + [b"a line edited by hand\n"] + lines[1:]))
    first = load_stats(folder, cache)
    assert player_stats(first.book, "wizard", "Ann").games == 3
    assert len(first.problems) == 1 and "line 2" in str(first.problems[0])
    write_history(path, [recorded(wizard_matches[3])], append=True)
    grown = load_stats(folder, cache)
    assert grown.resumed == 1 and player_stats(grown.book, "wizard", "Ann").games == 4
    assert len(grown.problems) == 1 and "line 2" in str(grown.problems[0])
    # Game numbers count readable games, so the viewer opens the game the screen lists.
    assert [summary["index"] for summary in player_stats(grown.book, "wizard", "Ann").summaries] == [1, 2, 3, 4]
    assert everything_counted(grown) == everything_counted(load_stats(folder))


def test_many_damaged_lines_are_named_a_few_and_counted(tmp_path, wizard_matches):
    folder, cache = tmp_path / "histories", tmp_path / "stats_cache.json"
    path = write(folder, "wizard", wizard_matches[:1])
    path.write_bytes(b"damage\n" * (stats_spans.NAMED_DAMAGE + 5) + path.read_bytes())
    for loaded in (load_stats(folder, cache), load_stats(folder, cache)):  # fresh, then from the cache
        assert player_stats(loaded.book, "wizard", "Ann").games == 1
        assert len(loaded.problems) == stats_spans.NAMED_DAMAGE + 1
        assert str(loaded.problems[-1]).endswith("wizard.jsonl: 5 more damaged lines skipped")


def test_a_damaged_resume_point_in_the_cache_means_reading_the_file_again(tmp_path, wizard_matches):
    folder, cache = tmp_path / "histories", tmp_path / "stats_cache.json"
    path = write(folder, "wizard", wizard_matches[:2])
    load_stats(folder, cache)
    data = json.loads(cache.read_text(encoding="utf-8"))
    entry = data["files"][str(path)]
    assert entry["resume"]["offset"] == path.stat().st_size and "source" not in entry["games"][0]
    entry["resume"] = {"offset": "far", "line": -1}
    cache.write_text(json.dumps(data), encoding="utf-8")
    write_history(path, [recorded(wizard_matches[2])], append=True)
    again = load_stats(folder, cache)
    assert (again.read_again, again.resumed, again.games_read) == (1, 0, 3)
    assert everything_counted(again) == everything_counted(load_stats(folder))


# ---------------------------------------------------------------------- empty and broken histories
def test_an_empty_or_missing_history_folder_has_no_games_and_no_problems(tmp_path):
    for folder in (tmp_path / "missing", tmp_path):
        loaded = load_stats(folder)
        assert loaded.book.games == 0 and loaded.problems == []


def test_a_damaged_line_keeps_the_games_before_it_and_names_the_file(tmp_path, wizard_matches):
    path = write(tmp_path / "histories", "wizard", wizard_matches[:2])
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"format": "trick-table-history", "version": 1, "ga')
    loaded = load_stats(tmp_path / "histories")
    assert player_stats(loaded.book, "wizard", "Ann").games == 2
    assert (
        len(loaded.problems) == 1 and "wizard.jsonl" in str(loaded.problems[0]) and "line 3" in str(loaded.problems[0])
    )


@pytest.mark.parametrize("damage", ["a line edited by hand", "a game that cannot be summarized"])
def test_a_problem_kept_in_the_cache_is_worded_in_the_players_language(tmp_path, wizard_matches, damage):
    # The problems are codes and parameters, in the cache too, so the statistics
    # screen words them in Dutch whether they were just found or read from the cache.
    folder, cache = tmp_path / "histories", tmp_path / "stats_cache.json"
    path = write(folder, "wizard", wizard_matches[:2])
    if damage == "a line edited by hand":
        path.write_bytes(path.read_bytes() + b"a line edited by hand\n")
        english = "line 3: not valid JSON"
    else:
        write_history(path, [{**recorded(wizard_matches[2]), "players": "nobody"}], append=True)
        english = "game 3: the game cannot be summarized"
    fresh = load_stats(folder, cache).problems
    cached = load_stats(folder, cache)
    assert cached.read_again == 0 and cached.problems == fresh and len(fresh) == 1
    assert english in str(fresh[0])
    try:
        set_language("nl")
        dutch = problem_words(cached.problems[0])
    finally:
        set_language("en")
    assert str(path) in dutch and english not in dutch and dutch != str(fresh[0])


def test_a_problem_in_the_cache_that_this_program_cannot_word_means_reading_the_file_again(tmp_path, wizard_matches):
    folder, cache = tmp_path / "histories", tmp_path / "stats_cache.json"
    path = write(folder, "wizard", wizard_matches[:2])
    path.write_bytes(path.read_bytes() + b"a line edited by hand\n")
    load_stats(folder, cache)
    data = json.loads(cache.read_text(encoding="utf-8"))
    data["files"][str(path)]["problems"] = [{"code": "from.a.newer.program", "params": {}}]
    cache.write_text(json.dumps(data), encoding="utf-8")
    again = load_stats(folder, cache)
    assert again.read_again == 1 and "line 3" in str(again.problems[0])


# ---------------------------------------------------------------------- the screen
def make_app(tmp_path, size=(800, 600)) -> App:
    return App(data_dir=str(tmp_path), size=size, settings=Settings(animation_speed="instant"))


def step(app: App, events=()) -> None:
    app.step(FRAME, list(events))


def click(app: App, pos) -> None:
    for kind in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        data = (
            {"pos": pos, "rel": (0, 0), "buttons": (1, 0, 0)}
            if kind == pygame.MOUSEMOTION
            else {"pos": pos, "button": 1}
        )
        step(app, [pygame.event.Event(kind, data)])


def key(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)


def open_from_start(app: App) -> StatsScene:
    step(app)
    start = app.top_scene()
    assert isinstance(start, StartScene)
    click(app, start.stats_button.rect.center)
    scene = app.top_scene()
    assert isinstance(scene, StatsScene)
    return scene


def test_the_statistics_button_on_the_start_screen_opens_the_screen_and_esc_returns(tmp_path, wizard_matches):
    write(tmp_path / "histories", "wizard", wizard_matches)
    app = make_app(tmp_path)
    scene = open_from_start(app)
    assert scene.game == "wizard" and scene.player == "Ann"  # the human first
    assert scene.wake_in() is None  # it sleeps while read
    step(app, [key(pygame.K_ESCAPE)])
    assert isinstance(app.top_scene(), StartScene)


@pytest.mark.parametrize("size", [(800, 600), (1280, 720)])
def test_charts_lie_inside_the_window_and_apart(tmp_path, wizard_matches, bidwhist_matches, size):
    write(tmp_path / "histories", "wizard", wizard_matches)
    write(tmp_path / "histories", "bidwhist", bidwhist_matches)
    app = make_app(tmp_path, size)
    scene = open_from_start(app)
    window = pygame.Rect(0, 0, *size)
    for game in ("wizard", "bidwhist"):
        click(app, scene.game_buttons[game].rect.center)
        assert scene.game == game
        assert set(scene.geometry) >= {"rounds", "recent", "levels"}
        rects = [geometry.rect for geometry in scene.geometry.values()]
        for geometry in scene.geometry.values():
            assert window.contains(geometry.rect) and geometry.rect.contains(geometry.area)
            for line in geometry.points:
                assert line and all(geometry.area.inflate(2, 2).collidepoint(point) for point in line)
            for bar in geometry.bars:  # a bar of nought is a flat rectangle on the axis
                assert geometry.area.union(bar) == geometry.area
        for index, rect in enumerate(rects):
            assert not any(rect.colliderect(other) for other in rects[index + 1 :])
            assert not rect.colliderect(scene.back_button.rect) and not rect.colliderect(scene.replay_button.rect)
        rounds = scene.geometry["rounds"]
        sides = 2 if game == "bidwhist" else 3
        assert len(rounds.points) == sides
        chosen = scene.chosen_summary()
        assert chosen is not None
        assert len(rounds.points[0]) == len(summary_rounds(chosen))


def test_choosing_another_game_and_player_changes_the_charts(tmp_path, wizard_matches):
    write(tmp_path / "histories", "wizard", wizard_matches)
    app = make_app(tmp_path)
    scene = open_from_start(app)
    newest = scene.geometry["rounds"].points
    left, _, _ = scene.game_stepper._arrow_rects()
    click(app, left.center)
    assert scene.chosen == len(wizard_matches) - 2
    assert scene.geometry["rounds"].points != newest
    click(app, scene.player_cycler.rect.move(-4, 0).midright)
    assert scene.player != "Ann"


@pytest.fixture
def chart_titles(monkeypatch) -> list[str]:
    """The titles of the line charts the statistics screen draws from now on."""
    import game.ui.scenes.stats_scene as stats_scene
    from game.ui.widgets import charts

    titles: list[str] = []
    draw = charts.draw_line_chart

    def recording(surface, rect, title, *args, **kwargs):
        titles.append(title)
        return draw(surface, rect, title, *args, **kwargs)

    monkeypatch.setattr(stats_scene, "draw_line_chart", recording)
    return titles


def test_a_history_of_one_game_with_undo_shows_it_and_replays_it(tmp_path, wizard_matches, chart_titles):
    from game.ui.scenes.replay_scene import ReplayScene

    write(tmp_path / "histories", "wizard", [{**recorded(wizard_matches[0]), "undo_used": True}])
    app = make_app(tmp_path)
    scene = open_from_start(app)
    assert scene.body_message() is None and scene.player == "Ann"
    assert scene.stats is not None
    assert (t("stats.undo"), "1") in scene.number_rows(scene.stats)
    assert (t("stats.games"), "0") in scene.number_rows(scene.stats)
    assert "rounds" in scene.geometry and any("undo used, not counted" in title for title in chart_titles)
    assert scene.replay_button.enabled
    click(app, scene.replay_button.rect.center)
    replay = app.top_scene()
    assert isinstance(replay, ReplayScene) and replay.timeline.record.get("undo_used") is True


def test_the_games_set_apart_are_shown_only_under_players_who_sat_in_them(tmp_path, wizard_matches, chart_titles):
    write(tmp_path / "histories", "wizard", undo_history(wizard_matches))
    app = make_app(tmp_path)
    scene = open_from_start(app)
    undo, unfinished = t("stats.undo"), t("stats.unfinished")
    apart = {}
    for name in scene.player_cycler.choices:
        scene.set_player(name)
        assert scene.stats is not None
        apart[name] = {label: value for label, value in scene.number_rows(scene.stats) if label in (undo, unfinished)}
    assert apart == {"Ann": {undo: "1", unfinished: "1"}, "Ben": {}, "Cy": {}, "Dan": {undo: "1"}, "Eve": {undo: "1"}}
    # Ann's newest game is the undo game, charted and marked; the one before it is not marked.
    scene.set_player("Ann")
    step(app)
    score_titles = [title for title in chart_titles if title.startswith("Score per")]
    assert score_titles[-1] == "Score per round: game 2 (undo used, not counted)"
    left, _, _ = scene.game_stepper._arrow_rects()
    click(app, left.center)
    score_titles = [title for title in chart_titles if title.startswith("Score per")]
    assert scene.chosen == 0 and score_titles[-1] == "Score per round: game 1"


@pytest.mark.parametrize("language", ["en", "nl", "tr"])
def test_the_bid_hit_chart_of_one_game_reads_right_in_every_language(tmp_path, wizard_matches, chart_titles, language):
    write(tmp_path / "histories", "wizard", wizard_matches[:1])
    app = App(data_dir=str(tmp_path), size=(800, 600), settings=Settings(animation_speed="instant", language=language))
    try:
        open_from_start(app)
        recent = chart_titles[-1]
        assert recent == text_in(language, "stats.chart.hit_rate.one")
        assert not any(character.isdigit() for character in recent), f"{recent!r} counts the one game"
    finally:
        set_language("en")


def test_an_empty_history_shows_a_friendly_message(tmp_path):
    app = make_app(tmp_path)
    scene = open_from_start(app)
    message = scene.body_message()
    assert message is not None
    text, warning = message
    assert not warning and "No finished games yet" in text
    assert scene.geometry == {} and not scene.replay_button.enabled


def test_a_broken_history_file_shows_a_clear_message(tmp_path, wizard_matches):
    # Damage on the first line, a whole game after it: the app's repair of a
    # torn last line leaves it alone, so the reader meets it, names it and goes on.
    path = write(tmp_path / "histories", "wizard", wizard_matches[:1])
    path.write_bytes(b"\xff\xfe not a history\n" + path.read_bytes())
    app = make_app(tmp_path)
    scene = open_from_start(app)
    assert scene.body_message() is None and scene.stats is not None and scene.stats.games == 1
    problem = scene.problem_message()
    assert problem is not None and "wizard.jsonl" in problem and "line 1" in problem
    # Nothing but damage (the start-up repair sets the last damaged line aside): the problem is all there is.
    path.write_bytes(b"\xff\xfe not a history\n" * 2)
    scene = open_from_start(make_app(tmp_path))
    message = scene.body_message()
    assert message is not None
    text, warning = message
    assert warning and "wizard.jsonl" in text and "line 1" in text


def test_a_partly_broken_history_shows_its_games_and_a_warning(tmp_path, wizard_matches):
    path = write(tmp_path / "histories", "wizard", wizard_matches[:3])
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:2] + [b"a line edited by hand\n"] + lines[2:]))
    app = make_app(tmp_path)
    scene = open_from_start(app)
    assert scene.body_message() is None
    problem = scene.problem_message()
    assert problem is not None and "wizard.jsonl" in problem
    assert scene.stats is not None and scene.stats.games == 3
    assert scene.problem_rect.height > 0 and not scene.problem_rect.colliderect(scene.charts_panel)


def test_reading_without_cards_gives_the_same_games_but_the_hands_and_plays(tmp_path, wizard_matches, bidwhist_matches):
    # The statistics read the histories without the hands and plays; everything
    # else of every game must be what a full read gives, a deal with no tricks
    # (as a redeal has) included.
    no_tricks = recorded(bidwhist_matches[0])
    no_tricks["deals"][0]["tricks"] = []
    for game, matches in (("wizard", list(wizard_matches)), ("bidwhist", [*bidwhist_matches, no_tricks])):
        path = write(tmp_path, game, matches)
        full = [placed.record for placed in history_reader.read_history_from(path)]
        light = [placed.record for placed in history_reader.read_history_from(path, without_cards=True)]
        assert len(full) == len(light) == len(matches)
        assert sum(len(deal["tricks"]) for record in full for deal in record["deals"]) > 0
        assert all(deal["hands"] for record in full for deal in record["deals"])
        for record in full:
            for deal in record["deals"]:
                deal["tricks"] = []
                deal["hands"] = []
        assert light == full
    # A line written by hand with spaces is read whole, plays and all.
    spaced = tmp_path / "spaced.jsonl"
    spaced.write_text(json.dumps(recorded(wizard_matches[0]), separators=(", ", ": ")) + "\n", encoding="utf-8")
    (record,) = [placed.record for placed in history_reader.read_history_from(spaced, without_cards=True)]
    assert record["deals"][0]["tricks"] and record["deals"][0]["hands"]
