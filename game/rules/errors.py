"""Exceptions the rules raise, with messages a player understands."""

from __future__ import annotations

import reprlib
from typing import Any

from game.rules.problems import Problem, located


class RulesError(Exception):
    """Base class of every error raised by ``game.rules``."""


# ``IllegalActionError`` carries a message ``code`` and its ``params`` so that a
# translated interface can word the reason in the player's language; ``str()``
# gives the English sentence. ``RuleConfigError`` does the same with a
# ``game.rules.problems.Problem``: a code and its parameters, which ``str()``
# words in English. Nothing here
# imports the interface.
class IllegalActionError(RulesError, ValueError):
    """An action that the rules do not allow in this state."""

    def __init__(self, message: str, code: str = "illegal", **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params


class ParseError(RulesError, ValueError):
    """A card or action string that does not name a card or action."""


class RuleConfigError(RulesError, ValueError):
    """A house-rule value, key or combination that is not allowed.

    ``source`` names where the value came from (a YAML file, ``--set``, the
    settings screen), ``key`` the house-rule key, ``reason`` what is allowed
    in English and ``problem`` the same as a code and parameters (None when
    the reason was given only as English text).
    """

    def __init__(self, source: str, key: str, reason: str | Problem) -> None:
        super().__init__(f"{source}: {key}: {reason}")
        self.source = source
        self.key = key
        self.problem = reason if isinstance(reason, Problem) else None
        self.reason = str(reason)

    def located_problem(self) -> Problem | None:
        """The whole message (source, key and reason) as a problem, or None without a coded reason."""
        return located(self.source, self.key, self.problem) if self.problem is not None else None


class DealError(RulesError, ValueError):
    """Explicit cards given for a deal that are not a real deal of the game."""


def short_repr(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for messages: a bad value
    read from a file may be huge or deeply nested, and a message quotes only
    its start (``reprlib`` never builds the whole text, nor recurses deeply).
    A date (YAML reads ``2024-01-01`` as one) is shown as it was written, not
    as Python's ``datetime.date(2024, 1, 1)``."""
    # Known by its module rather than imported: the rules import no clock module.
    if type(value).__module__ == "datetime" and hasattr(value, "isoformat"):
        return str(value.isoformat())
    try:
        text = _SHORT.repr(value)
    except ValueError:  # an integer too long to convert to text at all
        text = f"<{type(value).__name__} too long to show>"
    return text if len(text) <= limit else text[:limit] + "..."


_SHORT = reprlib.Repr()
_SHORT.maxlevel = 3
_SHORT.maxstring = _SHORT.maxother = _SHORT.maxlong = 80
