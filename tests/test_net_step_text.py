"""The server writes each step as text with less work (``HostedTable.step_text``): the same
JSON as the step frame written whole, at every position of whole games, for every viewer."""

from __future__ import annotations

import json
import random

import pytest

from game.net.step_book import StepBook, StepOutOfStep
from game.net.table_host import HostedTable, SentStep, TableOptions
from game.net.wire import compact_json, encode_text, encode_value
from game.persistence.history_codec import score_history
from game.rules import PUBLIC_SEAT, Phase
from game.rules.house_rules import make_rules
from game.session.match import Match


def _compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def _started_table(game: str, values: dict[str, object], seed: int) -> tuple[HostedTable, Match]:
    """A table of four seated players, its game started on ``seed``."""
    seats = [{"kind": "host", "name": "Ann"}] + [{"kind": "open"}] * 3
    table, _, _ = HostedTable.create(make_rules(game, values), seats, TableOptions("t"))
    table.seed = seed
    for name in ("Bob", "Cy", "Di"):
        table.take_seat(name)
    table.start()
    assert table.match is not None
    return table, table.match


@pytest.mark.parametrize(
    ("game", "values"),
    [
        ("bidwhist", {}),
        ("wizard", {"rounds": 3, "bidding": "hidden"}),  # hidden bids: the seats' views differ
    ],
)
def test_step_text_is_the_step_frame_written_whole_at_every_position(game: str, values: dict[str, object]) -> None:
    table, match = _started_table(game, values, seed=11)
    rng = random.Random(2)
    sent = dict.fromkeys([0, 1, 2, 3, PUBLIC_SEAT], 0)
    previous: dict[int, SentStep | None] = dict.fromkeys(sent)
    book = StepBook()
    positions = hands_over = 0
    while True:
        for viewer, after in sent.items():
            whole_text, _ = table.step_text(viewer, after)
            assert whole_text == _compact(table.step_for(viewer, after))
            assert encode_text(match.view(viewer)) == _compact(encode_value(match.view(viewer)))
            # Each step after the first carries only what changed, and the client's book makes it whole.
            expected = _compact(table.step_for(viewer, after, previous[viewer], re=7))
            text, previous[viewer] = table.step_text(viewer, after, previous[viewer], re=7)
            assert text == expected
            frame = json.loads(text)
            assert frame["re"] == 7 and (frame["base"] is None) == (positions == 0)
            whole = json.loads(whole_text)
            assert book.whole(frame) == {**whole, "re": 7, "base": frame["base"]}
            sent[viewer] = table.last_number
        # The score history is written again only when it changes: never out of date.
        assert table.step_for(0, 0)["scores"] == encode_value(score_history(match.history()))
        positions += 1
        if match.is_over:
            break
        if match.phase == Phase.HAND_OVER:
            hands_over += 1
            match.next_deal()
        else:
            seat = match.current_player
            table.act(seat, rng.choice(match.view(seat).legal_actions), len(match.actions))
    assert hands_over >= 1 and positions > 30


@pytest.mark.parametrize(
    ("game", "values"),
    [("bidwhist", {"renege": "penalized"}), ("wizard", {"rounds": 3, "bidding": "hidden"})],
)
def test_viewers_whose_last_steps_are_at_different_positions_each_get_their_own_changes(
    game: str, values: dict[str, object]
) -> None:
    """The shared fields' changes are written once per earlier position: a viewer that skips
    positions (a slow reader, one back from away) still gets exactly the step written whole."""
    table, match = _started_table(game, values, seed=5)
    rng = random.Random(3)
    sent = dict.fromkeys([0, 1, 2, 3, PUBLIC_SEAT], 0)
    previous: dict[int, SentStep | None] = dict.fromkeys(sent)
    every = {0: 1, 1: 2, 2: 3, 3: 1, PUBLIC_SEAT: 4}  # positions between a viewer's steps
    for position in range(160):
        due = [viewer for viewer in sent if position % every[viewer] == 0]
        table.prepare_views(due)
        for viewer in due:
            expected = _compact(table.step_for(viewer, sent[viewer], previous[viewer]))
            text, previous[viewer] = table.step_text(viewer, sent[viewer], previous[viewer])
            assert text == expected, (viewer, position)
            sent[viewer] = table.last_number
        if match.is_over:
            break
        if match.phase == Phase.HAND_OVER:
            match.next_deal()
        else:
            seat = match.current_player
            table.act(seat, rng.choice(match.view(seat).legal_actions), len(match.actions))
    assert position >= 30


def test_a_step_that_builds_on_a_step_the_client_lacks_is_refused() -> None:
    book = StepBook()
    whole = {"type": "step", "table": "t", "viewer": 0, "base": None, "state": {"last": 4}, "view": {"a": 1}}
    whole.update(scores={"s": 1}, finished_hand=None)
    book.whole(whole)
    change = {"type": "step", "table": "t", "viewer": 0, "base": 4, "state": {"last": 6}, "view": {"b": 2}}
    merged = book.whole(change)
    assert merged["view"] == {"a": 1, "b": 2} and merged["scores"] == {"s": 1} and merged["finished_hand"] is None
    with pytest.raises(StepOutOfStep):
        book.whole({**change, "base": 5, "state": {"last": 7}})  # the client has event 6's step, not event 5's
    with pytest.raises(StepOutOfStep):
        book.whole({**change, "viewer": 1})  # nothing yet for that viewer
    with pytest.raises(ValueError):
        book.whole({"type": "step", "table": "t", "viewer": 0, "base": None, "view": []})


def test_compact_json_is_json_dumps_with_compact_separators() -> None:
    values = [{"a": [1, None, True, 'é"x\n'], "b": {"c": -1}}, "Zoë", 3, [], {}, None, {"x": 1.5}]
    assert [compact_json(value) for value in values] == [_compact(value) for value in values]
    with pytest.raises(TypeError):
        compact_json({"a": object()})
