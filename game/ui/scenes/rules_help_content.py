"""What the rules help screen says: the game's rules as lines of styled text."""

from __future__ import annotations

# The screen is fed a list of ``HelpLine`` (a paragraph and how it is drawn),
# built here from the game's registry entry, the rules object of the table and
# what the table knows of the deal in play (a ``Contract``). Every fact that
# depends on the rules is asked of them, never worked out again here:
#
# * the house variants in force are the game's ``RuleSpec`` list, each value
#   worded as the rule editor words it and marked when it differs from the
#   default;
# * the bidding order of a contract game is the rules' own ordering of bids
#   (the state's ``bid_key``), shown as a ladder from the lowest bid up;
# * the card ranking is the game adapter's (``GameDef.adapter.help_ranking``:
#   the rules' own card strengths under the contract or the round's trump),
#   laid out as labelled rows from strongest to weakest;
# * the explanations are the catalogue's section templates of the game (the
#   registry's ``rules_help`` text key words the game in one line and is their
#   prefix), filled in with the table's numbers and one phrase per rule value.
#
# The numbers the paragraphs quote come from the adapter too
# (``help_numbers``), and only a game that ``declares_contract`` gets the bid
# ladder; a game without a ``rules_help`` text key still gets its variants and
# its ranking.

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from game.rules import GameDef, Phase, PlayerView
from game.rules.actions import BidMode
from game.rules.adapter import CARDS, LABEL as RANKING_LABEL, NOTE as RANKING_NOTE, Word
from game.rules.cards import BIG_JOKER, LITTLE_JOKER, RANK_OF
from game.rules.house_rules import Rules
from game.ui.scenes.rules_editor import value_label
from game.ui.text import has_text, say, t

# How a line is drawn: a section heading, body text, a rule that differs from
# the default, a short label above a row of cards, or a quieter note.
HEADING, BODY, CHANGED, LABEL, NOTE = "heading", "body", "changed", "label", "note"
# How each line of the adapter's ranking is drawn.
RANKING_STYLES = {RANKING_NOTE: NOTE, RANKING_LABEL: LABEL, CARDS: BODY}

# The sections explained in words, in the order a player meets them at the table.
WORDED_SECTIONS = ("overview", "bidding", "ranking", "play", "scoring")


@dataclass(frozen=True)
class HelpLine:
    """One paragraph of the help screen and its look (``HEADING``, ``BODY``...)."""

    text: str
    style: str = BODY


@dataclass(frozen=True)
class Contract:
    """What the table knows of the deal in play: the trump suit (``NO_SUIT``
    for none) and, in a contract game, the ranking direction (0 uptown,
    1 downtown)."""

    trump: int
    direction: int = 0


def contract_of(game_def: GameDef, view: PlayerView) -> Contract | None:
    """The contract (or the round's trump) a player's view shows; None while it
    is still being decided (bidding, naming trump) or after the game.

    Trump and direction are public, so any seat's view gives the same answer.
    """
    phase = view.phase
    if phase in (Phase.BID, Phase.CONTRACT, Phase.TRUMP_CHOICE, Phase.GAME_OVER):
        return None
    if game_def.adapter.declares_contract:
        direction = game_def.adapter.table_figures(view).direction
        # A hand thrown in after four passes is over without a contract.
        return Contract(view.trump, direction) if direction in (0, 1) else None
    return Contract(view.trump)


# ---------------------------------------------------------------------------- words


def _value_token(value: Any) -> str:
    """A rule value as written in the rules files (``true``, ``redeal``, ``7``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _card_word(card: int) -> str:
    if card == BIG_JOKER:
        return t("help.card.big_joker")
    if card == LITTLE_JOKER:
        return t("help.card.little_joker")
    return t(f"help.rank.{RANK_OF[card]}")


def _cards_words(cards: Sequence[int]) -> str:
    words = [_card_word(card) for card in cards]
    text = words[0] if words else ""
    for word in words[1:]:
        text = t("help.list", a=text, b=word)
    return text


def _rule_params(game_def: GameDef, rules: Rules, players: int, prefix: str | None) -> dict[str, Any]:
    """Every rule value for the section templates: ``{key}`` (a number or its
    words) and ``{key_rule}`` (the catalogue's phrase for that value)."""
    values = rules.to_dict()
    params: dict[str, Any] = {"players": players, "deck_size": len(game_def.deck_for(rules))}
    for spec in game_def.rule_specs:
        value = values[spec.key]
        is_number = spec.kind == "int" and not isinstance(value, bool)
        params[spec.key] = value if is_number else value_label(game_def.name, spec, value, players)
        phrase = f"{prefix}.when.{spec.key}.{_value_token(value)}" if prefix else ""
        if phrase and has_text(phrase):
            params[f"{spec.key}_rule"] = t(phrase)
    return params


# ---------------------------------------------------------------------------- the variants in force


def variant_lines(game_def: GameDef, rules: Rules, players: int) -> list[HelpLine]:
    """One line per house rule: its label, YAML key and current value; a rule
    that differs from its default says so and names the default."""
    values = rules.to_dict()
    lines = [HelpLine(t("help.section.table"), HEADING), HelpLine(t("help.variants.intro"), NOTE)]
    for spec in game_def.rule_specs:
        value = values[spec.key]
        row = t(
            "help.variants.row",
            label=t(f"rule.{spec.key}.label"),
            yaml_key=spec.key,
            value=value_label(game_def.name, spec, value, players),
        )
        if value != spec.default:
            default = value_label(game_def.name, spec, spec.default, players)
            lines.append(HelpLine("• " + t("help.variants.changed", row=row, default=default), CHANGED))
        else:
            lines.append(HelpLine("• " + row, BODY))
    return lines


# ---------------------------------------------------------------------------- bidding order


def bid_ladder(game_def: GameDef, rules: Rules, players: int) -> str:
    """Every bid the rules allow, lowest first, as the rules order them
    ("3 Uptown = 3 Downtown < 3 No trump < 4 Uptown ...")."""
    state = game_def.create_state(rules, players, 0, 0, None)
    bids = [
        (state.bid_key(books, mode), t("help.ladder.bid", books=books, mode=t(f"mode.{int(mode)}")))
        for books in game_def.adapter.contract_bids(rules)
        for mode in BidMode
    ]
    bids.sort(key=lambda item: item[0])
    text = ""
    previous_key = None
    for bid_key, words in bids:
        if not text:
            text = words
        elif bid_key == previous_key:
            text = t("help.ladder.equal", a=text, b=words)
        else:
            text = t("help.ladder.step", a=text, b=words)
        previous_key = bid_key
    return text


# ---------------------------------------------------------------------------- card ranking


def ranking_lines(game_def: GameDef, rules: Rules, contract: Contract | None) -> list[HelpLine]:
    """The cards ranked as the game's adapter lays them out: for the deal in
    play, or (``contract`` None) before its trump is known."""
    ranking = game_def.adapter.help_ranking(
        game_def.deck_for(rules),
        rules,
        None if contract is None else contract.trump,
        0 if contract is None else contract.direction,
    )
    return [
        HelpLine(
            _cards_words(line.phrase.value)
            if isinstance(line.phrase, Word)
            else say(line.phrase, lambda word: _cards_words(word.value)),
            RANKING_STYLES[line.style],
        )
        for line in ranking
    ]


# ---------------------------------------------------------------------------- the whole screen


def _game_numbers(game_def: GameDef, rules: Rules) -> dict[str, Any]:
    """The numbers the section templates quote, asked of the game's adapter: a
    contract game's kitty, a prediction game's points for an exact bid and a miss."""
    return game_def.adapter.help_numbers(rules)


def help_lines(game_def: GameDef, rules: Rules, players: int, contract: Contract | None = None) -> list[HelpLine]:
    """Everything the rules screen shows for ``game_def`` played under ``rules``
    by ``players``, with ``contract`` the deal in play (None: not decided)."""
    prefix = game_def.text_keys.get("rules_help")
    params = _rule_params(game_def, rules, players, prefix)
    params.update(_game_numbers(game_def, rules))
    lines = [HelpLine(t(prefix), NOTE)] if prefix and has_text(prefix) else []
    lines += variant_lines(game_def, rules, players)
    for section in WORDED_SECTIONS:
        key = f"{prefix}.{section}" if prefix else ""
        worded = bool(key) and has_text(key)
        if not worded and section != "ranking":
            continue
        lines.append(HelpLine(t(f"help.section.{section}"), HEADING))
        if section == "ranking":  # the ranking itself first: it is what a player at the table looks for
            lines += ranking_lines(game_def, rules, contract)
        if worded:
            lines += [HelpLine(paragraph) for paragraph in t(key, **params).split("\n\n")]
        if section == "bidding" and game_def.adapter.declares_contract:
            lines += [HelpLine(t("help.ladder.intro"), LABEL), HelpLine(bid_ladder(game_def, rules, players))]
    return lines
