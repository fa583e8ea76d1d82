"""The problems the persistence layer raises (hand histories, replays, saves, statistics), in English."""

from __future__ import annotations

from game.rules.problems import Problem, register_problems

# Every problem this layer raises (a hand history, recorded game, saved game
# or statistics that cannot be read), with its English template; the window
# words each from the catalogue key "problem.<code>" (``game.rules.problems``).
PROBLEM_TEXTS: dict[str, str] = {
    # Where a problem is: a file and the line in it (``located_line``).
    "located_line": "{source}: line {line}: {reason}",
    # A hand-history file (``game.persistence.history_reader``) that cannot be read, line by line.
    "history.unreadable": "cannot read: {reason}",
    "history.not_utf8": "not UTF-8 text",
    "history.incomplete": "the last game is incomplete (its write was cut short; it is set aside the next time "
    "a game is saved)",
    "history.not_json": "not valid JSON ({detail})",
    "history.not_json.no_detail": "not valid JSON",
    "history.too_deep": "not a hand history (nested too deeply to read)",
    "history.long_number": "not a hand history (a number too long to read)",
    "history.too_long": "longer than {limit} MB, so no game (it was read past, not kept)",
    "history.duplicate_key": "the key {entry} is given twice in one object (which one is meant cannot be told)",
    "history.foreign": "not a Trick Table hand history",
    "history.version": "history version {version} is not supported (this program reads version {supported})",
    "history.bad_name": "the name of player {seat} holds a character no name may hold ({character})",
    # A recorded game the replay viewer cannot open (``game.persistence.replay_timeline``).
    "replay.game_number": "--game: game numbers start at 1, not {number}",
    "replay.no_games": "{source} holds no games",
    "replay.no_such_game": "{source} has no game {number} (it holds {games})",
    "replay.rules_refused": "the game cannot be set up: {reason}",
    "replay.cannot_set_up": "the game cannot be set up: {detail}",
    "replay.cannot_set_up.no_detail": "the game cannot be set up",
    "replay.no_deals": "the game has no readable deals",
    "replay.over_early": "deal {deal}: the game was already over",
    "replay.deal_unreadable": "deal {deal}: unreadable ({detail})",
    "replay.deal_unreadable.no_detail": "deal {deal}: unreadable",
    "replay.move_illegal": "deal {deal}: the engine refuses a recorded move ({reason})",
    "replay.move_refused": "deal {deal}: the engine refuses a recorded move ({detail})",
    "replay.move_refused.no_detail": "deal {deal}: the engine refuses a recorded move",
    # A saved game that cannot be continued (``game.persistence.savegame``).
    "save.system_error": "{reason}",
    "save.too_big": "the file is larger than any save ({limit} bytes)",
    "save.not_utf8": "the file is not UTF-8 text",
    "save.too_deep": "the file is nested too deeply to read",
    "save.long_number": "the file holds a number too long to read",
    "save.not_json": "the file is not valid JSON ({detail} at character {position})",
    "save.not_json.no_detail": "the file is not valid JSON (at character {position})",
    "save.foreign": "the file is not a Trick Table save",
    "save.no_version": "the save has no valid version number ({value})",
    "save.newer": "it was made by a newer Trick Table (save version {version}; this one reads versions "
    "{oldest} to {newest})",
    "save.older": "save version {version} is older than any this program reads ({oldest} to {newest})",
    "save.bad_time": "saved_at must be a date and time, not {value}",
    "save.move_illegal": "{reason}",
    "save.damaged": "{detail}",
    "save.damaged.no_detail": "the saved game is damaged",
    "save.not_regular": "it is not an ordinary file",
    "save.cannot_continue": "the table could not go on with it; the log has the details",
    # Games the statistics (``game.persistence.stats``) could not count ({detail}: Python's own words).
    "stats.game": "{source}: game {number}: {reason}",
    "stats.not_summarized": "the game cannot be summarized: {detail}",
    "stats.not_summarized.no_detail": "the game cannot be summarized",
    "stats.not_counted": "{source}: game {number}: cannot be counted ({detail})",
    "stats.not_counted.no_detail": "{source}: game {number}: cannot be counted",
    "stats.more_damage": "{source}: {count} more damaged lines skipped",
}

register_problems(PROBLEM_TEXTS)


def located_line(source: str, line: int, reason: Problem) -> Problem:
    """``reason`` with the file and line it was found on: "source: line 12: reason"."""
    return Problem("located_line", {"source": source, "line": line, "reason": reason})
