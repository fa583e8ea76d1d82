"""Render every panel and dialog scene to PNG files, for looking at the layout.

Usage: ``python tools/panel_previews.py [OUT_DIR]`` (default ``previews/``).
Each scene is drawn over the table felt at 1280x720 and 800x600 (and
1920x1080 with ``--all-sizes``) from real engine states, offscreen (SDL dummy
driver), with a stand-in for the app that provides what the scenes use.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pygame  # noqa: E402

from game.config import Settings  # noqa: E402
from game.match import Match, Seat  # noqa: E402
from game.rules import Phase, apply, make_rules, new_game  # noqa: E402
from game.rules.actions import PASS, bid, choose_trump, predict  # noqa: E402
from game.ui.card_art import CardArt  # noqa: E402
from game.ui.table_art import draw_felt  # noqa: E402


class PreviewApp:
    """The few App features the dialogs use, without a window loop."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.settings = Settings()
        self.stack: list = []
        self.started = None
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


NAMES4 = ["You", "Ada", "Bruno", "Cleo"]


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
    match = Match(make_rules("wizard", rules, players=players),
                  [Seat(n, "ai:random") for n in ["You", "Ada", "Bruno", "Cleo", "Dmitri", "Esme"][:players]], seed)
    while match.state.deal_number <= rounds_played or match.phase != Phase.PREDICT:
        if match.phase == Phase.HAND_OVER:
            match.next_deal()
        else:
            match.apply(match.choose_ai_action())
    # Bid up to the dealer with small bids so the dealer has a forbidden bid.
    while match.current_player != match.state.dealer:
        match.apply(predict(0) if match.phase == Phase.PREDICT else match.choose_ai_action())
    return match.state


def finished_match(game: str, players: int = 4, seed: int = 7, **rules) -> Match:
    names = ["You", "Ada", "Bruno", "Cleo", "Dmitri", "Esme"][:players]
    match = Match(make_rules(game, rules, players=players), [Seat(n, "ai:random") for n in names], seed)
    match.play_out()
    return match


def render(scene, app: PreviewApp, path: str) -> None:
    surface = pygame.Surface(app.size)
    surface.blit(draw_felt(app.size), (0, 0))
    scene.draw(surface)
    pygame.image.save(surface, path)


def scenes(app: PreviewApp):
    """(name, scene) pairs for every scene at this app's size."""
    from game.ui.bidding_panel import BiddingPanel
    from game.ui.contract_chooser import ContractChooser
    from game.ui.end_scene import EndScene
    from game.ui.kitty_dialog import KittyDialog
    from game.ui.rules_editor import RulesEditor
    from game.ui.score_pad import ScorePad
    from game.ui.settings_scene import SettingsScene
    from game.ui.start_scene import StartScene

    noop = lambda *args: None  # noqa: E731
    state = bidwhist_bid_state()
    yield "bid_bidwhist", BiddingPanel(app, state.view(state.current_player), NAMES4, noop)
    state = forced_dealer_state()
    yield "bid_forced", BiddingPanel(app, state.view(state.current_player), NAMES4, noop)
    state = wizard_bid_state(uneven_bids="always")
    names = ["You", "Ada", "Bruno", "Cleo"]
    yield "bid_wizard_uneven", BiddingPanel(app, state.view(state.current_player), names, noop)
    state = wizard_bid_state(players=3, rounds_played=13, bidding="hidden")
    yield "bid_wizard_hidden", BiddingPanel(app, state.view(state.current_player), names[:3], noop)
    state = contract_state(0)
    yield "contract_trump", ContractChooser(app, state.view(state.current_player), noop)
    state = contract_state(2)
    yield "contract_direction", ContractChooser(app, state.view(state.current_player), noop)
    state = discard_state()
    yield "kitty", KittyDialog(app, state.view(state.current_player), noop)
    match = finished_match("bidwhist")
    yield "pad_bidwhist", ScorePad(app, match.history(), NAMES4, noop)
    yield "end_bidwhist", EndScene(app, match.history(), NAMES4, noop, noop)
    match = finished_match("wizard", players=6, seed=11)
    six = ["You", "Ada", "Bruno", "Cleo", "Dmitri", "Esme"]
    yield "pad_wizard6", ScorePad(app, match.history(), six, noop, close_label="Next round")
    yield "end_wizard6", EndScene(app, match.history(), six, noop, noop)
    start = StartScene(app)
    yield "start_bidwhist", start
    start = StartScene(app)
    start.set_game("wizard")
    start.set_players(6)
    yield "start_wizard6", start
    yield "rules_bidwhist", RulesEditor(app, "bidwhist", {}, {}, 4, noop)
    yield "rules_wizard_bad", RulesEditor(app, "wizard", {}, {"bidding": "hidden", "uneven_bids": "always"}, 4, noop)
    yield "settings", SettingsScene(app)


def main(argv: list[str]) -> int:
    out_dir = next((a for a in argv if not a.startswith("--")), "previews")
    sizes = [(1280, 720), (800, 600)] + ([(1920, 1080)] if "--all-sizes" in argv else [])
    os.makedirs(out_dir, exist_ok=True)
    pygame.init()
    pygame.display.set_mode((1280, 720))
    only = [a[len("--only="):] for a in argv if a.startswith("--only=")]
    for size in sizes:
        app = PreviewApp(size)
        for name, scene in scenes(app):
            if only and not any(o in name for o in only):
                continue
            path = os.path.join(out_dir, f"{name}_{size[0]}x{size[1]}.png")
            render(scene, app, path)
            print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
