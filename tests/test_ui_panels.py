"""Headless tests of the panels and dialogs: bidding, contract, kitty, score pad, end, start.

Scenes are built from real engine states (``new_game`` + ``apply``) and driven
with synthesized mouse and keyboard events, against the real ``App`` (without
its window loop) when it can be created, else a small stand-in.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pytest

from ui_states import (
    NAMES4,
    PreviewApp,
    RecordingApp,
    bidwhist_bid_state,
    contract_state,
    discard_state,
    finished_match,
    forced_dealer_state,
    window_for_module,
    wizard_bid_state,
)

from game.rules import Phase, make_rules
from game.rules.tricks import PUBLIC_SEAT
from game.rules.view import WizardView
from game.rules.actions import PASS, bid, choose_direction, choose_trump, predict
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.contract_chooser import ContractChooser
from game.session.match import Match, Seat
from game.persistence.history_codec import score_history
from game.ui.dialogs.end_scene import EndScene
from game.ui.dialogs.kitty_dialog import KittyDialog, cards_per_row
from game.ui.scenes.rules_editor import RulesEditor
from game.ui.dialogs.score_pad import ScorePad
from game.ui.scenes.settings_scene import SettingsScene
from game.ui.scenes.start_scene import StartScene
from game.ui.text import t
from game.ui.widgets.button import Button
from game.ui.widgets.scroll import ScrollingDialog
from game.ui.widgets.text import draw_text_fit, draw_text_wrapped

display = window_for_module((1280, 720))


@pytest.fixture
def app(tmp_path, monkeypatch):
    """The real App without its loop (start_match recorded), or the stand-in."""
    try:
        real = RecordingApp(str(tmp_path), (1280, 720))
    except Exception:
        return PreviewApp((1280, 720))
    real.record_starts(monkeypatch)
    return real


def click(scene, pos):
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def key(scene, key_code, unicode="", mod=0):
    scene.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key_code, unicode=unicode, mod=mod, scancode=0))


def typed(scene, text):
    scene.handle_event(pygame.event.Event(pygame.TEXTINPUT, text=text))


class Recorder:
    def __init__(self):
        self.calls = []

    def __call__(self, *args):
        self.calls.append(args)


def push(app, scene):
    app.push(scene)
    return scene


# ---------------------------------------------------------------------------- Bid Whist bidding


def test_bidwhist_disabled_bids_refused_and_legal_bid_chosen(app):
    state = bidwhist_bid_state()  # first bidder bid 4 uptown, second passed
    recorder = Recorder()
    panel = push(app, BiddingPanel(app, state.view(state.current_player), NAMES4, recorder))
    too_low = panel.buttons[bid(3, 0)]
    assert not too_low.enabled and not panel.buttons[bid(4, 1)].enabled
    assert panel.buttons[bid(4, 2)].enabled  # 4 no trump overcalls 4 uptown
    click(panel, too_low.rect.center)
    assert recorder.calls == []
    assert panel.toast.active and "higher than 4 uptown" in panel.toast.text
    click(panel, panel.buttons[bid(5, 1)].rect.center)
    assert recorder.calls == [(bid(5, 1),)]
    assert panel not in getattr(app, "scenes", getattr(app, "stack", []))
    # Every enabled button is exactly a legal action.
    legal = set(state.legal_actions())
    assert {a for a, b in panel.buttons.items() if b.enabled} == legal


def test_bidwhist_pass_hotkey_chooses_pass_and_enter_passes(app):
    state = bidwhist_bid_state()
    recorder = Recorder()
    panel = push(app, BiddingPanel(app, state.view(state.current_player), NAMES4, recorder))
    key(panel, pygame.K_p, "p")
    key(panel, pygame.K_p, "p")  # pressed twice, still only chosen
    assert recorder.calls == []
    assert panel.focus.focused is panel.buttons[PASS] and panel.buttons[PASS].show_focus_ring
    assert panel.toast.active and panel.toast.text == t("keys.chosen", choice=t("bid.pass"))
    key(panel, pygame.K_RETURN, "\r")
    assert recorder.calls == [(PASS,)]


def test_forced_dealer_cannot_pass(app):
    state = forced_dealer_state()
    recorder = Recorder()
    panel = push(app, BiddingPanel(app, state.view(state.current_player), NAMES4, recorder))
    pass_button = panel.buttons[PASS]
    assert not pass_button.enabled
    assert pass_button.reason == t("error.dealer_must_bid")
    key(panel, pygame.K_p, "p")
    click(panel, pass_button.rect.center)
    assert recorder.calls == []
    # The first arrow goes to the lowest bid allowed, and Enter bids it.
    key(panel, pygame.K_RIGHT)
    key(panel, pygame.K_RETURN, "\r")
    assert recorder.calls == [(bid(3, 0),)]


def test_bids_so_far_are_shown_by_seat_name(app):
    state = bidwhist_bid_state()
    view = state.view(state.current_player)
    panel = BiddingPanel(app, view, NAMES4, Recorder())
    surface = pygame.Surface((1280, 720))
    panel.draw(surface)  # draws the chips without error
    assert view.high_bidder >= 0


# ---------------------------------------------------------------------------- Wizard bidding


def test_wizard_forbidden_bid_disabled_with_reason(app):
    state = wizard_bid_state(uneven_bids="always")
    view = state.view(state.current_player)
    forbidden = view.forbidden_bid
    assert forbidden >= 0
    recorder = Recorder()
    panel = push(app, BiddingPanel(app, view, ["You", "Ada", "Bruno", "Cleo"], recorder))
    button = panel.buttons[predict(forbidden)]
    assert not button.enabled
    expected = f"The dealer may not bid {forbidden}: the bids would add up to {view.tricks_per_hand}"
    assert expected in button.reason and expected in panel.forbidden_reason
    click(panel, button.rect.center)
    assert recorder.calls == []
    # Typing the forbidden bid says why at once and chooses nothing.
    key(panel, pygame.K_0 + forbidden, str(forbidden))
    assert recorder.calls == [] and panel.typed == "" and expected in panel.toast.text
    allowed = next(n for n in range(view.tricks_per_hand + 1) if n != forbidden)
    key(panel, pygame.K_0 + allowed, str(allowed))
    assert recorder.calls == [] and panel.focus.focused is panel.buttons[predict(allowed)]
    key(panel, pygame.K_RETURN, "\r")
    assert recorder.calls == [(predict(allowed),)]


def test_wizard_hidden_bidding_shows_only_own_info(app):
    state = wizard_bid_state(players=3, rounds_played=13, bidding="hidden")
    view = state.view(state.current_player)
    assert all(p == -1 for s, p in enumerate(view.predictions) if s != view.seat)
    panel = BiddingPanel(app, view, ["You", "Ada", "Bruno"], Recorder())
    assert panel.secret_note == t("bid.secret_hidden")
    panel.draw(pygame.Surface((1280, 720)))
    # Two-digit bids: "1" waits (10.. could follow), "2" makes it 12, and Enter bids it.
    recorder = Recorder()
    panel = push(app, BiddingPanel(app, view, ["You", "Ada", "Bruno"], recorder))
    key(panel, pygame.K_1, "1")
    assert recorder.calls == [] and panel.typed == "1"
    key(panel, pygame.K_2, "2")
    assert recorder.calls == [] and panel.typed == "12" and panel.focus.focused is panel.buttons[predict(12)]
    key(panel, pygame.K_BACKSPACE)  # back to 1, which has the focus again
    assert panel.typed == "1" and panel.focus.focused is panel.buttons[predict(1)]
    key(panel, pygame.K_2, "2")
    key(panel, pygame.K_KP_ENTER)
    assert recorder.calls == [(predict(12),)]


def test_a_refused_bid_that_begins_a_larger_one_waits_for_its_second_digit(app):
    """The dealer under the uneven-bids rule, 12 cards each, the others' bids adding up to 11:
    1 is refused, but typing 1 must still lead to 10, 11 or 12."""
    match = Match(
        make_rules("wizard", {"uneven_bids": "always"}, players=4),
        [Seat(n, "ai:random") for n in ["You", "Ada", "Bruno", "Cleo"]],
        5,
    )
    while match.deal_number <= 11 or match.phase != Phase.PREDICT:
        if match.phase == Phase.HAND_OVER:
            match.next_deal()
        else:
            match.apply(match.choose_ai_action())
    for number in (4, 4, 3):
        assert match.phase == Phase.PREDICT and match.current_player != match.view(PUBLIC_SEAT).dealer
        match.apply(predict(number))
    view = match.view(match.current_player)
    assert isinstance(view, WizardView) and view.forbidden_bid == 1 and predict(11) in view.legal_actions
    recorder = Recorder()
    panel = push(app, BiddingPanel(app, view, ["You", "Ada", "Bruno", "Cleo"], recorder))
    key(panel, pygame.K_1, "1")
    assert panel.typed == "1" and recorder.calls == []
    key(panel, pygame.K_1, "1")
    assert panel.focus.focused is panel.buttons[predict(11)]
    key(panel, pygame.K_RETURN, "\r")
    assert recorder.calls == [(predict(11),)]


def test_a_typed_wizard_bid_is_only_chosen_and_an_arrow_chooses_another(app):
    state = wizard_bid_state(players=3, rounds_played=13, bidding="hidden")
    view = state.view(state.current_player)
    recorder = Recorder()
    panel = push(app, BiddingPanel(app, view, ["You", "Ada", "Bruno"], recorder))
    for digit in "3", "4", "2":  # keys mashed: each digit only chooses
        key(panel, pygame.K_0 + int(digit), digit)
    assert recorder.calls == []
    assert panel.typed == "2" and panel.focus.focused is panel.buttons[predict(2)]
    key(panel, pygame.K_RIGHT)  # the arrow chooses 3: Enter bids what has the focus, not what was typed
    assert panel.typed == "" and panel.focus.focused is panel.buttons[predict(3)]
    key(panel, pygame.K_RETURN, "\r")
    assert recorder.calls == [(predict(3),)]


#: Every key a hurried or careless hand may hit on a panel: letters, digits (keypad too), Space, Enter.
ANY_SINGLE_KEY = (
    [(pygame.K_a + i, chr(ord("a") + i)) for i in range(26)]
    + [(pygame.K_0 + i, str(i)) for i in range(10)]
    + [(pygame.K_KP0 + i, str(i)) for i in range(10)]
    + [(pygame.K_SPACE, " "), (pygame.K_RETURN, "\r"), (pygame.K_KP_ENTER, "\r")]
)


@pytest.mark.parametrize("decision", ["bidwhist bid", "wizard bid", "trump", "direction"])
def test_no_single_key_makes_a_bid_or_names_trump(app, decision):
    """A bid or a trump is always a choice and then Enter (or one click): no one key makes it,
    whichever it is, on a panel just opened."""
    for code, unicode in ANY_SINGLE_KEY:
        recorder = Recorder()
        if decision == "bidwhist bid":
            state = bidwhist_bid_state()
            scene = push(app, BiddingPanel(app, state.view(state.current_player), NAMES4, recorder))
        elif decision == "wizard bid":
            state = wizard_bid_state(players=3, rounds_played=4)
            scene = push(app, BiddingPanel(app, state.view(state.current_player), ["You", "Ada", "Bruno"], recorder))
        else:
            state = contract_state(0 if decision == "trump" else 2)
            scene = push(app, ContractChooser(app, state.view(state.current_player), recorder))
        key(scene, code, unicode)
        assert recorder.calls == [], f"{pygame.key.name(code)} alone decided {recorder.calls} ({decision})"


# ---------------------------------------------------------------------------- contract chooser


def test_trump_chooser_returns_suit_action(app):
    state = contract_state(0)
    recorder = Recorder()
    chooser = push(app, ContractChooser(app, state.view(state.current_player), recorder))
    assert len(chooser.buttons) == 4
    key(chooser, pygame.K_h, "h")
    assert recorder.calls == [] and chooser.focus.focused is chooser.buttons[1]
    key(chooser, pygame.K_SPACE, " ")
    assert recorder.calls == [(choose_trump(1),)]
    recorder2 = Recorder()
    chooser = push(app, ContractChooser(app, state.view(state.current_player), recorder2))
    click(chooser, chooser.buttons[3].rect.center)
    assert recorder2.calls == [(choose_trump(3),)]


def test_no_trump_chooser_offers_directions(app):
    state = contract_state(2)
    recorder = Recorder()
    chooser = push(app, ContractChooser(app, state.view(state.current_player), recorder))
    assert [b.label for b in chooser.buttons] == [t("contract.uptown"), t("contract.downtown")]
    key(chooser, pygame.K_d, "d")
    assert recorder.calls == [] and chooser.focus.focused is chooser.buttons[1]
    key(chooser, pygame.K_1, "1")  # the other key of Uptown: chooses it instead
    assert chooser.focus.focused is chooser.buttons[0]
    key(chooser, pygame.K_RETURN, "\r")
    assert recorder.calls == [(choose_direction(0),)]


# ---------------------------------------------------------------------------- kitty


def test_kitty_confirm_needs_exactly_six(app):
    state = discard_state()
    view = state.view(state.current_player)
    assert len(view.hand) == 18 and len(view.kitty) == 6
    recorder = Recorder()
    dialog = push(app, KittyDialog(app, view, recorder))
    assert sum(c.from_kitty for c in dialog.cards) == 6
    assert dialog.cards[0].card == 52 or view.trump >= 0  # jokers lead a trump contract
    for choice in dialog.cards[:5]:
        click(dialog, choice.rect.center)
    assert not dialog.confirm.enabled
    key(dialog, pygame.K_RETURN, "\r")
    assert recorder.calls == [] and "1 more" in dialog.toast.text
    for choice in dialog.cards[5:7]:
        click(dialog, choice.rect.center)
    assert len(dialog.selected) == 7 and not dialog.confirm.enabled
    click(dialog, dialog.cards[0].shown_rect.center)  # unselect one: the choice can change
    # Keyboard: focus is on a card; Space toggles. Move to card 8 and select it.
    dialog.focus.focus(dialog.cards[6], keyboard=True)
    key(dialog, pygame.K_RIGHT)
    assert dialog.focus.focused is dialog.cards[7]
    key(dialog, pygame.K_SPACE, " ")
    assert len(dialog.selected) == 7
    key(dialog, pygame.K_SPACE, " ")
    assert len(dialog.selected) == 6 and dialog.confirm.enabled
    chosen = dialog.selected
    key(dialog, pygame.K_RETURN, "\r")
    assert recorder.calls == [(chosen,)]
    assert len(chosen) == 6 and set(chosen) <= set(view.hand)


def test_kitty_left_and_right_stay_in_the_cards_wrapping_between_the_rows(app):
    """Right at the end of the top row once jumped to the Discard button: it now goes on
    to the next row's first card, and at either end of the hand the focus stays put."""
    state = discard_state()
    dialog = push(app, KittyDialog(app, state.view(state.current_player), Recorder()))
    per_row = cards_per_row(len(dialog.cards))
    assert len(dialog.cards) > per_row, "two rows"
    end_of_top = dialog.cards[per_row - 1]
    dialog.focus.focus(end_of_top, keyboard=True)
    key(dialog, pygame.K_RIGHT)
    assert dialog.focus.focused is dialog.cards[per_row]
    assert dialog.cards[per_row].rect.top > end_of_top.rect.top, "the first card of the next row"
    key(dialog, pygame.K_LEFT)
    assert dialog.focus.focused is end_of_top
    dialog.focus.focus(dialog.cards[-1], keyboard=True)
    key(dialog, pygame.K_RIGHT)
    assert dialog.focus.focused is dialog.cards[-1]
    dialog.focus.focus(dialog.cards[0], keyboard=True)
    key(dialog, pygame.K_LEFT)
    assert dialog.focus.focused is dialog.cards[0]
    # Down from the bottom row still reaches the buttons, and Tab still goes round.
    dialog.focus.focus(dialog.cards[-1], keyboard=True)
    key(dialog, pygame.K_DOWN)
    assert dialog.focus.focused not in dialog.cards


def drag(scene, start, end, steps=4):
    """Press at ``start``, move in a few steps to ``end`` and release there."""
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    for i in range(1, steps + 1):
        pos = (start[0] + (end[0] - start[0]) * i // steps, start[1] + (end[1] - start[1]) * i // steps)
        scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0)))
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))


def test_kitty_cards_drag_into_and_out_of_the_discard_tray(app):
    state = discard_state()
    view = state.view(state.current_player)
    recorder = Recorder()
    dialog = push(app, KittyDialog(app, view, recorder))
    tray = dialog.tray_rect
    assert tray.width > 1 and all(tray.contains(slot) for slot in dialog.tray_slots)
    assert all(not tray.colliderect(choice.shown_rect) for choice in dialog.cards)
    # Six cards dragged onto the tray join the discard, in the hand's order.
    for choice in dialog.cards[-6:]:
        drag(dialog, choice.rect.center, tray.center)
    assert dialog.selected == [c.card for c in dialog.cards[-6:]] and dialog.confirm.enabled
    placed = dict((choice.card, slot) for choice, slot in dialog.tray_places())
    assert set(placed) == set(dialog.selected)
    # Dragging a card out of the tray back to the hand removes it.
    out = dialog.cards[-1]
    drag(dialog, placed[out.card].center, dialog.cards[0].rect.center)
    assert out.card not in dialog.selected and not dialog.confirm.enabled
    # A raised card dragged off its place (not onto the tray) goes back too.
    raised = dialog.cards[-2]
    drag(dialog, raised.shown_rect.center, (raised.rect.centerx, dialog.help_rect.centery))
    assert raised.card not in dialog.selected
    # A short wobble is still a click: it toggles; a drag from hand to hand changes nothing.
    drag(dialog, dialog.cards[0].rect.center, (dialog.cards[0].rect.centerx + 2, dialog.cards[0].rect.centery))
    assert dialog.cards[0].card in dialog.selected
    drag(dialog, dialog.cards[1].rect.center, dialog.cards[4].rect.center)
    assert dialog.cards[1].card not in dialog.selected
    # While dragging, the card follows the pointer (drawn over the dialog).
    surface = pygame.Surface(app.size)
    dialog.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=dialog.cards[2].rect.center, button=1))
    dialog.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=tray.center, rel=(0, 0), buttons=(1, 0, 0)))
    dialog.draw(surface)
    assert dialog.drag is not None and dialog.drag.moved
    dialog.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=tray.center, button=1))
    assert len(dialog.selected) == 6 and dialog.confirm.enabled
    click(dialog, dialog.confirm.rect.center)
    assert len(recorder.calls) == 1 and len(recorder.calls[0][0]) == 6


# ---------------------------------------------------------------------------- score pad and end


def test_score_pad_rows_match_wizard_history(app):
    match = finished_match("wizard", players=4, seed=3, rounds=5)
    history = match.history()
    pad = ScorePad(app, score_history(history), ["You", "Ada", "Bruno", "Cleo"], Recorder())
    assert len(pad.rows) == len(history["deals"]) == 5
    for row, deal in zip(pad.rows, history["deals"]):
        totals = [row.cells[1 + 4 * seat + 3].text for seat in range(4)]
        assert totals == [str(s) for s in deal["scores"]]
        bids = {b["seat"]: b["bid"] for b in deal["bids"]}
        assert [row.cells[1 + 4 * seat].text for seat in range(4)] == [str(bids[s]) for s in range(4)]


def test_no_separator_line_cuts_through_the_being_played_note(app):
    match = Match(make_rules("wizard", {"rounds": 3}, players=4), [Seat(n) for n in NAMES4], 3)
    for _ in range(2):  # into round 1, a deal being played
        match.apply(match.legal_actions()[0])
    pad = ScorePad(app, score_history(match.history()), NAMES4, Recorder())
    row = pad.rows[-1]
    assert row.note and row.dim
    start, end = pad._note_span(row)
    separators = [i for i, c in enumerate(pad.columns) if c.group and pad.columns[i - 1].group != c.group]
    inside = [i for i in separators if start < i < end]
    assert inside, "the note spans the players' groups"
    row_top = (len(pad.rows) - 1) * pad.row_h
    for index in inside:
        for top, bottom in pad._separator_runs(index, len(pad.rows) * pad.row_h):
            assert bottom < row_top or top >= row_top + pad.row_h, "a separator crosses the note's row"
    pad.draw(pygame.Surface(app.size))


def test_score_pad_rows_match_bidwhist_history_and_close(app):
    match = finished_match("bidwhist", seed=21, target_score=3)
    history = match.history()
    closed = Recorder()
    pad = push(app, ScorePad(app, score_history(history), NAMES4, closed, close_key="pad.next_hand"))
    assert len(pad.rows) == len(history["deals"])
    last = history["deals"][-1]
    if not last.get("redeal"):
        assert [pad.rows[-1].cells[6].text, pad.rows[-1].cells[7].text] == [str(s) for s in last["scores"]]
    click(pad, pad.close_button.rect.center)
    assert closed.calls == [()]


def test_end_scene_names_the_winner(app):
    match = finished_match("wizard", players=3, seed=5, rounds=3)
    history = match.history()
    names = ["You", "Ada", "Bruno"]
    scene = EndScene(app, score_history(history), names, Recorder(), Recorder())
    winners = history["winners"]
    for seat in winners:
        assert names[seat] in scene.winner_line()
    match = finished_match("bidwhist", seed=8, target_score=2)
    history = match.history()
    again, back = Recorder(), Recorder()
    scene = push(app, EndScene(app, score_history(history), NAMES4, again, back))
    team = history["winners"][0]
    assert NAMES4[team] in scene.winner_line() and NAMES4[team + 2] in scene.winner_line()
    click(scene, scene.play_again.rect.center)
    assert again.calls == [()] and back.calls == []


# ---------------------------------------------------------------------------- start screen


def test_start_screen_default_bidwhist(app):
    start = push(app, StartScene(app))
    click(start, start.start_button.rect.center)
    rules, seats, _ = app.started
    assert rules == make_rules("bidwhist")
    assert [s.controller for s in seats] == ["human", "ai:medium", "ai:medium", "ai:medium"]
    assert seats[0].name == t("start.default_human")


def test_start_screen_wizard_seats_names_and_rule_editor(app):
    start = push(app, StartScene(app))
    click(start, start.game_buttons["wizard"].rect.center)
    assert start.game == "wizard"
    start.set_players(5)
    # Seat 2 becomes human and gets a new name through the keyboard.
    click(start, start.kind_cyclers[2].rect.center)
    click(start, start.name_inputs[2].rect.center)
    for _ in range(10):
        key(start, pygame.K_BACKSPACE)
    typed(start, "Zoe")
    # The rule editor changes the number of rounds.
    click(start, start.rules_button.rect.center)
    editor = app.scenes[-1] if hasattr(app, "scenes") else app.stack[-1]
    assert isinstance(editor, RulesEditor)
    editor.set_value("rounds", 4)
    click(editor, editor.done_button.rect.center)
    assert start.edits["wizard"] == {"rounds": 4}
    click(start, start.start_button.rect.center)
    rules, seats, _ = app.started
    assert rules.game == "wizard" and rules.rounds == 4 and len(seats) == 5
    assert seats[2].name == "Zoe" and seats[2].is_human


@pytest.fixture
def three_levels(monkeypatch):
    """Every game offers the yardstick and the three player levels, as once the lead wires them."""
    import game.ui.scenes.start_scene as start_module

    monkeypatch.setattr(start_module, "ai_levels", lambda game_def: ("random", "easy", "medium", "hard"))


def test_each_computer_seat_has_a_level_defaulting_to_medium(app, three_levels):
    start = push(app, StartScene(app))
    cycler = start.level_cyclers[1]
    assert cycler.choices == ["easy", "medium", "hard"], "the random yardstick is not offered"
    assert cycler.labels == [t("level.easy"), t("level.medium"), t("level.hard")]
    assert all(start.level_cyclers[i].value == "medium" for i in (1, 2, 3))
    # The human seat has no level; each computer seat's level is in the focus order after its switch.
    assert not start.level_cyclers[0].visible and start.level_cyclers[0] not in start.focus.widgets
    order = start.focus.widgets
    assert order.index(start.level_cyclers[1]) == order.index(start.kind_cyclers[1]) + 1
    # Keyboard: focus seat 1's level and step it down to easy; click seat 3's up to hard.
    start.focus.focus(start.level_cyclers[1])
    key(start, pygame.K_LEFT)
    left, _, right = start.level_cyclers[3]._arrow_rects()
    click(start, right.center)
    assert start.levels[1] == "easy" and start.levels[3] == "hard"
    click(start, start.start_button.rect.center)
    _, seats, _ = app.started
    assert [s.controller for s in seats] == ["human", "ai:easy", "ai:medium", "ai:hard"]


def test_a_seat_turned_computer_shows_its_level_and_a_human_seat_hides_it(app, three_levels):
    start = push(app, StartScene(app))
    start.set_game("wizard")
    click(start, start.kind_cyclers[1].rect.center)  # seat 1 becomes human
    assert start.kinds[1] == "human" and not start.level_cyclers[1].visible
    assert start.level_cyclers[1] not in start.focus.widgets
    click(start, start.kind_cyclers[1].rect.center)  # and a computer again, at its level
    assert start.level_cyclers[1].visible and start.build_seats()[1].controller == "ai:medium"


def test_a_level_the_game_lacks_falls_back_to_medium(app, monkeypatch):
    import game.ui.scenes.start_scene as start_module

    offered = {"bidwhist": ("random", "easy", "medium", "hard"), "wizard": ("random", "medium")}
    monkeypatch.setattr(start_module, "ai_levels", lambda game_def: offered[game_def.name])
    start = push(app, StartScene(app))
    start.set_game("bidwhist")
    start.level_cyclers[2].step(1)
    assert start.build_seats()[2].controller == "ai:hard"
    start.set_game("wizard")
    assert start.level_cyclers[2].choices == ["medium"]
    assert start.build_seats()[2].controller == "ai:medium"
    start.set_game("bidwhist")
    assert start.build_seats()[2].controller == "ai:hard", "the choice is remembered per seat"


def test_second_human_gives_hot_seat_players_distinct_names(app):
    start = push(app, StartScene(app))
    assert start.names[0] == t("start.default_human")  # a lone human is "You"
    click(start, start.kind_cyclers[2].rect.center)  # a second human joins
    assert start.kinds[2] == "human"
    assert start.name_inputs[0].text == "Player 1" and start.name_inputs[2].text == "Player 2"
    click(start, start.start_button.rect.center)
    _, seats, _ = app.started
    humans = [seat.name for seat in seats if seat.is_human]
    assert humans == ["Player 1", "Player 2"]
    # The hot-seat cover names the next player unambiguously.
    assert t("cover.pass_to", name=humans[1]) == "Pass to Player 2"
    assert t("cover.show", name=humans[1]).startswith("I am Player 2")
    # Back to one human: the remaining human is "You" again; the computer gets its own name back.
    click(start, start.kind_cyclers[2].rect.center)
    assert start.names[0] == t("start.default_human")
    assert start.names[2] not in ("Player 2", t("start.default_human"))


def test_typed_names_survive_hot_seat_renaming(app):
    start = push(app, StartScene(app))
    start.set_game("wizard")
    click(start, start.name_inputs[0].rect.center)
    for _ in range(10):
        key(start, pygame.K_BACKSPACE)
    typed(start, "Ann")
    click(start, start.kind_cyclers[1].rect.center)
    click(start, start.kind_cyclers[3].rect.center)
    assert start.names[:4] == ["Ann", "Player 2", start.names[2], "Player 3"]
    assert start.kinds[2] == "computer"
    start.set_players(3)  # seat 3 leaves: only two humans remain
    assert start.names[1] == "Player 2"
    seats = start.build_seats()
    assert [seat.name for seat in seats if seat.is_human] == ["Ann", "Player 2"]


def test_invalid_rule_combination_disables_start(app):
    start = push(app, StartScene(app))
    start.set_game("wizard")
    start.set_players(4)
    editor = RulesEditor(
        app, "wizard", start.catalog["wizard"].values(0), {}, 4, lambda e: start.edits.update(wizard=e)
    )
    editor.set_value("bidding", "hidden")
    editor.set_value("uneven_bids", "always")
    assert editor.problem == t("rules.problem.uneven_bids")
    editor._done()
    start._refresh()
    assert not start.start_button.enabled and start.build_rules() is None
    click(start, start.start_button.rect.center)
    assert app.started is None
    # Too many rounds for the player count is caught as well, then fixed.
    start.edits["wizard"] = {"rounds": 20}
    start._refresh()
    assert "at most 15 rounds" in start.problem
    start.set_players(3)
    assert start.start_button.enabled


def test_broken_rule_file_shows_warning_and_uses_defaults(app, monkeypatch, tmp_path):
    bad = tmp_path / "bidwhist.yaml"
    bad.write_text("game: bidwhist\nrules:\n  min_bid: 12\n", encoding="utf-8")
    import game.ui.scenes.start_scene as start_module

    from game.settings.house_rule_files import default_rule_file as bundled

    monkeypatch.setattr(start_module, "default_rule_file", lambda game: bad if game == "bidwhist" else bundled(game))
    start = StartScene(app)
    assert start.catalog["bidwhist"].warning and "min_bid" in start.catalog["bidwhist"].warning
    assert start.catalog["wizard"].warning is None
    assert start.build_rules() == make_rules("bidwhist")
    start.draw(pygame.Surface((1280, 720)))


def test_settings_scene_saves(app):
    saved = Recorder()
    app.save_settings = saved
    scene = push(app, SettingsScene(app))
    key(scene, pygame.K_TAB)  # focus starts on the language; the animation speed is next
    key(scene, pygame.K_RIGHT)  # normal -> fast
    click(scene, scene.four_colour.rect.center)
    click(scene, scene.save_button.rect.center)
    assert app.settings.animation_speed == "fast" and app.settings.four_colour_deck
    assert saved.calls == [()]


def test_settings_scene_sets_thinking_time_and_hints(app):
    app.save_settings = Recorder()
    scene = push(app, SettingsScene(app))
    assert scene.think.value is None and scene.hints.value is True, "Automatic by default"
    assert scene.think.value_text() == t("settings.ai_think.automatic") == "Automatic"
    assert not scene.think.can_step(-1), "Automatic comes first"
    scene.focus.focus(scene.think)
    key(scene, pygame.K_RIGHT)
    key(scene, pygame.K_RIGHT)
    click(scene, scene.hints.rect.center)
    assert app.settings.ai_think_seconds is None and app.settings.hints, "nothing changes before Save"
    click(scene, scene.save_button.rect.center)
    assert app.settings.ai_think_seconds == 0.2 and app.settings.hints is False


def test_settings_scene_goes_back_to_automatic_thinking_time_and_keeps_an_odd_one(app):
    app.save_settings = Recorder()
    app.settings.ai_think_seconds = 0.7  # written by hand in the settings file: not one of the steps
    scene = push(app, SettingsScene(app))
    assert scene.think.value == 0.7 and scene.think.choices == [None, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0]
    scene.focus.focus(scene.think)
    for _ in range(6):
        key(scene, pygame.K_LEFT)
    click(scene, scene.save_button.rect.center)
    assert app.settings.ai_think_seconds is None


def test_the_thinking_time_help_names_hard_and_expert_with_their_own_times(app):
    from game.ui.scenes.settings_scene import help_text

    words = help_text("settings.ai_think")
    assert "hard" in words and "expert" in words and "0.3 s" in words and "0.9 s" in words, words
    assert words.index("0.3 s") < words.index("0.9 s"), "in the order the levels are named"


# ---------------------------------------------------------------------------- layout and speed


def all_scenes(app):
    noop = Recorder()
    state = bidwhist_bid_state()
    yield BiddingPanel(app, state.view(state.current_player), NAMES4, noop)
    state = wizard_bid_state(players=3, rounds_played=17)
    yield BiddingPanel(app, state.view(state.current_player), ["You", "Ada", "Bruno"], noop)
    state = contract_state(0)
    yield ContractChooser(app, state.view(state.current_player), noop)
    state = discard_state()
    yield KittyDialog(app, state.view(state.current_player), noop)
    match = finished_match("wizard", players=6, seed=2)
    names = ["You", "Ada", "Bruno", "Cleo", "Dmitri", "Esme"]
    yield ScorePad(app, score_history(match.history()), names, noop)
    yield EndScene(app, score_history(match.history()), names, noop, noop)
    start = StartScene(app)
    start.set_game("wizard")
    start.set_players(6)
    yield start
    yield RulesEditor(app, "bidwhist", {}, {}, 4, noop)
    yield SettingsScene(app)


def widgets_of(scene):
    return [w for w in scene.focus.widgets if w.visible]


@pytest.mark.parametrize("size", [(800, 600), (1920, 1080), (1280, 720)])
def test_layouts_keep_widgets_inside_the_window(app, size):
    window = pygame.Rect(0, 0, *size)
    surface = pygame.Surface(size)
    for scene in all_scenes(app):
        scene.relayout(size)
        assert window.contains(scene.panel_rect) or isinstance(scene, StartScene), type(scene).__name__
        for widget in widgets_of(scene):
            if isinstance(scene, ScrollingDialog) and not scene.scroll.viewport.contains(widget.rect):
                continue  # a row scrolled out of view: hidden and clipped until it scrolls in
            assert widget.rect.width > 0 and widget.rect.height > 0
            if (
                isinstance(scene, ScrollingDialog)
                and widget in scene.row_widgets()
                and not scene.scroll.viewport.contains(widget.rect)
            ):
                continue  # a row scrolled out of view: it is brought in when it is focused
            assert window.contains(widget.rect), (type(scene).__name__, widget, widget.rect)
            if not isinstance(scene, StartScene):
                assert scene.panel_rect.contains(widget.rect), (type(scene).__name__, widget.rect)
        scene.draw(surface)


def test_tiny_windows_do_not_crash(app):
    for size in [(320, 240), (100, 80), (1, 1)]:
        surface = pygame.Surface(size)
        for scene in all_scenes(app):
            scene.relayout(size)
            scene.draw(surface)


def test_text_always_fits_its_box():
    surface = pygame.Surface((800, 600))
    long = "A remarkably long sentence that will never fit in a small box without help " * 3
    for box in [pygame.Rect(10, 10, 120, 20), pygame.Rect(50, 50, 300, 40), pygame.Rect(0, 0, 30, 12)]:
        assert box.contains(draw_text_fit(surface, long, box, 40))
        assert box.contains(draw_text_wrapped(surface, long, box, 30))
    button = Button((0, 0, 90, 30), long, None)
    button.draw(surface)
