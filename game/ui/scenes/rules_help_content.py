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
# * the card ranking is ``bidwhist.rank_power(direction, rules)`` with the
#   contract's trump for a contract game, and ``wizard.strengths(led, trump)``
#   for a prediction game, laid out as tiers from strongest to weakest;
# * the explanations are the catalogue's section templates of the game (the
#   registry's ``rules_help`` text key words the game in one line and is their
#   prefix), filled in with the table's numbers and one phrase per rule value.
#
# Which of the two ranking pictures applies is decided by the game's kind of
# scoring, as everything above the rules decides it; a game without a
# ``rules_help`` text key still gets its variants and its ranking.

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from game.rules import GameDef, Phase
from game.rules.actions import BidMode
from game.rules.bidwhist import kitty_size, rank_power
from game.rules.cards import BIG_JOKER, JESTER, LITTLE_JOKER, NO_SUIT, RANK_OF, SUIT_OF, WIZARD, card_of
from game.rules.wizard import score_for, strengths
from game.ui.scenes.rules_editor import value_label
from game.ui.text import direction_word, has_text, suit_word, t

# How a line is drawn: a section heading, body text, a rule that differs from
# the default, a short label above a row of cards, or a quieter note.
HEADING, BODY, CHANGED, LABEL, NOTE = "heading", "body", "changed", "label", "note"

SUITS = (0, 1, 2, 3)
RANKS = tuple(range(2, 15))
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


def contract_of(game_def: GameDef, view: Any) -> Contract | None:
    """The contract (or the round's trump) a player's view shows; None while it
    is still being decided (bidding, naming trump) or after the game.

    Trump and direction are public, so any seat's view gives the same answer.
    """
    phase = view.phase
    if phase in (Phase.BID, Phase.CONTRACT, Phase.TRUMP_CHOICE, Phase.GAME_OVER):
        return None
    if game_def.scoring == "contract":
        direction = getattr(view, "direction", -1)
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


def _rule_params(game_def: GameDef, rules: Any, players: int, prefix: str | None) -> dict[str, Any]:
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

def variant_lines(game_def: GameDef, rules: Any, players: int) -> list[HelpLine]:
    """One line per house rule: its label, YAML key and current value; a rule
    that differs from its default says so and names the default."""
    values = rules.to_dict()
    lines = [HelpLine(t("help.section.table"), HEADING), HelpLine(t("help.variants.intro"), NOTE)]
    for spec in game_def.rule_specs:
        value = values[spec.key]
        row = t("help.variants.row", label=t(f"rule.{spec.key}.label"), yaml_key=spec.key,
                value=value_label(game_def.name, spec, value, players))
        if value != spec.default:
            default = value_label(game_def.name, spec, spec.default, players)
            lines.append(HelpLine("• " + t("help.variants.changed", row=row, default=default), CHANGED))
        else:
            lines.append(HelpLine("• " + row, BODY))
    return lines


# ---------------------------------------------------------------------------- bidding order

def bid_ladder(game_def: GameDef, rules: Any, players: int) -> str:
    """Every bid the rules allow, lowest first, as the rules order them
    ("3 Uptown = 3 Downtown < 3 No trump < 4 Uptown ...")."""
    state = game_def.create_state(rules, players, 0, 0, None)
    low_spec = game_def.spec("min_bid")
    highest = low_spec.maximum if low_spec is not None else rules.min_bid
    bids = [(state.bid_key(books, mode), t("help.ladder.bid", books=books, mode=t(f"mode.{int(mode)}")))
            for books in range(rules.min_bid, highest + 1) for mode in BidMode]
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

def _ranked(cards: Sequence[int], strength: Callable[[int], int]) -> list[int]:
    return sorted(cards, key=strength, reverse=True)


def contract_ranking(game_def: GameDef, rules: Any, contract: Contract | None) -> list[HelpLine]:
    """A contract game's ranking from ``rank_power``: the trump suit and the
    other suits under the contract, or every kind of contract before one is made."""
    jokers = [card for card in (BIG_JOKER, LITTLE_JOKER) if card in game_def.deck_for(rules)]

    def suit_row(direction: int, with_jokers: bool) -> str:
        power = rank_power(direction, rules)
        cards = [card_of(0, rank) for rank in RANKS] + (jokers if with_jokers else [])
        return _cards_words(_ranked(cards, lambda card: power[card]))

    lines: list[HelpLine] = []
    if contract is None:
        lines.append(HelpLine(t("help.ranking.general"), NOTE))
        for direction, name in ((0, "uptown"), (1, "downtown")):
            if jokers:  # the jokers set the trump suit apart from the others
                lines += [HelpLine(t(f"help.tier.{name}_trump"), LABEL), HelpLine(suit_row(direction, True)),
                          HelpLine(t(f"help.tier.{name}_other"), LABEL), HelpLine(suit_row(direction, False))]
            else:
                lines += [HelpLine(t(f"help.tier.{name}"), LABEL), HelpLine(suit_row(direction, False))]
        return lines
    direction = 1 if contract.direction == 1 else 0
    if contract.trump == NO_SUIT:
        words = t("help.contract.no_trump", direction=direction_word(direction))
        lines.append(HelpLine(t("help.ranking.contract", contract=words), NOTE))
        lines += [HelpLine(t("help.tier.every_suit"), LABEL), HelpLine(suit_row(direction, False))]
        return lines
    suit = suit_word(contract.trump)
    words = t("help.contract.trump", direction=direction_word(direction), suit=suit)
    lines.append(HelpLine(t("help.ranking.contract", contract=words), NOTE))
    lines += [HelpLine(t("help.tier.trump", suit=suit), LABEL), HelpLine(suit_row(direction, True)),
              HelpLine(t("help.tier.other"), LABEL), HelpLine(suit_row(direction, False))]
    return lines


def prediction_ranking(game_def: GameDef, rules: Any, contract: Contract | None) -> list[HelpLine]:
    """A prediction game's ranking from ``wizard.strengths``: for a trick led in
    a plain suit, which cards beat which, strongest first."""
    lines: list[HelpLine] = []
    if contract is None:
        trump, trump_label = SUITS[0], t("help.tier.any_trump")
        lines.append(HelpLine(t("help.ranking.no_trump_yet"), NOTE))
    else:
        trump = contract.trump
        trump_label = t("help.tier.trump", suit=suit_word(trump)) if trump != NO_SUIT else ""
        lines.append(HelpLine(t("help.ranking.round_trump", suit=suit_word(trump)) if trump != NO_SUIT
                              else t("help.ranking.round_no_trump"), NOTE))
    led = next(suit for suit in SUITS if suit != trump)
    power = strengths(led, trump)
    # Cards that rank alike (the suit led, the trumps...) form one tier; tiers run strongest first.
    tiers: dict[str, list[int]] = {}
    for card in sorted(set(game_def.deck_for(rules))):
        if card == WIZARD:
            tier = "wizard"
        elif card == JESTER:
            tier = "jester"
        elif SUIT_OF[card] == trump:
            tier = "trump"
        elif SUIT_OF[card] == led:
            tier = "led"
        else:
            tier = "off_suit"
        tiers.setdefault(tier, []).append(card)
    order = sorted(tiers, key=lambda name: max(power[card] for card in tiers[name]), reverse=True)
    for number, name in enumerate(order, start=1):
        cards = tiers[name]
        if name in ("trump", "led"):
            label = trump_label if name == "trump" else t("help.tier.led")
            lines += [HelpLine(t("help.tier.numbered", n=number, text=label), LABEL),
                      HelpLine(_cards_words(_ranked(cards, lambda card: power[card])))]
        else:
            lines.append(HelpLine(t("help.tier.numbered", n=number, text=t(f"help.tier.{name}")), LABEL))
    return lines


def ranking_lines(game_def: GameDef, rules: Any, contract: Contract | None) -> list[HelpLine]:
    if game_def.scoring == "contract":
        return contract_ranking(game_def, rules, contract)
    return prediction_ranking(game_def, rules, contract)


# ---------------------------------------------------------------------------- the whole screen

def _game_numbers(game_def: GameDef, rules: Any) -> dict[str, Any]:
    """The numbers the section templates quote, asked of the rules: a contract
    game's kitty, a prediction game's points for an exact bid and a miss."""
    if game_def.scoring == "contract":
        return {"kitty": kitty_size(rules)}
    return {"exact_bonus": score_for(0, 0), "per_trick": score_for(1, 1) - score_for(0, 0),
            "per_trick_off": -score_for(0, 1)}


def help_lines(game_def: GameDef, rules: Any, players: int, contract: Contract | None = None) -> list[HelpLine]:
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
        if section == "bidding" and game_def.scoring == "contract":
            lines += [HelpLine(t("help.ladder.intro"), LABEL), HelpLine(bid_ladder(game_def, rules, players))]
    return lines
