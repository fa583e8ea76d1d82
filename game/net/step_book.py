"""Whole steps from the server's ``step`` frames, which carry only what changed.

A step that names a ``base`` builds on the viewer's step that brought it to that
event number: its view holds only the fields that changed, and the score history
and the finished hand come only when they changed. ``StepBook`` keeps each
viewer's last whole step and gives every frame back whole.
"""

from __future__ import annotations

from typing import Any


class StepOutOfStep(ValueError):
    """A step that builds on a step this client does not have (it must resume afresh)."""


class StepBook:
    """The last whole step of each (table, viewer) this client was sent."""

    def __init__(self) -> None:
        self._last: dict[tuple[Any, Any], dict[str, Any]] = {}

    def whole(self, frame: dict[str, Any]) -> dict[str, Any]:
        """``frame`` (a step) as the whole step it stands for; ``StepOutOfStep`` when it builds on
        a step this book does not have, ``ValueError`` when it is not a step at all."""
        key = (frame.get("table"), frame.get("viewer"))
        base = frame.get("base")
        view = frame.get("view")
        state = frame.get("state")
        if not isinstance(view, dict) or not isinstance(state, dict):
            raise ValueError("a step without its view or state")
        if base is None:
            whole = frame
        else:
            last = self._last.get(key)
            if last is None or last["state"].get("last") != base:
                raise StepOutOfStep(f"a step for viewer {key[1]} builds on event {base}, which this client lacks")
            whole = {**frame, "view": {**last["view"], **view}}
            for part in ("scores", "finished_hand"):
                if part not in frame:
                    whole[part] = last.get(part)
        self._last[key] = whole
        return whole
