"""Words the player reads: rules errors worded from codes, registry text keys,
and the one text cache every screen draws its text through.

Rules errors carry a code and plain parameters (a suit number, a bid as books
and mode); ``explain`` must word them exactly as the table always has ("You
must follow hearts.", "A bid must be higher than 4 uptown."), from the
catalog, so that a translated catalog translates them too.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pytest

from game.rules import ActionKind, IllegalActionError, Phase, Suit, all_games, make_rules
from game.rules.actions import bid, play
from game.rules.cards import SUIT_OF
from game.session.match import Match, Seat
from game.ui.art.render_cache import TEXT, BoundedCache, RotationCache
from game.ui.text import bid_words, explain, has_text, suit_word, t, team_words, text_in
from game.ui.widgets.text import render_text, text_size, wrap_text


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    yield


# ---------------------------------------------------------------------------- rules errors


def test_must_follow_names_the_suit_in_words():
    error = IllegalActionError("You must follow hearts", "must_follow", suit=int(Suit.HEARTS))
    assert explain(error) == "You must follow hearts."


def test_bid_too_low_names_the_high_bid_in_words():
    error = IllegalActionError("Bid must be higher than 4 uptown", "bid_too_low", books=4, mode=0)
    assert explain(error) == "A bid must be higher than 4 uptown."
    error = IllegalActionError("Bid must be higher than 5 no trump", "bid_too_low", books=5, mode=2)
    assert explain(error) == "A bid must be higher than 5 no trump."


def test_codes_with_number_parameters_read_as_before():
    assert (
        explain(IllegalActionError("x", "wrong_phase", phase=int(Phase.BID)))
        == "That is not possible at this point of the hand."
    )
    assert explain(IllegalActionError("x", "bid_min", min=3)) == "A bid must be at least 3."
    assert (
        explain(IllegalActionError("x", "uneven_bids", bid=2, total=5))
        == "The dealer may not bid 2: the bids would add up to 5."
    )
    assert explain(IllegalActionError("x", "not_in_hand", card=12)) == "You do not hold that card."


def test_an_unknown_code_falls_back_to_the_engines_sentence():
    assert explain(IllegalActionError("Something odd", "no_such_code")) == "Something odd"


def test_real_refusals_from_the_engine_are_worded():
    match = Match(make_rules("bidwhist"), [Seat(f"P{i}", "ai:random") for i in range(4)], 3)
    match.apply(bid(4, 0))
    error = match.explain(bid(3, 0))
    assert error is not None and explain(error) == "A bid must be higher than 4 uptown."
    # Play on until someone could not follow suit with some card, then try that card.
    for _ in range(200):
        view = match.view(match.current_player)
        legal = {action.value for action in view.legal_actions if action.kind == ActionKind.PLAY}
        refused = [card for card in view.hand if card not in legal]
        if match.phase == Phase.PLAY and view.trick and refused:
            error = match.explain(play(refused[0]))
            assert error is not None and explain(error) == f"You must follow {suit_word(view.led_suit)}."
            return
        match.apply(match.choose_ai_action())
    pytest.fail("no refused card came up")


def test_shared_words():
    assert [suit_word(suit) for suit in range(4)] == ["spades", "hearts", "diamonds", "clubs"]
    assert bid_words(4, 1) == "4 downtown"
    assert team_words(["Ada", "Cleo"]) == "Ada & Cleo" and team_words(["Ada"]) == "Ada"
    assert SUIT_OF[0] == Suit.SPADES  # suit numbers are the rules' own


# ---------------------------------------------------------------------------- registry text


@pytest.mark.parametrize("game", [game.name for game in all_games()])
def test_every_text_key_a_game_names_is_in_the_catalog(game):
    definition = next(g for g in all_games() if g.name == game)
    for purpose in ("title", "deal", "next_deal"):
        key = definition.text(purpose)
        assert has_text(key) and t(key) != key, f"{game}: {purpose} key {key!r} has no text"
    assert has_text(definition.text("title") + ".help")


# ---------------------------------------------------------------------------- the one text cache


def test_widgets_draw_text_through_the_one_cache():
    surface = render_text("Score pad", 22, (255, 255, 255))
    assert TEXT.render("Score pad", 22, (255, 255, 255)) is surface
    assert text_size("Score pad", 22) == TEXT.size("Score pad", 22)


def test_the_table_view_uses_the_one_text_cache(tmp_path):
    from game.settings.app_settings import Settings
    from game.ui.app import App
    from game.ui.table.view import TableView

    app = App(data_dir=str(tmp_path), size=(800, 600), settings=Settings(), show_start=False)
    assert TableView(app).text is TEXT


def test_a_bounded_cache_forgets_the_least_recently_used_entry():
    cache: BoundedCache[str, int] = BoundedCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "a" is now the most recently used
    cache.put("c", 3)
    assert "b" not in cache and cache.get("a") == 1 and cache.get("c") == 3
    assert len(cache) == 2
    assert cache.get_or_make("d", lambda: 4) == 4 and "a" not in cache
    with pytest.raises(ValueError):
        BoundedCache(0)


def test_rotated_copies_are_bounded_and_reused():
    rotations = RotationCache(limit=3)
    image = pygame.Surface((20, 30), pygame.SRCALPHA)
    first = rotations.get(image, 10.0)
    assert rotations.get(image, 10.4) is first  # the same 2-degree step
    for angle in (20.0, 30.0, 40.0):
        rotations.get(image, angle)
    assert rotations.get(image, 10.0) is not first  # forgotten, drawn again


@pytest.mark.parametrize("language", ["en", "nl", "tr"])
def test_a_no_break_space_keeps_a_key_and_what_it_does_on_one_line(language):
    # The replay viewer's key help breaks only between its items, never
    # inside "Page Up/Down: trick", in every language and at every width.
    keys = text_in(language, "replay.keys")
    items = [item.rstrip("\xa0·") for item in keys.split(" ")]
    assert len(items) == 5 and all("\xa0" in item or item == items[3] for item in items)
    for width in (240, 320, 480, 900):  # each item fits a line of 240 px at 18 px
        lines = wrap_text(keys, width, 18)
        assert [item.rstrip("\xa0·") for line in lines for item in line.split(" ")] == items
    # Ordinary spaces still break.
    assert len(wrap_text("one two three four five six", 60, 18)) > 1
