"""The game adapters speak in data the interface can word (issue 26 item 1).

An adapter lives in the pure rules and answers with text keys and
parameters (``Phrase``, ``Word``), never sentences; the catalogue check of
``tests/test_i18n.py`` cannot see keys written there, so these tests walk
every phrase the adapters of the built-in games give, in every situation
their branches tell apart, and look each key up in the English catalogue.
"""

from __future__ import annotations

from itertools import product
from collections.abc import Iterator

from game.rules import make_rules
from game.rules.adapter import HandStanding, Phrase, TableFigures, Word
from game.rules.cards import NO_SUIT
from game.rules.registry import all_games, get_game
from test_registry import english_catalog


def keys_of(phrase: Phrase | Word) -> Iterator[str]:
    if isinstance(phrase, Phrase):
        yield phrase.key
        for value in phrase.params.values():
            if isinstance(value, (Phrase, Word)):
                yield from keys_of(value)


def test_every_ranking_phrase_is_in_the_catalogue() -> None:
    catalog = english_catalog()
    for game, trump, direction in product(all_games(), (None, NO_SUIT, 0, 3), (0, 1)):
        for jokers in ({}, {"jokers": False}) if game.spec("jokers") else ({},):
            rules = make_rules(game.name, jokers)
            lines = game.adapter.help_ranking(game.deck_for(rules), rules, trump, direction)
            assert lines, (game.name, trump, direction)
            for line in lines:
                missing = [key for key in keys_of(line.phrase) if key not in catalog]
                assert not missing, (game.name, trump, direction, missing)


def test_every_progress_phrase_is_in_the_catalogue() -> None:
    catalog = english_catalog()
    seen: set[str] = set()
    contract, predictions = get_game("bidwhist"), get_game("wizard")
    for books, over in product(((3, 2), (9, 3), (4, 5), (2, 8)), (False, True)):
        figures = TableFigures(declarer=1, contract_books=2, contract_mode=0, direction=0)
        standing = HandStanding(4, 2, books, 12, over, figures)
        seen.update(key for line in contract.adapter.progress_lines(contract, standing) for key in keys_of(line.phrase))
    for bids in ((1, -1, -1), (1, 1, 0), (3, 1, 0), (0, 0, 0)):
        standing = HandStanding(3, 2, (0, 0, 0), 2, False, TableFigures(predictions=bids))
        lines = predictions.adapter.progress_lines(predictions, standing)
        seen.update(key for line in lines for key in keys_of(line.phrase))
    assert {
        "table.progress_made",
        "table.progress_set",
        "table.progress_cannot_set",
        "table.round_over",
        "table.round_under",
        "table.round_even",
        "table.round_bids_waiting",
    } <= seen
    assert seen <= set(catalog), seen - set(catalog)
