"""The rules help screen (issue 12, item 2): how each game is played, with this table's rules.

It opens from the start screen (for the game and rules chosen there) and from
the table's menu (for the game in play and its contract), lists the house
variants in force and marks those that differ from the standard game, shows
the bidding order and the card ranking as the rules give them, scrolls by
wheel and keys, closes with Esc, fits its text at 800x600 and 1280x720,
sleeps while nobody touches it, and never shows a hand.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import re

import pygame
import pytest

from game.rules import Phase, get_game
from game.rules.bidwhist import rank_power
from game.rules.house_rules import make_rules
from game.rules.view import BidWhistView
from game.session.match import Match, Seat
from game.ui.art.card_art import CardArt
from game.ui.dialogs.table_menu import TableMenu
from game.ui.scenes.rules_editor import value_label
from game.ui.scenes.rules_help_content import (
    CHANGED,
    HEADING,
    LABEL,
    Contract,
    contract_of,
    help_lines,
    ranking_lines,
)
from game.ui.scenes.rules_help_scene import RulesHelpScene
from game.ui.scenes.start_scene import StartScene
from game.ui.text import t
from game.ui.widgets.button import Button
from game.ui.widgets.text import MIN_TEXT_SIZE, fit_size, text_size
from ohhell import oh_hell_registered
from scene_checks import match_of, top
from test_ui_table import (
    _to_human_play,
    click,
    key,
    make_app,
    pass_cover,
    run_until,
    start,
    step,
    top_name,
)

HUMAN_AND_COMPUTERS = ["human", "ai:random", "ai:random", "ai:random"]
SIZES = [(800, 600), (1280, 720)]


def texts(lines, style=None) -> list[str]:
    return [line.text for line in lines if style is None or line.style == style]


def section(lines, heading: str) -> list:
    """The lines under the section heading ``heading``, up to the next heading."""
    start_at = next(i for i, line in enumerate(lines) if line.style == HEADING and line.text == heading)
    end = next((i for i in range(start_at + 1, len(lines)) if lines[i].style == HEADING), len(lines))
    return lines[start_at + 1 : end]


def help_for(game: str, players: int = 4, contract: Contract | None = None, **values):
    return help_lines(get_game(game), make_rules(game, values, players=players), players, contract)


def open_from_menu(app, scene) -> RulesHelpScene:
    """Esc opens the table's menu; its Rules button opens the help over the table."""
    step(app, [key(pygame.K_ESCAPE)])
    menu = app.scenes[-1]
    assert isinstance(menu, TableMenu)
    rules_button = next(b for b in menu.buttons if b.label == t("help.open_menu"))
    click(app, rules_button.rect.center)
    helper = app.scenes[-1]
    assert isinstance(helper, RulesHelpScene)
    return helper


# ---------------------------------------------------------------------------- opening and closing


def test_the_start_screen_opens_the_rules_of_the_chosen_game_and_esc_closes_them(tmp_path):
    app = make_app(tmp_path)
    start_scene = app.scenes[-1]
    assert isinstance(start_scene, StartScene)
    start_scene.set_game("wizard")
    step(app)
    click(app, start_scene.help_button.rect.center)
    helper = app.scenes[-1]
    assert isinstance(helper, RulesHelpScene)
    assert helper.game_def.name == "wizard"
    assert t("help.section.scoring") in texts(helper.lines, HEADING)
    step(app, [key(pygame.K_ESCAPE)])
    assert app.scenes[-1] is start_scene


def test_the_start_screen_help_shows_the_rules_changed_there(tmp_path):
    app = make_app(tmp_path)
    start_scene = top(app, StartScene)
    start_scene.set_game("bidwhist")
    start_scene.edits["bidwhist"] = {"target_score": 5}
    start_scene.open_rules_help()
    changed = texts(top(app, RulesHelpScene).lines, CHANGED)
    assert len(changed) == 1 and "(target_score)" in changed[0]


def test_the_help_button_is_reachable_by_keyboard_on_the_start_screen(tmp_path):
    app = make_app(tmp_path)
    start_scene = top(app, StartScene)
    assert start_scene.help_button in start_scene.focus.widgets
    start_scene.focus.focus(start_scene.help_button)
    step(app, [key(pygame.K_RETURN)])
    assert top_name(app) == "RulesHelpScene"


def test_the_table_menu_opens_the_rules_of_the_game_in_play_and_esc_goes_back(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", HUMAN_AND_COMPUTERS, seed=5, jokers=False, boston="double")
    _to_human_play(app, scene)
    helper = open_from_menu(app, scene)
    assert helper.game_def.name == "bidwhist"
    changed = " ".join(texts(helper.lines, CHANGED))
    assert "(jokers)" in changed and "(boston)" in changed
    step(app, [key(pygame.K_ESCAPE)])
    assert app.scenes[-1] is scene


def test_the_back_button_closes_the_help(tmp_path):
    app = make_app(tmp_path)
    top(app, StartScene).open_rules_help()
    helper = top(app, RulesHelpScene)
    step(app)
    click(app, helper.back_button.rect.center)
    assert top_name(app) == "StartScene"


# ---------------------------------------------------------------------------- the variants in force


def test_variants_that_differ_from_the_default_are_listed_as_changed():
    lines = help_for("bidwhist", jokers=False, boston="double")
    rows = section(lines, t("help.section.table"))
    changed = texts(rows, CHANGED)
    found = [re.search(r"\((\w+)\)", row) for row in changed]
    assert [rule.group(1) if rule else None for rule in found] == ["jokers", "boston"]
    # Each changed row says the value now and the standard one, in the editor's words.
    assert t("rule.boston.double") in changed[1] and t("rule.boston.off") in changed[1]
    assert t("widget.off") in changed[0] and t("widget.on") in changed[0]
    # Every other rule is listed too, unmarked.
    spec_keys = [spec.key for spec in get_game("bidwhist").rule_specs]
    assert all(any(f"({key})" in row for row in texts(rows)) for key in spec_keys)


def test_the_standard_rules_mark_nothing_as_changed():
    for game in ("bidwhist", "wizard"):
        assert not texts(help_for(game), CHANGED)


def test_the_explanations_follow_the_rules_in_force():
    standard = " ".join(texts(help_for("bidwhist")))
    varied = " ".join(
        texts(help_for("bidwhist", jokers=False, boston="wins_game", notrump_multiplier=3, target_score=9))
    )
    assert t("help.bidwhist.when.boston.wins_game") in varied
    assert t("help.bidwhist.when.boston.off") in standard
    assert "counts 3 times" in varied and "reaches 9 points" in varied
    # Without jokers the kitty holds 4 cards (the rules' own ``kitty_size``).
    assert "the other 4 cards" in varied and "the other 6 cards" in standard
    wizard = " ".join(texts(help_for("wizard", bidding="delayed_reveal")))
    assert t("help.wizard.when.bidding.delayed_reveal") in wizard


def test_every_text_is_worded_and_filled_in():
    contracts = [None, Contract(1, 0), Contract(2, 1), Contract(-1, 1), Contract(-1, 0)]
    for game, players in (("bidwhist", 4), ("wizard", 3), ("wizard", 6)):
        for contract in contracts:
            for line in help_for(game, players, contract):
                assert not line.text.startswith(("help.", "rule.")), line.text
                assert "{" not in line.text and "}" not in line.text, line.text


def every_rule_value():
    for game in ("bidwhist", "wizard"):
        for spec in get_game(game).rule_specs:
            values: list[object] = (
                [True, False]
                if spec.kind == "bool"
                else list(spec.choices)
                if spec.kind == "choice"
                else [spec.minimum, spec.maximum]
            )
            for value in values:
                yield game, spec.key, value


@pytest.mark.parametrize("game, rule, value", list(every_rule_value()))
def test_every_value_of_every_rule_is_explained(game, rule, value):
    players = 3 if game == "wizard" else 4
    extra = {"bidding": "open"} if rule == "uneven_bids" else {}
    lines = help_for(game, players, **{rule: value, **extra})
    prefix = get_game(game).text("rules_help")
    phrase = f"{prefix}.when.{rule}.{str(value).lower()}"
    words = " ".join(texts(lines))
    spec = get_game(game).spec(rule)
    assert spec is not None
    # The variants list words the value as the rule editor does; a choice also has its sentence.
    assert f"({rule}): {value_label(game, spec, value, players)}" in words
    if spec.kind in ("bool", "choice"):
        assert t(phrase) in words, phrase


# ---------------------------------------------------------------------------- bidding order


def test_the_bidding_order_comes_from_the_rules():
    def ladder(**values) -> str:
        lines = section(help_for("bidwhist", **values), t("help.section.bidding"))
        index = texts(lines).index(t("help.ladder.intro"))
        return lines[index + 1].text

    assert ladder().startswith("3 Uptown = 3 Downtown < 3 No trump < 4 Uptown")
    assert ladder().endswith("7 Uptown = 7 Downtown < 7 No trump")
    assert ladder(downtown_outranks_uptown=True).startswith("3 Uptown < 3 Downtown < 3 No trump")
    assert ladder(min_bid=5).startswith("5 Uptown")
    wizard = " ".join(texts(section(help_for("wizard", uneven_bids="always"), t("help.section.bidding"))))
    assert t("help.wizard.when.uneven_bids.always") in wizard


# ---------------------------------------------------------------------------- card ranking


def ranking_rows(lines) -> dict[str, str]:
    """Each ranking label and the cards listed under it."""
    rows = {}
    for index, line in enumerate(lines[:-1]):
        if line.style == LABEL:
            rows[line.text] = lines[index + 1].text
    return rows


def test_downtown_with_the_ace_low_lists_the_ace_lowest():
    hearts_downtown = Contract(trump=1, direction=1)
    rows = ranking_rows(help_for("bidwhist", contract=hearts_downtown, downtown_ace="low"))
    trump = rows[t("help.tier.trump", suit=t("suit.1.sentence"))]
    assert trump.split(", ") == [
        "big joker",
        "little joker",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10",
        "J",
        "Q",
        "K",
        "A",
    ]
    assert rows[t("help.tier.other")].split(", ")[-1] == "A"
    standard = ranking_rows(help_for("bidwhist", contract=hearts_downtown))
    assert standard[t("help.tier.other")].split(", ")[:2] == ["A", "2"]


def test_the_ranking_is_the_one_rank_power_gives():
    rules = make_rules("bidwhist", {"downtown_ace": "low", "jokers": False}, players=4)
    for direction in (0, 1):
        lines = ranking_lines(get_game("bidwhist"), rules, Contract(trump=-1, direction=direction))
        words = ranking_rows(lines)[t("help.tier.every_suit")].split(", ")
        power = rank_power(direction, rules)
        spades = sorted(range(13), key=lambda card: power[card], reverse=True)
        assert words == [t(f"help.rank.{card + 2}") for card in spades]
        assert "big joker" not in words


def test_before_a_contract_every_kind_of_contract_is_ranked():
    rows = ranking_rows(section(help_for("bidwhist"), t("help.section.ranking")))
    assert list(rows) == [
        t("help.tier.uptown_trump"),
        t("help.tier.uptown_other"),
        t("help.tier.downtown_trump"),
        t("help.tier.downtown_other"),
    ]
    assert rows[t("help.tier.downtown_trump")].startswith("big joker, little joker, A, 2, 3")
    assert rows[t("help.tier.downtown_other")].startswith("A, 2, 3")
    # Without jokers the trump suit ranks as the others do: one row per direction.
    rows = ranking_rows(section(help_for("bidwhist", jokers=False, downtown_ace="low"), t("help.section.ranking")))
    assert list(rows) == [t("help.tier.uptown"), t("help.tier.downtown")]
    assert rows[t("help.tier.downtown")].startswith("2, 3") and rows[t("help.tier.downtown")].endswith("K, A")


def test_wizard_ranks_wizards_trump_suit_led_then_jesters():
    lines = ranking_lines(get_game("wizard"), make_rules("wizard", {}, players=4), Contract(trump=2))
    order = [line.text for line in lines if line.style == LABEL]
    assert [text.split(". ", 1)[1] for text in order] == [
        t("help.tier.wizard"),
        t("help.tier.trump", suit=t("suit.2.sentence")),
        t("help.tier.led"),
        t("help.tier.jester"),
        t("help.tier.off_suit"),
    ]
    no_trump = [
        line.text
        for line in ranking_lines(get_game("wizard"), make_rules("wizard", {}, players=4), Contract(trump=-1))
        if line.style == LABEL
    ]
    assert len(no_trump) == 4 and t("help.tier.led") in no_trump[1]


def test_the_table_passes_the_contract_in_play(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", HUMAN_AND_COMPUTERS, seed=5, downtown_ace="low")
    _to_human_play(app, scene)
    view = match_of(scene).view(scene.bottom)
    assert isinstance(view, BidWhistView) and view.phase == Phase.PLAY
    helper = open_from_menu(app, scene)
    expected = ranking_lines(scene.game_def, match_of(scene).rules, Contract(view.trump, view.direction))
    shown = section(helper.lines, t("help.section.ranking"))
    assert [line.text for line in expected] == [line.text for line in shown if line.text in texts(expected)]
    assert t("help.ranking.contract", contract="").rstrip(".") in " ".join(texts(shown))


def test_the_contract_is_unknown_while_bidding():
    match = Match(make_rules("bidwhist", {}, players=4), [Seat(n, "ai:random") for n in "ABCD"], 3)
    assert match.phase == Phase.BID
    assert contract_of(match.game_def, match.view(0)) is None
    wizard = Match(make_rules("wizard", {}, players=3), [Seat(n, "ai:random") for n in "ABC"], 3)
    while wizard.phase not in (Phase.PREDICT, Phase.PLAY):
        wizard.apply(wizard.choose_ai_action())
    view = wizard.view(0)
    assert contract_of(wizard.game_def, view) == Contract(view.trump)


def test_a_game_without_worded_rules_still_gets_its_variants_and_ranking():
    with oh_hell_registered() as oh_hell:
        rules = oh_hell.rules_class()
        lines = help_lines(oh_hell, rules, 4, Contract(trump=0))
        headings = texts(lines, HEADING)
        assert headings == [t("help.section.table"), t("help.section.ranking")]


# ---------------------------------------------------------------------------- scrolling


def test_the_help_scrolls_by_keys_and_wheel_within_its_text(tmp_path):
    app = make_app(tmp_path, size=(800, 600))
    top(app, StartScene).open_rules_help()
    helper = top(app, RulesHelpScene)
    step(app)
    assert helper.max_scroll > 0 and helper.scroll == 0
    step(app, [key(pygame.K_UP)])
    assert helper.scroll == 0  # never above the top
    step(app, [key(pygame.K_DOWN)])
    line_step = helper.scroll
    assert line_step > 0
    step(app, [key(pygame.K_PAGEDOWN)])
    assert helper.scroll > line_step * 3
    page = helper.scroll
    step(app, [key(pygame.K_PAGEUP)])
    assert helper.scroll == line_step
    step(app, [pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False, precise_x=0.0, precise_y=-1.0)])
    assert helper.scroll > line_step
    step(app, [key(pygame.K_END)])
    assert helper.scroll == helper.max_scroll > page
    step(app, [key(pygame.K_PAGEDOWN)])
    assert helper.scroll == helper.max_scroll  # never below the end
    last = helper.placed[-1]
    assert last in helper.visible_lines()
    step(app, [key(pygame.K_HOME)])
    assert helper.scroll == 0 and helper.placed[0] in helper.visible_lines() and last not in helper.visible_lines()


# ---------------------------------------------------------------------------- fitting the window


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["bidwhist", "wizard"])
def test_the_text_fits_the_window(tmp_path, size, game):
    app = make_app(tmp_path, size=size)
    rules = make_rules(game, {}, players=4)
    app.push(RulesHelpScene(app, get_game(game), rules, 4, Contract(1, 1)))
    helper = top(app, RulesHelpScene)
    step(app)
    window = pygame.Rect(0, 0, *size)
    for rect in (helper.title_rect, helper.body_rect, helper.text_rect, helper.keys_rect, helper.back_button.rect):
        assert window.contains(rect)
    assert helper.body_rect.contains(helper.text_rect)
    assert not helper.back_button.rect.colliderect(helper.body_rect)
    for line in helper.placed:
        bold = line.style in ("heading", "changed", "label")
        assert text_size(line.text, line.size, bold)[0] <= helper.text_rect.width, line.text
        assert not line.text.endswith("…"), line.text  # a word too long for the line would be cut
        assert line.size >= 16
    # The title and the key hint fit without shrinking to an unreadable size.
    scale = helper.scale
    title = t("help.title", game=t(get_game(game).text("title")))
    assert fit_size(title, helper.title_rect.width, helper.title_rect.height, round(40 * scale), True) >= 24
    hint_size = max(13, round(17 * scale))
    assert fit_size(t("help.keys"), helper.keys_rect.width, helper.keys_rect.height, hint_size) > MIN_TEXT_SIZE


@pytest.mark.parametrize("size", SIZES)
def test_the_entry_buttons_fit_their_labels(tmp_path, size):
    app = make_app(tmp_path, size=size)
    start_scene = top(app, StartScene)
    step(app)
    button = start_scene.help_button
    assert not button.rect.colliderect(start_scene.rules_button.rect)
    assert start_scene.rules_panel.contains(button.rect)
    assert text_size(button.label, 16)[0] <= button.rect.width - 8
    scene = start(app, "wizard", HUMAN_AND_COMPUTERS, seed=2)
    run_until(app, lambda: top_name(app) != "TableScene" or scene.input_enabled(), frames=400)
    scene.open_menu()
    step(app)
    menu = app.scenes[-1]
    assert isinstance(menu, TableMenu)
    rules_button = next(b for b in menu.buttons if b.label == t("help.open_menu"))
    assert menu.panel_rect.contains(rules_button.rect) and pygame.Rect(0, 0, *size).contains(menu.panel_rect)


# ---------------------------------------------------------------------------- idle and focus


def test_the_help_waits_for_input(tmp_path):
    app = make_app(tmp_path)
    top(app, StartScene).open_rules_help()
    step(app)
    assert app.frame_wait() is None
    step(app, [key(pygame.K_PAGEDOWN)])
    step(app)
    assert app.frame_wait() is None
    assert app.scenes[-1].wake_in() is None


def test_the_help_over_the_table_waits_for_input(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", HUMAN_AND_COMPUTERS, seed=4)
    _to_human_play(app, scene)
    open_from_menu(app, scene)
    assert run_until(app, lambda: app.frame_wait() is None, frames=200)
    step(app, [key(pygame.K_DOWN)])
    step(app)
    assert app.frame_wait() is None


def test_keyboard_focus_is_on_the_back_button_and_shown(tmp_path):
    app = make_app(tmp_path)
    top(app, StartScene).open_rules_help()
    helper = top(app, RulesHelpScene)
    step(app, [key(pygame.K_TAB)])
    assert helper.focus.focused is helper.back_button
    assert isinstance(helper.focus.focused, Button) and helper.back_button.show_focus_ring
    step(app, [key(pygame.K_RETURN)])
    assert top_name(app) == "StartScene"


# ---------------------------------------------------------------------------- hot seat


def test_the_help_shows_no_hand_in_a_hot_seat_game(tmp_path, monkeypatch):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:random", "human", "ai:random"], seed=5)
    # Every card face asked for while the app paints a frame (the table also renders faces
    # ahead of time in its updates, into its cache: that shows nothing).
    faces: list[str] = []
    painting = [False]
    original_face, original_draw = CardArt.face, app._draw

    def face(art, code):
        if painting[0]:
            faces.append(code)
        return original_face(art, code)

    def paint():
        painting[0] = True
        try:
            original_draw()
        finally:
            painting[0] = False

    monkeypatch.setattr(CardArt, "face", face)
    monkeypatch.setattr(app, "_draw", paint)
    # A human passes the cover and holds the screen, their hand face up under the bidding panel.
    assert run_until(app, lambda: top_name(app) == "CoverScene", frames=2000)
    pass_cover(app)
    assert run_until(app, lambda: top_name(app) == "BiddingPanel", frames=2000)
    assert scene.viewer in scene.humans
    table_draws = []
    monkeypatch.setattr(scene, "draw", lambda surface: table_draws.append(surface))
    helper = open_from_menu(app, scene)
    assert helper.opaque
    table_draws.clear()  # the menu over the table let it show until now
    faces.clear()
    for _ in range(5):
        step(app)
    step(app, [key(pygame.K_END)])
    assert not table_draws and not faces
    step(app, [key(pygame.K_ESCAPE)])
    assert top_name(app) == "BiddingPanel" and table_draws  # back to the bid, the table drawn again
