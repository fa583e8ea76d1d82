"""What a seat's name may be: the one place that says so."""

from __future__ import annotations

# A name is shown on the table, written to the save, the last setup and the
# hand history, and read back from all three. Every one of those steps must
# work for every name the program accepts, so a name is cleaned wherever it
# comes in (typed on the start screen, read from a save or a last setup, and
# again by ``Match`` itself) with ``clean_name``:
#
# * control characters (NUL, tab, escape...), invisible format characters
#   (zero-width, byte-order and direction marks) and lone surrogates (half
#   of a UTF-16 pair, which cannot be written as UTF-8) are removed: a font
#   cannot draw NUL, and a name of nothing but zero-width marks has no width
#   to draw at all;
# * any run of white space (new lines included) becomes one space, and the
#   ends are trimmed;
# * it is cut to ``LONGEST_NAME`` characters, within what every reader
#   accepts (the last setup's and the hand history's, ``game.persistence.history_schema``,
#   which still reads the longer names older versions could write), so a
#   game is never written in a form the program's own reader refuses.

import unicodedata
from typing import Any

# Longer than any name the start screen lets a player type (14), as long as
# the last setup has ever held, and well within the hand history reader's 200.
LONGEST_NAME = 64

# Unicode categories no name keeps: control, format (invisible) and surrogate.
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})


def _kept(char: str) -> bool:
    return unicodedata.category(char) not in _DROPPED_CATEGORIES


def clean_name(value: Any, fallback: str = "") -> str:
    """``value`` as a name every part of the program can write, read and draw
    (see the module's notes); ``fallback`` when nothing usable is left (or it is
    not text at all)."""
    if not isinstance(value, str):
        return fallback
    spaced = "".join(" " if char.isspace() else char for char in value if char.isspace() or _kept(char))
    cleaned = " ".join(spaced.split())[:LONGEST_NAME].rstrip()
    return cleaned or fallback


def unkept_character(value: str) -> str | None:
    """The first character of ``value`` that no name keeps, as ``U+XXXX`` (None if there is none)."""
    for char in value:
        if not _kept(char):
            return f"U+{ord(char):04X}"
    return None


# ``name_fault`` and ``unkept_character`` say what a stored name holds that
# the program never writes: the hand history's readers refuse such a line,
# naming it (a record is evidence of a game and is never rewritten). The
# readers of the save and the last setup clean instead, so one odd name never
# costs a saved game or a setup, and the start screen tells the player that a
# name was changed (as it does when typed characters are left out).
def name_fault(value: Any) -> str | None:
    """Why the characters of ``value`` are not a name this program writes, in English
    (None if they are); its length each reader limits itself.

    Spaces are not a fault (an older version kept a typed double space); a tab
    or new line is a control character."""
    if not isinstance(value, str):
        return "not text"
    for char in value:
        if not _kept(char):
            kind = "half of a surrogate pair" if unicodedata.category(char) == "Cs" else "a control character"
            return f"holds {kind} (U+{ord(char):04X})"
    return None
