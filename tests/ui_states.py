"""Engine states and a stand-in app for the UI tests of the panels and dialogs.

The dialogs are built from real engine states (``new_game`` + ``apply`` or a
``Match`` played by computer players), reached by short fixed action lists so
each test starts from a known position. ``PreviewApp`` provides the few App
features a dialog uses when the real App cannot be created.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from typing import Any, cast

import pygame
import pytest

from game.rules import Phase, apply, make_rules, new_game
from game.rules.actions import PASS, bid, choose_trump, predict
from game.rules.tricks import PUBLIC_SEAT
from game.session.match import Match, Seat
from game.settings.app_settings import Settings
from game.ui.app import App
from game.ui.art.card_art import CardArt
from game.ui.table.view import TableView


class PreviewApp:
    """The few App features the dialogs use, without a window loop."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.settings = Settings()
        self.stack: list = []
        self.started: tuple[Any, Any, Any] | None = None  # (rules, seats, seed) of start_match
        self._art: dict[int, CardArt] = {}

    def push(self, scene) -> None:
        self.stack.append(scene)

    def pop(self, scene=None) -> None:
        if scene is None and self.stack:
            self.stack.pop()
        elif scene in self.stack:
            self.stack.remove(scene)

    def replace(self, scene) -> None:
        if self.stack:
            self.stack.pop()
        self.stack.append(scene)

    def card_art(self, width: int) -> CardArt:
        if width not in self._art:
            self._art[width] = CardArt(width, self.settings.four_colour_deck)
        return self._art[width]

    def start_match(self, rules, seats, seed=None) -> None:
        self.started = (rules, seats, seed)

    def save_settings(self) -> None:
        pass

    def show_start(self) -> None:
        pass

    def quit(self) -> None:
        pass


class RecordingApp(App):
    """The real App without its loop, for screens that start a game: ``record_starts``
    makes its ``start_match`` note what it was asked (``started``, as PreviewApp's)
    instead of opening a table."""

    def __init__(self, data_dir: str, size: tuple[int, int]) -> None:
        super().__init__(data_dir=data_dir, size=size, settings=Settings(), show_start=False)
        self.started: tuple[Any, Any, Any] | None = None  # (rules, seats, seed) of start_match

    def record_starts(self, monkeypatch: pytest.MonkeyPatch) -> None:
        def record(rules: Any, seats: Any, seed: Any = None) -> None:
            self.started = (rules, seats, seed)

        monkeypatch.setattr(self, "start_match", record)


def as_app(app: PreviewApp) -> App:
    """The stand-in where a screen takes the app: it has every feature the screens use of it."""
    return cast("App", app)


def preview_table_view(app: PreviewApp) -> TableView:
    """A table view that draws with the stand-in app's card art and settings."""
    # TableView is typed for the real App, of which it reads only card_art and settings, both
    # PreviewApp's too; the ignore goes when game/ui names those two as the view's protocol.
    return TableView(as_app(app))


NAMES4 = ["You", "Ada", "Bruno", "Cleo"]

# The window sizes the UI checks are run at: the smallest the game supports, and two usual ones.
WINDOW_SIZES = [(800, 600), (1280, 720), (1920, 1080)]


def window_for_module(size: tuple[int, int]):
    """A fixture that opens a pygame window of ``size`` once for the whole test module
    that assigns it (``display = window_for_module(...)``): card art and text are
    converted to the display's format, so they need one."""

    @pytest.fixture(scope="module", autouse=True)
    def display():
        pygame.init()
        pygame.display.set_mode(size)
        yield

    return display


def bidwhist_bid_state(seed: int = 3, passes: int = 1, **rules):
    state, _ = new_game(make_rules("bidwhist", rules), 4, seed)
    actions = [bid(4, 0)] + [PASS] * 3
    for action in actions[: passes + 1]:
        if state.phase != Phase.BID:
            break
        state, _ = apply(state, action)
    return state


def forced_dealer_state(seed: int = 3):
    state, _ = new_game(make_rules("bidwhist"), 4, seed)
    for _ in range(3):
        state, _ = apply(state, PASS)
    return state


def contract_state(mode: int = 0, seed: int = 3):
    state, _ = new_game(make_rules("bidwhist"), 4, seed)
    state, _ = apply(state, bid(4, mode))
    for _ in range(3):
        state, _ = apply(state, PASS)
    return state


def discard_state(seed: int = 3):
    state = contract_state(0, seed)
    state, _ = apply(state, choose_trump(1))
    return state


def wizard_bid_state(players: int = 4, rounds_played: int = 4, seed: int = 5, **rules):
    """A Wizard state in bidding of round ``rounds_played + 1``, at the dealer (last bidder)."""
    match = Match(
        make_rules("wizard", rules, players=players),
        [Seat(n, "ai:random") for n in ["You", "Ada", "Bruno", "Cleo", "Dmitri", "Esme"][:players]],
        seed,
    )
    while match.deal_number <= rounds_played or match.phase != Phase.PREDICT:
        if match.phase == Phase.HAND_OVER:
            match.next_deal()
        else:
            match.apply(match.choose_ai_action())
    # Bid up to the dealer with small bids so the dealer has a forbidden bid.
    while match.current_player != match.view(PUBLIC_SEAT).dealer:
        match.apply(predict(0) if match.phase == Phase.PREDICT else match.choose_ai_action())
    # The dialogs under test take views of several seats from the state itself.
    return match._state


def finished_match(game: str, players: int = 4, seed: int = 7, **rules) -> Match:
    names = ["You", "Ada", "Bruno", "Cleo", "Dmitri", "Esme"][:players]
    match = Match(make_rules(game, rules, players=players), [Seat(n, "ai:random") for n in names], seed)
    match.play_out()
    return match
