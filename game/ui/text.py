"""Look up player-facing text by key, in the chosen language.

``t("bid.pass")`` returns the English (or, later, Dutch or Turkish) text,
formatted with keyword parameters. Rule errors carry a code and parameters,
so ``explain(error)`` words them in the player's language too, falling back to
the engine's English sentence.
"""

from __future__ import annotations

from game.rules import IllegalActionError
from game.ui.strings import en_panels, en_table

_CATALOGS: dict[str, dict[str, str]] = {
    "en": {**en_table.STRINGS, **en_panels.STRINGS},
}
_language = "en"


def set_language(language: str) -> None:
    """Switch language; unknown languages fall back to English key by key."""
    global _language
    _language = language


# The parameter that decides between singular and plural, in order of preference.
PLURAL_PARAMS = ("count", "cards", "n")


def _plural_key(key: str, params: dict[str, object]) -> str:
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


def explain(error: IllegalActionError) -> str:
    """The reason an action was refused, in the player's language."""
    key = "error." + error.code
    catalog = _CATALOGS.get(_language, _CATALOGS["en"])
    if key in catalog:
        try:
            return catalog[key].format(**error.params)
        except (KeyError, IndexError):
            pass
    return error.message
