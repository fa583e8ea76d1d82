"""A third game reaches the whole interface without an edit to it.

Oh Hell (tests/ohhell.py) is registered for these tests only. The start
screen offers it, the table's model and animations follow a whole game of it
from one seat's filtered events, the table draws it, and the bidding panel,
score pad and end screen read it: all by the game's features (its adapter,
partnerships, player counts, hand order), none by its name.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pytest

from game.session.match import Match, Seat
from game.rules import Phase, make_rules
from game.rules.actions import predict
from game.rules.events import UNKNOWN_CARD
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.persistence.history_codec import score_history
from game.ui.dialogs.end_scene import EndScene
from game.ui.dialogs.score_pad import ScorePad
from game.ui.scenes.start_scene import StartScene
from game.ui.table.animations import Director
from game.ui.table.layout import compute_layout
from game.ui.table.model import TableModel
from game.ui.table.view import HandLook, Overlay, TableView
from ohhell import NAME
from ui_states import RecordingApp

PLAYERS = 4
NAMES = ["Ann", "Ben", "Cy", "Dee"]


@pytest.fixture
def app(tmp_path, monkeypatch):
    real = RecordingApp(str(tmp_path), (1280, 720))
    real.record_starts(monkeypatch)
    return real


def new_match(seed: int = 4) -> Match:
    return Match(make_rules(NAME, {}, players=PLAYERS), [Seat(name, "ai:random") for name in NAMES], seed)


def test_the_start_screen_offers_it_with_its_player_counts(oh_hell, app):
    start = StartScene(app)
    assert NAME in start.game_buttons
    start.set_game(NAME)
    start.set_players(99)
    assert start.players == oh_hell.max_players and start.players_stepper.visible
    start.set_players(PLAYERS)
    start.start()
    rules, seats, _ = app.started
    assert rules.game == NAME and len(seats) == PLAYERS


def test_the_table_follows_a_whole_game_and_draws_it(oh_hell, app):
    match = new_match()
    model = TableModel.empty(oh_hell, PLAYERS)
    layout = compute_layout(app.size, PLAYERS, 0)
    director = Director(model, lambda: layout, lambda: 0.0, lambda seat: NAMES[seat], oh_hell)
    view = TableView(app)
    surface = pygame.Surface(app.size)
    events = list(match.events)
    while True:
        director.enqueue(match.events_for(events, 0), match.current_player)
        director.update(0.0)
        assert all(card == UNKNOWN_CARD for seat in range(1, PLAYERS) for card in model.hands[seat])
        assert tuple(model.books) == match.view(0).books
        hand = HandLook(cards=model.sorted_hand(0))
        view.draw(surface, model, layout, NAMES, hand, Overlay(), viewer=0)
        if match.is_over:
            break
        events = match.next_deal() if match.phase == Phase.HAND_OVER else match.apply(match.choose_ai_action())
    assert [round(score) for score in model.scores] == list(match.view(0).scores)


def test_its_bidding_panel_score_pad_and_end_screen(oh_hell, app):
    match = new_match()
    while match.phase != Phase.PREDICT:
        match.apply(match.choose_ai_action())
    seat = match.current_player
    chosen: list = []
    panel = BiddingPanel(app, match.view(seat), NAMES, chosen.append)
    app.push(panel)
    cards = match.view(seat).tricks_per_hand
    assert set(panel.buttons) == {predict(n) for n in range(cards + 1)}
    assert {a for a, button in panel.buttons.items() if button.enabled} == set(match.legal_actions())
    panel.draw(pygame.Surface(app.size))
    action, button = next((a, b) for a, b in panel.buttons.items() if b.enabled)
    button.click()
    assert chosen == [action]
    match.play_out()
    history = match.history()
    pad = ScorePad(app, score_history(history), NAMES)
    assert len(pad.rows) == len(history["deals"])
    assert [pad.rows[-1].cells[1 + 4 * s + 3].text for s in range(PLAYERS)] == [
        str(score) for score in history["final_scores"]
    ]
    end = EndScene(app, score_history(history), NAMES, lambda: None, lambda: None)
    for winner in history["winners"]:
        assert NAMES[winner] in end.winner_line()
    end.draw(pygame.Surface(app.size))
