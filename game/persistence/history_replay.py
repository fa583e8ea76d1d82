"""Replaying a recorded game through the engine and listing where the engine disagrees with it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.persistence.history_codec import HistoryRecorder, deal_shape
from game.persistence.history_reader import read_history
from game.persistence.history_schema import check_record_shape, short_repr
from game.rules import GameDef, IllegalActionError, ParseError, Phase, RuleConfigError, get_game, new_game
from game.rules.actions import (
    NEXT_DEAL,
    Action,
    play,
)
from game.rules.cards import parse_card
from game.rules.events import (
    GameEvent,
)
from game.rules.house_rules import rules_from_dict

# ---------------------------------------------------------------------- replay
# How much of each value a disagreement shows.
DIFFERENCE_CHARS = 400


@dataclass
class Disagreement:
    where: str
    recorded: Any
    engine: Any

    def __str__(self) -> str:
        # The values are the program's own (the engine's and a record it
        # could read), so more of them is shown than of a bad value.
        return (
            f"{self.where}: recorded {short_repr(self.recorded, DIFFERENCE_CHARS)}, "
            f"engine says {short_repr(self.engine, DIFFERENCE_CHARS)}"
        )


def recorded_actions(game: GameDef, deal: dict[str, Any]) -> list[Action]:
    """The decisions of one recorded deal, in the order the engine takes them."""
    actions = deal_shape(game).decisions(deal)
    for trick in deal["tricks"]:
        actions.extend(play(parse_card(entry["card"])) for entry in trick["plays"])
    return actions


def replay_start(record: dict[str, Any]) -> tuple[GameDef, Any, Any, list[GameEvent]]:
    """The engine at the start of a recorded game: ``(game, rules, state, events)``.

    The deals come from the seed when there is one, else from the recorded
    hands (and the recorded first dealer). ``check_game`` and the replay
    viewer both start here, then apply ``NEXT_DEAL`` and ``recorded_actions``
    deal by deal. A record that cannot start a game raises ``KeyError``,
    ``TypeError``, ``ValueError`` or ``RuleConfigError``.
    """
    # Checked first, so a value of the wrong type, or a field or house rule a
    # newer program wrote, is refused in words instead of misread.
    check_record_shape(record)
    game = get_game(record["game"])
    rules = rules_from_dict(game.name, record["rules"])
    players = len(record["players"])
    seed = record.get("seed")
    seeded = isinstance(seed, int)
    fixed = None if seeded else _fixed_deals(game, record["deals"])
    recorded_dealer = record["first_dealer"]["dealer"]
    state, events = new_game(
        rules,
        players,
        seed if isinstance(seed, int) else 0,
        first_dealer=None if seeded else recorded_dealer,
        fixed_deals=fixed,
    )
    return game, rules, state, events


def check_game(record: dict[str, Any]) -> list[Disagreement]:
    """Replay a recorded game through the engine; every disagreement found.

    The deal is taken from the seed when there is one (and the recorded hands
    must match it), else from the recorded hands, which the engine checks
    are a real deal of the game. Bids, contract, discards and plays are
    re-applied and must be legal; trick winners, reneges, books, scores,
    completion and winners must match.
    """
    problems: list[Disagreement] = []
    try:
        game, rules, state, events = replay_start(record)
    except (KeyError, TypeError, ValueError, RuleConfigError) as exc:
        return [Disagreement("game header", "readable record", f"unreadable: {exc}")]
    seed = record.get("seed")
    seeded = isinstance(seed, int)
    recorder = HistoryRecorder(game, seed, rules.to_dict(), record["players"])
    recorder.feed(events)
    if not seeded:
        # Without a seed the draw cannot be reproduced; only the dealer it chose is used.
        recorder.record["first_dealer"]["draw"] = record["first_dealer"].get("draw", [])
    deals = record.get("deals")
    if not isinstance(deals, list) or not all(isinstance(deal, dict) for deal in deals):
        return [Disagreement("deals", "a list of deal objects", f"unreadable: {deals!r:.60}")]
    for index, deal in enumerate(deals):
        where = f"deal {deal.get('number', index + 1)}"
        if index > 0:
            if state.phase != Phase.HAND_OVER:
                problems.append(Disagreement(where, "another deal", "the game was already over"))
                break
            events = []
            state.apply_in_place(NEXT_DEAL, events)
            recorder.feed(events)
        try:
            for action in recorded_actions(game, deal):
                events = []
                state.apply_in_place(action, events)
                recorder.feed(events)
        except (KeyError, TypeError) as exc:
            problems.append(Disagreement(where, "a readable deal", f"unreadable: missing or wrong field {exc}"))
            break
        except (IllegalActionError, ParseError, ValueError) as exc:
            problems.append(Disagreement(where, "legal play", f"illegal: {exc}"))
            break
    problems.extend(_compare(record, recorder.record))
    return problems


def _fixed_deals(game: GameDef, deals: list[dict[str, Any]]) -> dict[int, Any]:
    """The recorded deals as the engine's ``fixed_deals``, for a game without a seed.

    Only the cards are read here; ``new_game`` asks the registry's
    ``check_fixed_deal`` whether they are a real deal of the game (counts,
    cards from the deck, none too often) and raises ``DealError`` otherwise.
    """
    shape = deal_shape(game)
    return {deal["number"]: shape.fixed_deal(deal) for deal in deals}


# Deal fields this program writes that earlier versions of it did not (the
# seat that named trump after a Wizard turn-up, a Boston): a record without
# them is an older one, still read and checked on everything else.
LATER_DEAL_FIELDS = frozenset({"trump_chosen_by", "boston"})


def _compare(recorded: dict[str, Any], replayed: dict[str, Any]) -> list[Disagreement]:
    """Field-by-field differences between the record and the engine's replay."""
    problems = []
    for key in ("first_dealer", "complete", "final_scores", "winners"):
        if recorded.get(key) != replayed.get(key):
            problems.append(Disagreement(key, recorded.get(key), replayed.get(key)))
    mine, theirs = recorded.get("deals", []), replayed["deals"]
    if len(mine) != len(theirs):
        problems.append(Disagreement("number of deals", len(mine), len(theirs)))
    for deal, replay in zip(mine, theirs):
        for key in replay:
            if key in LATER_DEAL_FIELDS and key not in deal:
                continue  # written before the field was: nothing to compare
            if deal.get(key) != replay[key]:
                problems.append(Disagreement(f"deal {replay['number']}: {key}", deal.get(key), replay[key]))
    return problems


def check_file(path: str | Path) -> list[tuple[int, list[Disagreement]]]:
    """Check every game of a file: ``(game index from 1, disagreements)`` for bad games."""
    bad = []
    for number, record in enumerate(read_history(path), 1):
        problems = check_game(record)
        if problems:
            bad.append((number, problems))
    return bad
