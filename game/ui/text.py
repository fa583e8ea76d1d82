"""Look up player-facing text by key, in the chosen language.

``t("bid.pass")`` returns the English (or, later, Dutch or Turkish) text,
formatted with keyword parameters. The few words that many screens build
sentences from (a suit, a bid such as "4 uptown", a team's names) are worded
here once, from the catalog.

Rules errors carry a code and plain parameters (a suit as an int, a bid as
books and mode), never English words, so ``explain(error)`` words them in the
player's language: the parameters that are game values are turned into
words first, then the catalog's ``error.<code>`` sentence is filled in.
"""

from __future__ import annotations

from functools import reduce
from typing import Any, Callable, Mapping, Sequence

from game.rules import IllegalActionError
from game.ui.strings import en_panels, en_records, en_table

_CATALOGS: dict[str, dict[str, str]] = {
    "en": {**en_table.STRINGS, **en_panels.STRINGS, **en_records.STRINGS},
}
_language = "en"

# The catalog keys of the suits inside a sentence ("You must follow hearts"), by suit number.
SUIT_KEYS = ("table.suit.spades", "table.suit.hearts", "table.suit.diamonds", "table.suit.clubs")


def set_language(language: str) -> None:
    """Switch language; unknown languages fall back to English key by key."""
    global _language
    _language = language


# The parameter that decides between singular and plural, in order of preference.
PLURAL_PARAMS = ("count", "cards", "n")


def _plural_key(key: str, params: Mapping[str, object]) -> str:
    """``key + ".one"`` when the counting parameter is 1 (a catalog may give a singular form)."""
    for name in PLURAL_PARAMS:
        if name in params:
            return key + ".one" if params[name] == 1 else key
    return key


def t(key: str, **params: object) -> str:
    """The text for ``key``; "KEY.one" is used instead when it exists and the count is 1."""
    catalog = _CATALOGS.get(_language, _CATALOGS["en"])
    singular = _plural_key(key, params)
    if singular != key and (singular in catalog or singular in _CATALOGS["en"]):
        key = singular
    template = catalog.get(key) or _CATALOGS["en"].get(key)
    if template is None:
        # A missing key is a bug, but the player should still see something readable.
        return key
    return template.format(**params) if params else template


def has_text(key: str) -> bool:
    """Whether the catalog (or its English fallback) words ``key``."""
    return key in _CATALOGS.get(_language, _CATALOGS["en"]) or key in _CATALOGS["en"]


# ---------------------------------------------------------------------------- shared words

def suit_word(suit: int) -> str:
    """A suit inside a sentence ("hearts"); suit numbers as in ``game.rules.cards.Suit``."""
    return t(SUIT_KEYS[suit])


def bid_words(books: int, mode: int) -> str:
    """A Bid Whist bid in words, "4 uptown" ("mode" is the ``BidMode`` number)."""
    return t("bid.words", books=books, mode=t(f"mode.{mode}").lower())


def direction_word(direction: int) -> str:
    """A ranking inside a sentence: "uptown", or "downtown" for direction (or mode) 1."""
    return t("table.downtown" if direction == 1 else "table.uptown")


def team_words(names: Sequence[str]) -> str:
    """The players of one team by name: "Ada & Cleo"."""
    if not names:
        return ""
    return reduce(lambda joined, name: t("team.names", a=joined, b=name), names[1:], names[0])


# ---------------------------------------------------------------------------- rules errors

def _worded_suit(params: Mapping[str, Any]) -> dict[str, Any]:
    suit = params.get("suit")
    if isinstance(suit, int) and 0 <= suit < len(SUIT_KEYS):
        return {"suit": suit_word(suit)}
    return {}


def _worded_high_bid(params: Mapping[str, Any]) -> dict[str, Any]:
    books, mode = params.get("books"), params.get("mode")
    if isinstance(books, int) and isinstance(mode, int):
        return {"high": bid_words(books, mode)}
    return {}


# Per error code, the extra sentence parameters made from the error's game values.
_PARAM_WORDS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "must_follow": _worded_suit,
    "bid_too_low": _worded_high_bid,
}


def explain(error: IllegalActionError) -> str:
    """The reason an action was refused, in the player's language (the engine's
    English sentence only when the catalog cannot word the code)."""
    template_key = "error." + error.code
    if not has_text(template_key):
        return error.message
    params: dict[str, Any] = dict(error.params)
    wording = _PARAM_WORDS.get(error.code)
    if wording is not None:
        params.update(wording(error.params))
    try:
        return t(template_key, **params)
    except (KeyError, IndexError):
        return error.message
