"""The house variants of RULES.md ("More house variants") on the table and the start screen.

Each test drives a real dialog, model, director or table from real engine
states, reached with explicit deals (``tests/conftest.py``) or fixed seeds:

* without jokers the kitty dialog asks for 4 discards from 16 cards, laid out
  in two even rows, and the table's kitty pile holds 4 cards; the declarer's
  16 cards fit the table at 800x600 and 1280x720;
* under ``dealer_takes`` the dealer's bidding panel has a "Take it" row (and
  nobody else's, and not without the rule) whose buttons apply TAKE actions,
  by mouse and by keyboard; a take reads as a take on the plate, in the hand
  log and on the score pad;
* a Boston is announced over the table, in the hand's result line and on the
  score pad;
* with the ace low downtown the hands are sorted as the contract ranks them
  (the table's hand, the kitty dialog) and the ranking help says so;
* a Wizard turned up under ``first_bidder_chooses`` names the player at the
  dealer's left as the chooser (banner, corner panel, chooser dialog), and
  under ``no_trump`` the corner panel says no trump;
* the rule editor edits the new keys, the start screen offers the new
  presets, and the new screens fit their text at 800x600.
"""

from __future__ import annotations

import os
from types import SimpleNamespace

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pytest
from conftest import bw_deal, bw_game, cards, drive, wz_deal
from test_ui_idle import settle
from scene_checks import match_of, top
from test_ui_table import make_app, start, step, top_name
from test_ui_text_fit import TextAudit, _draw, audit, tables  # noqa: F401  (fixtures, found by name)
from ui_states import WINDOW_SIZES, PreviewApp, window_for_module

from game.persistence.history_codec import HistoryRecorder
from game.rules import ActionKind, Phase, apply, get_game, make_rules, new_game
from game.rules.bidwhist import BidWhistState
from game.rules.view import BidWhistView
from game.rules.actions import PASS, bid, choose_direction, choose_trump, discard, take
from game.rules.cards import parse_card
from game.rules.events import BidWhistHandScored, TrumpTurnedUp
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.contract_chooser import ContractChooser
from game.persistence.history_codec import score_history
from game.session.scores import ContractLine
from game.ui.dialogs.end_scene import EndScene
from game.ui.dialogs.kitty_dialog import KittyDialog
from game.ui.dialogs.score_pad import ScorePad, contract_words
from game.ui.scenes.rules_editor import RulesEditor
from game.ui.scenes.start_scene import StartScene
from game.ui.table.animations import Director
from game.ui.table.hand_log import hand_log, hand_result
from game.ui.table.hints import hint_text
from game.ui.table.layout import compute_layout
from game.ui.table.model import TableModel, bid_label
from game.ui.table.view import TableView
from game.ui.text import has_text, t
from game.ui.widgets.controls import Cycler, Toggle
from tools.screenshots import Autopilot

display = window_for_module((1280, 720))

NAMES = ["Ann", "Ben", "Cy", "Dee"]
HUMAN_AND_COMPUTERS = ["human", "ai:medium", "ai:medium", "ai:medium"]


@pytest.fixture
def app():
    return PreviewApp((1280, 720))


class Recorder:
    def __init__(self):
        self.calls = []

    def __call__(self, *args):
        self.calls.append(args)


def click(scene, pos):
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def key(scene, key_code, unicode=""):
    scene.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key_code, unicode=unicode, mod=0, scancode=0))


def until(app, pilot: Autopilot, condition, frames: int = 4000) -> bool:
    """Let the autopilot answer the human's dialogs until ``condition`` holds."""
    for _ in range(frames):
        if condition():
            return True
        if not pilot.answer_top():
            step(app)
    return condition()


# ---------------------------------------------------------------------------- states


def no_joker_discard_state(seed: int = 3, **rules):
    """Bid Whist without jokers at the declarer's discard: the first bidder bid 4 uptown,
    won it and named hearts."""
    state, _ = new_game(make_rules("bidwhist", {"jokers": False, **rules}), 4, seed)
    state, _ = apply(state, bid(4, 0))
    for _ in range(3):
        state, _ = apply(state, PASS)
    state, _ = apply(state, choose_trump(1))
    return state


def dealer_to_bid_state(dealer_takes: bool = True, seed: int = 3):
    """Bid Whist with the first bidder's 4 uptown and two passes: the dealer is to bid."""
    state, _ = new_game(make_rules("bidwhist", {"dealer_takes": dealer_takes}), 4, seed)
    for action in (bid(4, 0), PASS, PASS):
        state, _ = apply(state, action)
    assert state.current_player == state.view(-1).dealer
    return state


def boston_events(**rules):
    """A whole Bid Whist hand swept by the declarers, every event from the game's start:
    seat 0 holds both jokers and ten spades, bids 7 uptown in spades, lays the kitty
    away and takes every trick."""
    deal = bw_deal({0: "BJ LJ AS KS QS JS TS 9S 8S 7S 6S 5S"})
    state, events = new_game(make_rules("bidwhist", rules), 4, 1, first_dealer=3, fixed_deals={1: deal})
    state, more = drive(state, "7up pass pass pass trump:S")
    events += more
    assert isinstance(state, BidWhistState)
    for card in list(state.kitty):
        state, more = apply(state, discard(card))
        events += more
    while state.phase == Phase.PLAY:
        state, more = apply(state, state.legal_actions()[0])
        events += more
    return state, events


def history_of(rules: dict, events) -> dict:
    """The hand history the match would record for a game whose events are ``events``."""
    recorder = HistoryRecorder(
        get_game("bidwhist"),
        1,
        make_rules("bidwhist", rules).to_dict(),
        [{"seat": seat, "name": name, "controller": "human"} for seat, name in enumerate(NAMES)],
    )
    recorder.feed(events)
    return recorder.record


# ---------------------------------------------------------------------------- without jokers


def test_without_jokers_the_kitty_dialog_asks_for_four_of_sixteen_cards_in_two_even_rows(app):
    state = no_joker_discard_state()
    view = state.view(state.current_player)
    assert view.kitty_size == 4 and len(view.hand) == 16
    recorder = Recorder()
    dialog = KittyDialog(app, view, recorder)
    app.push(dialog)
    assert dialog.discard_count == 4
    assert dialog.title == t("kitty.title", count=4)
    assert dialog.confirm.label == t("kitty.confirm", count=4)
    assert sum(choice.from_kitty for choice in dialog.cards) == 4
    assert len(dialog.tray_slots) == 4
    rows: dict[int, int] = {}
    for choice in dialog.cards:
        rows[choice.rect.top] = rows.get(choice.rect.top, 0) + 1
    assert sorted(rows.values()) == [8, 8], f"the 16 cards lie in rows of {sorted(rows.values())}"
    for choice in dialog.cards[:3]:
        click(dialog, choice.rect.center)
    assert not dialog.confirm.enabled
    key(dialog, pygame.K_RETURN, "\r")
    assert recorder.calls == [] and t("kitty.need_more", count=1) in dialog.toast.text
    click(dialog, dialog.cards[3].rect.center)
    assert dialog.confirm.enabled
    key(dialog, pygame.K_RETURN, "\r")
    assert recorder.calls == [([choice.card for choice in dialog.cards[:4]],)]


def test_without_jokers_the_table_shows_a_kitty_of_four_and_the_declarers_sixteen_cards_fit(tmp_path):
    for size in ((800, 600), (1280, 720)):
        app = make_app(tmp_path / f"{size[0]}", size=size)
        scene = start(app, "bidwhist", HUMAN_AND_COMPUTERS, seed=1, jokers=False)
        pilot = Autopilot(app, scene)
        assert until(app, pilot, lambda: scene.director.idle and match_of(scene).phase == Phase.BID)
        assert len(scene.model.kitty) == 4, "the face-down kitty holds the rules' 4 cards"
        assert until(app, pilot, lambda: top_name(app) == "KittyDialog"), "seed 1: the human declares"
        step(app)
        assert len(scene.hand_cards()) == 16 and scene.model.kitty == []
        window = pygame.Rect((0, 0), size)
        for rect in scene.drag._positions():
            assert window.contains(rect), f"a card of the 16 lies outside the {size} window: {rect}"
        dialog = top(app, KittyDialog)
        assert dialog.discard_count == 4
        pilot.answer_top()
        step(app)
        assert len(match_of(scene).view(0).hand) == 12 and match_of(scene).phase == Phase.PLAY
        app.close(quit_pygame=False)


# ---------------------------------------------------------------------------- the dealer takes


def test_the_dealer_gets_a_take_it_row_that_applies_a_take(app):
    state = dealer_to_bid_state()
    view = state.view(state.current_player)
    recorder = Recorder()
    panel = BiddingPanel(app, view, NAMES, recorder)
    app.push(panel)
    takes = [take(4, mode) for mode in range(3)]
    assert panel.take_actions == takes
    for action in takes:
        button = panel.buttons[action]
        assert button.enabled and button.visible and button.kind == "primary"
        assert button.label == t(f"mode.{action.mode}")
    assert panel.take_label is not None
    # The row lies between the bids and Pass, and clear of both.
    row_top = panel.buttons[takes[0]].rect.top
    assert panel.buttons[bid(7, 2)].rect.bottom < row_top < panel.buttons[PASS].rect.top
    click(panel, panel.buttons[take(4, 1)].rect.center)
    assert recorder.calls == [(take(4, 1),)]
    after, events = apply(state, recorder.calls[0][0])
    assert after.view(-1).declarer == view.dealer, "the take made the dealer declarer"
    # The dealer then names trump, told that they took the contract (not that they won the bid).
    chooser = ContractChooser(app, after.view(view.dealer), Recorder())
    assert chooser.title == t("contract.title_trump")
    assert chooser.subtitle() == t("contract.took", bid=t("bid.words", books=4, mode=t("mode.1").lower()))


def test_the_take_buttons_are_reached_by_keyboard(app):
    state = dealer_to_bid_state()
    recorder = Recorder()
    panel = BiddingPanel(app, state.view(state.current_player), NAMES, recorder)
    app.push(panel)
    for _ in range(len(panel.focus.widgets)):
        if panel.focus.focused is panel.buttons[take(4, 2)]:
            break
        key(panel, pygame.K_TAB)
    assert panel.focus.focused is panel.buttons[take(4, 2)], "Tab reaches the take buttons"
    key(panel, pygame.K_RETURN, "\r")
    assert recorder.calls == [(take(4, 2),)]


def test_the_take_row_is_the_dealers_alone_and_only_under_the_rule(app):
    without_rule = dealer_to_bid_state(dealer_takes=False)
    panel = BiddingPanel(app, without_rule.view(without_rule.current_player), NAMES, Recorder())
    assert panel.take_actions == [] and panel.take_label is None
    assert not any(action.kind == ActionKind.TAKE for action in panel.buttons)
    state, _ = new_game(make_rules("bidwhist", {"dealer_takes": True}), 4, 3)
    state, _ = apply(state, bid(4, 0))  # the next seat bids: not the dealer
    view = state.view(state.current_player)
    assert view.current_player != view.dealer
    panel = BiddingPanel(app, view, NAMES, Recorder())
    assert not any(action.kind == ActionKind.TAKE for action in panel.buttons)


def test_a_take_reads_as_a_take_on_the_plate_in_the_log_and_on_the_score_pad(app):
    state, events = new_game(make_rules("bidwhist", {"dealer_takes": True}), 4, 3)
    state, more = drive(state, "4up pass pass take:4up")
    events += more
    public = state.view(-1)
    dealer = public.dealer
    assert isinstance(public, BidWhistView) and public.declarer == dealer
    assert bid_label(take(4, 0)) == t("table.bid_take", bid=t("table.bid_uptown", n=4))
    lines = [line.text for line in hand_log(events, NAMES, get_game("bidwhist"))]
    assert t("log.took", name=NAMES[dealer], bid=t("table.bid_uptown", n=4)) in lines
    model = TableModel.empty(get_game("bidwhist"), 4)
    model.sync(state.view(dealer))
    assert model.bid_labels[dealer] == bid_label(take(4, 0))
    # Played out, the hand's row on the score pad marks the contract as taken.
    state, more = apply(state, choose_trump(0))
    events += more
    while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        state, more = apply(state, state.legal_actions()[0])
        events += more
    history = history_of({"dealer_takes": True}, events)
    pad = ScorePad(app, score_history(history), NAMES)
    contract = score_history(history).deals[0].contract
    assert pad.rows[0].cells[3].text == t("pad.contract_taken", contract=contract_words(contract))


def test_a_hint_to_take_says_take(app):
    """The hint's instruction words the take (it said "No hint right now." for an action it
    could not word), with the reason the computer gives for its contract."""
    hint = SimpleNamespace(action=take(4, 2), reason_key="hint.take_books", params={"books": 4, "mode": 2, "n": 10})
    text = hint_text(hint)
    assert text.startswith(t("hint.do.take", bid=t("table.bid_notrump", n=4)))
    assert t("hint.failed") not in text


def banners_shown(game_def, events, seat: int, name_of=lambda s: NAMES[s], **director_options):
    """A table model after the director has played ``events`` (as ``seat`` sees
    them) to the end, and every banner it put up on the way."""
    model = TableModel.empty(game_def, 4)
    layout = compute_layout((1280, 720), 4, 0)
    director = Director(model, lambda: layout, lambda: 1.0, name_of, game_def, **director_options)
    director.enqueue(events, seat)
    banners = set()
    for _ in range(200):
        director.update(0.05)
        banners.add(model.banner)
        if director.idle:
            break
    return model, banners


# ---------------------------------------------------------------------------- Boston


def test_a_boston_is_announced_over_the_table_in_the_result_and_on_the_pad(app):
    state, events = boston_events(boston="double")
    scored = next(event for event in events if isinstance(event, BidWhistHandScored))
    assert scored.boston and scored.books[0] == 13
    game_def = get_game("bidwhist")
    team = t("team.names", a=NAMES[0], b=NAMES[2])
    # The result line (over the table once the hand is over, and at the pad's foot).
    result = hand_result(scored, NAMES, game_def)
    assert result is not None
    text, _ = result
    assert text == t("table.result_boston", team=team, change=f"{scored.score_change[0]:+d}")
    # The director puts the banner up while the score is counted.
    model, banners = banners_shown(game_def, [scored], -1)
    assert t("table.boston_banner", team=team) in banners
    assert model.banner is None, "the banner comes down again"
    # The score pad names it in the declarers' books.
    history = history_of({"boston": "double"}, events)
    pad = ScorePad(app, score_history(history), NAMES)
    assert any(cell.text == t("pad.boston", books=13) for row in pad.rows for cell in row.cells)


def test_a_boston_that_wins_the_game_is_the_end_screens_reason(app):
    state, events = boston_events(boston="wins_game", target_score=21)
    assert state.phase == Phase.GAME_OVER and state.view(-1).scores[0] < 21
    history = history_of({"boston": "wins_game", "target_score": 21}, events)
    assert history["complete"]
    end = EndScene(app, score_history(history), NAMES, Recorder(), Recorder())
    assert end.reason_line() == t("end.reason_boston", team=t("team.names", a=NAMES[0], b=NAMES[2]))


def test_no_boston_is_announced_where_the_house_does_not_play_one(app):
    state, events = boston_events()
    scored = next(event for event in events if isinstance(event, BidWhistHandScored))
    assert not scored.boston and scored.books[0] == 13
    result = hand_result(scored, NAMES, get_game("bidwhist"))
    assert result is not None
    text, _ = result
    assert "Boston" not in text
    pad = ScorePad(app, score_history(history_of({}, events)), NAMES)
    assert not any("Boston" in cell.text for row in pad.rows for cell in row.cells)


# ---------------------------------------------------------------------------- the ace low downtown


def test_with_the_ace_low_downtown_the_hand_and_the_kitty_dialog_put_the_ace_last(app):
    deal = bw_deal({0: "AS 2S 3S KS AH 2H 9H KH AD 2D AC 2C"})
    for ace_low, expected in ((False, cards("AS 2S 3S KS")), (True, cards("2S 3S KS AS"))):
        state = bw_game(deal, dealer=3, downtown_ace="low" if ace_low else "high")
        state, _ = drive(state, "4down pass pass pass trump:S")
        view = state.view(0)
        model = TableModel.empty(get_game("bidwhist"), 4)
        model.sync(view)
        spades = [card for card in model.sorted_hand(0) if card in expected]
        assert spades == expected, f"ace {'low' if ace_low else 'high'}: the table sorts {spades}"
        dialog = KittyDialog(app, view, Recorder())
        shown = [choice.card for choice in dialog.cards if choice.card in expected]
        assert shown == expected, f"ace {'low' if ace_low else 'high'}: the kitty dialog sorts {shown}"


def test_the_no_trump_ranking_help_shows_the_ace_where_the_rules_rank_it(app):
    for rule, help_key in (("high", "contract.downtown_help"), ("low", "contract.downtown_help_ace_low")):
        state, _ = new_game(make_rules("bidwhist", {"downtown_ace": rule}), 4, 3)
        state, _ = drive(state, "4nt pass pass pass")
        chooser = ContractChooser(app, state.view(state.current_player), Recorder())
        downtown = next(button for button in chooser.buttons if button.label == t("contract.downtown"))
        assert downtown.sublabel == t(help_key)
        assert chooser.legal == {choose_direction(0), choose_direction(1)}


# ---------------------------------------------------------------------------- Wizard turn-up


def wizard_turn_up_game(rule: str, players: int = 4, dealer: int = 2):
    """Round 1 of Wizard with a Wizard turned up, dealt by ``dealer``."""
    deal = wz_deal(players, 1, {}, "WZ")
    rules = make_rules("wizard", {"wizard_turn_up": rule}, players=players)
    return new_game(rules, players, 1, first_dealer=dealer, fixed_deals={1: deal})


def test_the_player_left_of_the_dealer_is_shown_choosing_trump(app):
    state, events = wizard_turn_up_game("first_bidder_chooses")
    turned = next(event for event in events if isinstance(event, TrumpTurnedUp))
    assert turned.chooser == 3 and state.current_player == 3
    game_def = get_game("wizard")
    model, banners = banners_shown(game_def, [turned], 3)
    assert t("table.dealer_chooses", name=NAMES[3]) in banners
    assert model.trump_pending and model.trump_chooser == 3
    # The chooser at the screen is spoken to (a player called "You" read "You chooses trump").
    _, banners = banners_shown(game_def, [turned], 3, name_of=lambda seat: "You", looking=lambda: 3)
    assert t("table.you_choose_trump") in banners and t("table.dealer_chooses", name="You") not in banners
    # The corner panel names the chooser: to the others by name, to the chooser as "you".
    for viewer, words in ((0, t("table.dealer_chooses", name=NAMES[3])), (3, t("table.you_choose_trump"))):
        synced = TableModel.empty(game_def, 4)
        synced.sync(state.view(viewer))
        assert synced.trump_chooser == 3
        table_view = TableView(app)
        table_view.viewer = viewer
        lines, _ = table_view._prediction_indicator(synced, NAMES)
        assert ("text", words) in lines
    # The chooser's dialog says why it is theirs to choose.
    chooser = ContractChooser(app, state.view(3), Recorder())
    assert chooser.dealer_names_trump
    assert len([button for button in chooser.buttons if button.enabled]) == 4


def test_at_the_table_the_trump_chooser_opens_for_the_human_left_of_the_dealer(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", HUMAN_AND_COMPUTERS, seed=3, wizard_turn_up="first_bidder_chooses")
    pilot = Autopilot(app, scene)
    assert until(app, pilot, lambda: top_name(app) == "ContractChooser"), "seed 3: a Wizard turned up in round 1"
    public = match_of(scene).view(-1)
    assert public.phase == Phase.TRUMP_CHOICE and public.current_player == 0 and public.dealer == 3
    assert top(app, ContractChooser).subtitle() == t("contract.wizard_help_left")
    lines, _ = scene.view._prediction_indicator(scene.model, scene.names)
    assert ("text", t("table.you_choose_trump")) in lines
    app.close(quit_pygame=False)


def test_the_dealer_still_chooses_by_default_and_no_trump_shows_no_trump(app):
    state, _ = wizard_turn_up_game("dealer_chooses")
    assert state.current_player == 2
    chooser = ContractChooser(app, state.view(2), Recorder())
    assert chooser.dealer_names_trump and chooser.subtitle() == t("contract.wizard_help")
    state, events = wizard_turn_up_game("no_trump")
    assert state.phase == Phase.PREDICT
    model = TableModel.empty(get_game("wizard"), 4)
    model.sync(state.view(0))
    assert not model.trump_pending and model.turn_up == parse_card("WZ")
    table_view = TableView(app)
    lines, suit = table_view._prediction_indicator(model, NAMES)
    assert ("big", t("table.no_trump")) in lines and suit == -2
    log = [line.text for line in hand_log(events, NAMES, get_game("wizard"))]
    said = t("log.turn_up_no_trump", card=t("card.wizard"))
    assert said[:1].upper() + said[1:] in log


def test_the_first_bidders_chooser_dialog_says_they_sit_left_of_the_dealer(app, audit):
    state, _ = wizard_turn_up_game("first_bidder_chooses")
    chooser = ContractChooser(app, state.view(3), Recorder())
    assert chooser.subtitle() == t("contract.wizard_help_left")
    _draw(app, chooser, (800, 600))
    assert t("contract.wizard_help_left") in audit.drawn
    assert not audit.problems, audit.report()


# ---------------------------------------------------------------------------- rule editor and presets


def test_the_rule_editor_edits_the_new_keys(app):
    done = Recorder()
    editor = RulesEditor(app, "bidwhist", {}, {}, 4, done)
    widgets = {spec.key: widget for spec, widget in editor.rows}
    assert {"jokers", "dealer_takes", "boston", "downtown_ace"} <= set(widgets)
    # Each new key reads as words: a label, a help line and a name for each of its values.
    for game in ("bidwhist", "wizard"):
        for spec in get_game(game).rule_specs:
            assert has_text(f"rule.{spec.key}.label") and has_text(f"rule.{spec.key}.help"), spec.key
            for choice in spec.choices:
                assert has_text(f"rule.{spec.key}.{choice}"), f"{spec.key}: {choice}"
    assert isinstance(widgets["jokers"], Toggle) and widgets["jokers"].value is True
    assert isinstance(widgets["boston"], Cycler)
    assert widgets["boston"].labels == [t("rule.boston.off"), t("rule.boston.double"), t("rule.boston.wins_game")]
    for name, value in (("jokers", False), ("dealer_takes", True), ("boston", "wins_game"), ("downtown_ace", "low")):
        editor.set_value(name, value)
    assert editor.problem is None
    editor._done()
    assert done.calls == [({"jokers": False, "dealer_takes": True, "boston": "wins_game", "downtown_ace": "low"},)]
    wizard = RulesEditor(app, "wizard", {}, {}, 4, Recorder())
    turn_up = next(widget for spec, widget in wizard.rows if spec.key == "wizard_turn_up")
    assert isinstance(turn_up, Cycler)
    assert turn_up.labels == [
        t(f"rule.wizard_turn_up.{value}") for value in ("dealer_chooses", "first_bidder_chooses", "no_trump")
    ]


def test_the_start_screen_offers_the_new_presets_and_builds_their_rules(app):
    start_screen = StartScene(app)
    presets = [preset.name for preset in start_screen.catalog["bidwhist"].presets]
    assert "no_jokers" in presets
    start_screen.set_preset(presets.index("no_jokers"))
    assert start_screen.rule_values()["jokers"] is False
    start_screen.set_game("wizard")
    presets = [preset.name for preset in start_screen.catalog["wizard"].presets]
    assert "first_bidder_trump" in presets
    start_screen.set_preset(presets.index("first_bidder_trump"))
    assert start_screen.rule_values()["wizard_turn_up"] == "first_bidder_chooses"


# ---------------------------------------------------------------------------- the idle loop


def test_the_new_dialogs_over_the_table_wait_for_input_without_frames(tmp_path):
    """The take-it panel and the four-card kitty dialog, open at the table, and the rule
    editor over the start screen cost no frames while the player thinks."""
    for rules, dialog in (({"dealer_takes": True}, "BiddingPanel"), ({"jokers": False}, "KittyDialog")):
        app = make_app(tmp_path / dialog)
        scene = start(app, "bidwhist", HUMAN_AND_COMPUTERS, seed=1, **rules)
        pilot = Autopilot(app, scene)

        def opened(dialog: str = dialog) -> bool:
            shown = app.top_scene()
            if dialog == "BiddingPanel":  # the panel that offers the dealer's take
                return isinstance(shown, BiddingPanel) and bool(shown.take_actions)
            return top_name(app) == dialog

        assert until(app, pilot, opened), "seed 1: the human deals, then declares"
        settle(app)
        step(app)
        assert app.frame_wait() is None, f"the {dialog} keeps the loop busy"
        app.close(quit_pygame=False)
    app = make_app(tmp_path / "start")
    top(app, StartScene).open_rules_editor()
    assert top_name(app) == "RulesEditor"
    settle(app)
    assert app.frame_wait() is None


# ---------------------------------------------------------------------------- text fits


@pytest.mark.parametrize("size", WINDOW_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_new_screens_fit_their_text(app, tables, audit: TextAudit, size):
    """The new dialogs open over a real table (which keeps them clear of its corner panels),
    with names as long as the name field takes."""
    table = tables["bidwhist"]
    state = dealer_to_bid_state()
    _, events = boston_events(boston="double")
    discarding = no_joker_discard_state()
    long_names = ["Şükrü Çelikkol", "Maximiliaan V.", "Gülşen Yıldız", "Bartholomeüs"]
    scored = next(event for event in events if isinstance(event, BidWhistHandScored))
    # The widest taken contract: 7 downtown, diamonds trump, taken by the dealer.
    taken, take_events = new_game(make_rules("bidwhist", {"dealer_takes": True}), 4, 3)
    taken, more = drive(taken, "7down pass pass take:7down trump:D")
    take_events += more
    while taken.phase == Phase.DISCARD or taken.phase == Phase.PLAY:
        taken, more = apply(taken, taken.legal_actions()[0])
        take_events += more
    scenes = [
        ("take-it panel", BiddingPanel(app, state.view(state.current_player), long_names, Recorder())),
        ("kitty dialog without jokers", KittyDialog(app, discarding.view(discarding.current_player), Recorder())),
        (
            "Boston score pad",
            ScorePad(
                app,
                score_history(history_of({"boston": "double"}, events)),
                long_names,
                result=hand_result(scored, long_names, get_game("bidwhist")),
            ),
        ),
        (
            "score pad with a taken contract",
            ScorePad(app, score_history(history_of({"dealer_takes": True}, take_events)), long_names),
        ),
        (
            "game won by a Boston",
            EndScene(
                app,
                score_history(
                    history_of(
                        {"boston": "wins_game", "target_score": 21},
                        boston_events(boston="wins_game", target_score=21)[1],
                    )
                ),
                long_names,
                Recorder(),
                Recorder(),
            ),
        ),
    ]
    problems = []
    for what, scene in scenes:
        audit.problems.clear()
        _draw(app, scene.attach_host(table), size)
        if audit.problems:
            problems.append(f"{what}:\n{audit.report()}")
    assert (
        t("pad.contract_taken", contract=contract_words(ContractLine(7, "downtown", "D", "uptown"))) in audit.drawn
    ), "the taken contract was drawn"
    # The rule editors, with the help of every rule as the editor shows it for the focused row.
    for game, players in (("bidwhist", 4), ("wizard", 6)):
        editor = RulesEditor(app, game, {}, {}, players, Recorder())
        for spec, widget in editor.rows:
            audit.problems.clear()
            editor.focus.focus(widget, keyboard=True)
            _draw(app, editor, size)
            if audit.problems:
                problems.append(f"{game} rules, help of {spec.key}:\n{audit.report()}")
    # The start screen with each preset chosen: its description and the eleven rules in play.
    start_screen = StartScene(app)
    for game in ("bidwhist", "wizard"):
        start_screen.set_game(game)
        for index, preset in enumerate(start_screen.catalog[game].presets):
            start_screen.set_preset(index)
            audit.problems.clear()
            _draw(app, start_screen, size)
            if audit.problems:
                problems.append(f"start screen, {game} preset {preset.name}:\n{audit.report()}")
    assert not problems, "text that does not fit its box:\n" + "\n".join(problems)
