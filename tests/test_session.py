"""The session seam (issue 26, item 2): the table reaches the game only through a ``TableSession``.

``LocalSession`` numbers the events, filters them for a viewer (a seat or
``PUBLIC_SEAT``, the one viewer notion of events and views), lets a reader catch
up from the last number it saw, raises the engine's coded refusals, takes moves
back, thinks for its computer players off the frame and paces them as the table
says. Nothing in ``game/ui`` imports the match or the hand-history modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from game.session.match import Match, Seat
from game.rules import PUBLIC_SEAT, IllegalActionError, Phase, make_rules
from game.rules.events import UNKNOWN_CARD, BidMade, CardPlayed, Dealt
from game.session.ai_worker import InlineAiRunner
from game.session.local import LocalSession
from game.session.session import ComputerStep

ROOT = Path(__file__).resolve().parents[1]
# The match and the hand history live below the session, wherever the layout puts them.
FORBIDDEN = (
    "game.match",
    "game.session.match",
    "game.history",
    "game.persistence.history_codec",
    "game.persistence.history_files",
    "game.persistence.history_reader",
    "game.persistence.history_replay",
)


def _imports(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
            names += [f"{node.module}.{alias.name}" for alias in node.names]  # from game.session import match
    return names


def test_nothing_in_the_ui_imports_the_match_or_the_hand_history():
    found = []
    for path in sorted((ROOT / "game" / "ui").rglob("*.py")):
        for name in _imports(ast.parse(path.read_text("utf-8"))):
            if any(name == banned or name.startswith(banned + ".") for banned in FORBIDDEN):
                found.append(f"{path.relative_to(ROOT)}: {name}")
    assert found == []


def test_the_table_scenes_leave_the_saves_to_the_session():
    for path in sorted((ROOT / "game" / "ui" / "table").rglob("*.py")):
        names = _imports(ast.parse(path.read_text("utf-8")))
        assert not [n for n in names if n.endswith("savegame")], path


def session(controllers: list[str], game: str = "bidwhist", seed: int = 3, **overrides) -> LocalSession:
    rules = make_rules(game, overrides, players=len(controllers))
    seats = [Seat(f"P{i}", c) for i, c in enumerate(controllers)]
    return LocalSession(Match(rules, seats, seed), ai_runner=InlineAiRunner())


HOT_SEAT = ["human", "human", "human", "human"]


def test_events_are_numbered_and_a_reader_catches_up_from_the_last_number_it_saw():
    game = session(HOT_SEAT)
    dealt = game.events_since(0, PUBLIC_SEAT)
    assert [e.number for e in dealt] == list(range(1, len(dealt) + 1))
    assert game.last_number == dealt[-1].number
    seat = game.current_player
    last = game.submit(seat, game.view(seat).game.legal_actions[0])
    fresh = game.events_since(dealt[-1].number, PUBLIC_SEAT)
    assert fresh and fresh[0].number == dealt[-1].number + 1 and fresh[-1].number == last
    assert isinstance(fresh[0].event, BidMade)
    assert game.events_since(last, PUBLIC_SEAT) == []


def test_each_viewer_gets_only_its_own_cards_and_the_public_none():
    game = session(HOT_SEAT)
    deal = {
        viewer: next(e.event for e in game.events_since(0, viewer) if isinstance(e.event, Dealt))
        for viewer in (PUBLIC_SEAT, 0, 1, 2, 3)
    }
    for seat in range(4):
        seen = deal[seat]
        assert UNKNOWN_CARD not in seen.hands[seat]
        assert all(set(seen.hands[other]) == {UNKNOWN_CARD} for other in range(4) if other != seat)
        assert all(card == UNKNOWN_CARD for card, owner in seen.sequence if owner != seat)
        assert set(game.view(seat).game.hand) == set(seen.hands[seat])
    public = deal[PUBLIC_SEAT]
    assert all(card == UNKNOWN_CARD for card, _ in public.sequence)  # the kitty's too
    assert all(set(hand) == {UNKNOWN_CARD} for hand in public.hands) and set(public.kitty) == {UNKNOWN_CARD}


def test_a_refusal_is_raised_with_the_engines_code_and_changes_nothing():
    game = session(HOT_SEAT)
    before = (game.position, game.last_number)
    seat = game.current_player
    action = game.view(seat).game.legal_actions[0]
    with pytest.raises(IllegalActionError) as refused:
        game.submit((seat + 1) % 4, action)
    assert refused.value.code == "not_your_turn"
    assert (game.position, game.last_number) == before
    assert game.refusal(action) is None


def test_undo_takes_back_a_move_and_new_events_are_numbered_past_every_number_given():
    game = session(["human", "ai:random", "ai:random", "ai:random"], seed=5)
    while game.current_player != 0 or game.phase != Phase.BID:
        assert game.advance_computers(True) is not ComputerStep.IDLE
    assert not game.can_undo(0)
    kept = game.last_number
    view_before = game.view(0).game
    game.submit(0, view_before.legal_actions[0])
    highest = game.last_number
    assert highest > kept and game.can_undo(0)
    epoch = game.epoch
    assert game.undo(0)
    assert game.epoch == epoch + 1 and game.last_number == kept and game.view(0).game == view_before
    assert [e.number for e in game.events_since(0, 0)] == list(range(1, kept + 1))
    game.submit(0, view_before.legal_actions[-1])
    assert game.events_since(kept, 0)[0].number == highest + 1


def test_computers_think_first_and_play_only_when_the_table_lets_them():
    game = session(["ai:random", "ai:random", "ai:random", "ai:random"], game="wizard", seed=2, rounds=2)
    position = game.position
    assert game.advance_computers(True) is ComputerStep.STARTED
    assert game.position == position
    assert game.advance_computers(False) is ComputerStep.THINKING and game.position == position
    assert game.advance_computers(True) is ComputerStep.PLAYED and game.position != position
    assert game.advance_computers(True) is ComputerStep.STARTED  # the next seat's turn


def test_a_hint_is_computed_by_the_sessions_runner_for_the_position():
    game = session(["human", "ai:random", "ai:random"], game="wizard", seed=4, rounds=2)
    while game.current_player != 0:
        game.advance_computers(True)

    class Answer:
        action = game.view(0).game.legal_actions[0]
        reason_key = ""
        params: dict = {}

    asked = []
    game._hint_for = lambda game_def, view, rng, budget=None: asked.append(view.seat) or Answer()  # type: ignore
    job = game.request_hint(0, budget=None)
    assert job.finished and job.key == game.position and job.result is not None and asked == [0]


def test_the_public_stream_of_a_whole_hand_shows_no_card_but_those_played():
    game = session(["ai:random"] * 4, seed=7)
    while game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        game.advance_computers(True)
    played = {e.event.card for e in game.events_since(0, PUBLIC_SEAT) if isinstance(e.event, CardPlayed)}
    shown = {
        card for e in game.events_since(0, PUBLIC_SEAT) if isinstance(e.event, Dealt) for card, _ in e.event.sequence
    }
    assert shown == {UNKNOWN_CARD} and UNKNOWN_CARD not in played and len(played) == 48


def test_the_score_history_is_in_the_view_and_grows_with_the_hands():
    game = session(["ai:random"] * 4, seed=7)
    assert [deal.scored for deal in game.view(PUBLIC_SEAT).scores.deals] == [False]
    while game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        game.advance_computers(True)
    scores = game.view(0).scores
    assert scores == game.view(PUBLIC_SEAT).scores
    assert scores.game == "bidwhist" and scores.deals[0].scored and len(scores.deals[0].scores) == 2


def test_the_game_is_saved_once_a_table_is_open_on_it_and_after_every_change():
    class Saver:
        saved = False

        def __init__(self):
            self.saves = []

        def save(self, match):
            self.saves.append(len(match.actions))

    saver = Saver()
    game = LocalSession(
        Match(make_rules("wizard", {"rounds": 2}, players=3), [Seat("A"), Seat("B"), Seat("C")], 4),
        ai_runner=InlineAiRunner(),
        autosaver=saver,  # type: ignore[arg-type]
    )
    assert saver.saves == []  # a save being continued is not written again before a table could open on it
    game.open()
    seat = game.current_player
    game.submit(seat, game.view(seat).game.legal_actions[0])
    assert saver.saves == [0, 1]
