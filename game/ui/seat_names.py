"""Seat names the start screen gives until the player types one, kept by role."""

from __future__ import annotations

# A game started in Dutch names its lone human "Jij"; on English screens that
# seat must read "You". So a default name travels with its seat as a role, not
# as words: ``"you"`` (the lone human), ``"player:N"`` (the Nth of several
# humans sharing the screen) or ``"computer:S"`` (the computer at seat S, named
# from the catalogue's list of computer names by its seat). Wherever the name is shown it is worded
# from the role in the language of the moment: on the table after a language
# change, and for a game continued from its save. A name the player typed has
# no role and is kept exactly as typed.

from collections.abc import Sequence

from game.ui.text import t

__all__ = ["default_role", "role_name", "seat_name"]


def default_role(seat: int, kinds: Sequence[str], players: int) -> str:
    """The role of ``seat``'s default name at a table of ``players`` whose seats are
    ``kinds`` ("human" or "computer"): a lone human is "You"; with two or more humans
    sharing the screen "You" would be ambiguous (the hot-seat cover would say "Pass to
    You"), so each is "Player 1", "Player 2" ... in seat order; computers are named from
    the list, by seat."""
    if kinds[seat] == "human":
        humans = [s for s in range(players) if kinds[s] == "human"]
        if len(humans) <= 1:
            return "you"
        number = humans.index(seat) + 1 if seat in humans else seat + 1
        return f"player:{number}"
    return f"computer:{seat}"


def role_name(role: str) -> str | None:
    """The name ``role`` stands for in the current language (None: not a role)."""
    kind, _, number = role.partition(":")
    if kind == "you" and not number:
        return t("start.default_human")
    if not (number.isascii() and number.isdigit() and len(number) <= 2):
        return None
    if kind == "player":
        return t("start.default_human_n", number=int(number))
    if kind == "computer":
        names = [name.strip() for name in t("start.computer_names").split(",") if name.strip()]
        return names[(int(number) - 1) % len(names)] if names else None
    return None


def seat_name(name: str, role: str) -> str:
    """A seat's name as shown now: worded from its role, or as the player typed it."""
    return (role_name(role) if role else None) or name
