"""Screenshots of the real app window for the docs and for checking the layout by eye."""

from __future__ import annotations

# ``python -m tools.screenshots --xvfb`` is the way the README's pictures are
# made: it starts its own virtual X screen (``Xvfb :95``; ``--display`` picks
# another number), opens the real app window on it through SDL's x11 driver,
# drives the app to each scene through its own API in this process, and
# captures the X window itself (``import -window <id>`` from ImageMagick), so
# the pixels are those the window shows. At the end it stops the Xvfb it
# started, and only that. Without ``--xvfb`` the app runs offscreen (SDL's
# dummy video driver; no display needed) and the window's surface is saved
# instead, which is handy for a quick look. Either way PNGs go into
# ``docs/screenshots/`` (or the folder ``--out`` names):
#
# * ``start_<size>.png``: the start screen;
# * ``bidwhist_table_<size>.png``: a Bid Whist hand in play, the human to act;
# * ``wizard_bidding_<size>.png``: a five-player Wizard round, the human bidding last;
# * ``score_pad_<size>.png``: the score pad between two Bid Whist hands;
# * ``kitty_dialog_<size>.png``: the human declarer choosing the six discards;
# * ``wizard_dealing_<size>.png``: the deal animation caught mid-flight;
# * ``end_<size>.png``: the end screen of a short Wizard game;
# * ``last_trick_<size>.png``: the last trick looked at again in the middle of a Bid Whist hand;
# * ``contract_progress_<size>.png``: a Bid Whist hand well under way: the books each side
#   needs and has, the led and the winning card tagged on the trick;
# * ``hot_seat_cover_<size>.png``: two people sharing the screen, the "Pass to" cover
#   at the start of the second deal;
# * ``rules_help_<size>.png``: the rules help opened from the table's menu, at the card
#   ranking of the contract in play.
#
# ``--set variants`` takes, instead, the pictures of the house variants of
# ``RULES.md`` ("More house variants"):
#
# * ``kitty_no_jokers_<size>.png``: Bid Whist without jokers, the declarer's 16 cards
#   and the four to discard;
# * ``take_it_<size>.png``: the dealer's bidding panel with the "Take it" row;
# * ``boston_<size>.png``: a Boston announced over the table as the hand is scored;
# * ``boston_pad_<size>.png``: the score pad after it;
# * ``rules_bidwhist_<size>.png``, ``rules_wizard_<size>.png``: the rule editor with
#   the new keys (help text of a new key shown);
# * ``wizard_chooser_named_<size>.png``: a Wizard turned up, the computer at the dealer's
#   left named over the table as the one who chooses trump;
# * ``wizard_chooser_<size>.png``: a Wizard turned up, the human at the dealer's left
#   naming trump.
#
# ``--set network`` takes Host a table and its lobby (the program's own server on
# loopback, a guest joined over a real link): ``host_<size>.png``, ``lobby_<size>.png``
# (as the host sees it: the invite code and addresses) and ``lobby_guest_<size>.png``, then the
# Join screen: ``join_found_<size>.png`` (that table found on this network, under a table kept
# to rejoin) and ``join_nothing_<size>.png`` (nothing found, an invite typed), and the
# table waiting for a guest whose program went away: ``table_waiting_<size>.png``.
#
# Each is taken at 1280x720 and at 800x600 (``--sizes`` changes that). The
# human's decisions on the way there are made by the medium computer player,
# so the pictures show realistic games; seeds are fixed, so reruns give the
# same pictures as long as the rules and the computer players do not change.

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pygame

from game.ai import make_player
from game.settings.app_settings import LANGUAGES, Settings
from game.session.match import Match, Seat
from game.rules import ActionKind, BidWhistView, Phase, make_rules
from game.ui.app import App
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.contract_chooser import ContractChooser
from game.ui.dialogs.cover_scene import GUARD_SECONDS as COVER_GUARD_SECONDS, CoverScene
from game.ui.dialogs.kitty_dialog import KittyDialog
from game.ui.dialogs.score_pad import ScorePad
from game.ui.scene import Scene
from game.ui.scenes.rules_editor import RulesEditor
from game.ui.scenes.rules_help_scene import RulesHelpScene
from game.ui.scenes.start_scene import StartScene
from game.session.ai_worker import InlineAiRunner
from game.session.local import LocalSession, local_session
from game.session.session import Away
from game.ui.table.review import LastTrickDialog
from game.ui.table.scene import TableScene
from game.ui.text import t

SceneKind = TypeVar("SceneKind", bound=Scene)
OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
FRAME = 1 / 60
# ``--out`` and ``--language`` reach the child process under Xvfb through these variables.
OUT_ENV = "TRICKTABLE_SHOTS_OUT"
LANGUAGE_ENV = "TRICKTABLE_SHOTS_LANGUAGE"


def _run(app: App, until: Callable[[], bool], frames: int = 20000) -> bool:
    for _ in range(frames):
        if until():
            return True
        app.step(FRAME, [])
    return until()


class Autopilot:
    """Answers the human's dialogs the way the medium computer player would.

    tests/test_ui_table_review.py drives its tables with a subclass, so the
    answers stay one piece of code."""

    def __init__(self, app: App, scene: TableScene, seed: int = 1) -> None:
        self.app = app
        self.scene = scene
        self.player = make_player(scene.game_def, "medium")
        self.rng = random.Random(seed)

    def discards(self, match: Match, seat: int) -> list:
        """The cards the human lays away in the kitty dialog (as many as the kitty held)."""
        # The player picks one discard at a time: ask it on a copy of the
        # match (rebuilt from its save), so the table's own is untouched.
        rehearsal = Match.from_save(match.to_save())
        view = rehearsal.view(seat)
        assert isinstance(view, BidWhistView)
        cards = []
        for _ in range(view.kitty_size - view.discard_count):
            action = self.player.choose(rehearsal.view(seat), self.rng)
            cards.append(action.value)
            rehearsal.apply(action)
        return cards

    def answer_top(self) -> bool:
        """Answer whatever the top scene asks the human; False when it asks nothing."""
        app, scene = self.app, self.scene
        top = app.scenes[-1]
        # The autopilot rehearses discards on a copy of the local game's match.
        assert isinstance(scene.session, LocalSession)
        match = scene.session.match
        seat = match.current_player
        if isinstance(top, (BiddingPanel, ContractChooser)):
            top.finish(top.on_action, self.player.choose(match.view(seat), self.rng))
        elif isinstance(top, KittyDialog):
            top.finish(top.on_confirm, self.discards(match, seat))
        elif isinstance(top, ScorePad):
            top.cancel()
        elif isinstance(top, CoverScene):
            top.reveal()
        elif top is scene and scene.input_enabled():
            scene.apply_action(self.player.choose(match.view(seat), self.rng))
        else:
            return False
        return True

    def answer(self, stop_at: Callable[[], bool] = lambda: False) -> bool:
        """Answer whatever the top scene asks; returns True when ``stop_at`` holds first."""
        if stop_at():
            return True
        self.answer_top()
        return False


def _new_app(size: tuple[int, int], speed: str = "instant") -> App:
    data_dir = tempfile.mkdtemp(prefix="tricktable-shots-")
    settings = Settings(
        animation_speed=speed, ai_pause_seconds=0.0, window_size=size, language=os.environ.get(LANGUAGE_ENV) or "en"
    )
    return App(data_dir=data_dir, size=size, settings=settings)


def _start(app: App, game: str, players: int, seed: int, humans: tuple[int, ...] = (0,), **rules) -> TableScene:
    """A table with the (first) human at the bottom; computer moves are decided inline, in
    the frame that asks for them, so every picture is the same from run to run."""
    names = ["Alice", "Bongani", "Carmen", "Dmitri", "Emeka", "Fatima"]
    seats = [Seat(names[i], "human" if i in humans else "ai:medium") for i in range(players)]
    match = Match(make_rules(game, rules, players=players), seats, seed)
    scene = TableScene(app, local_session(match, app, ai_runner=InlineAiRunner()))
    app.replace(scene)
    return scene


def _window_id() -> int | None:
    """The X window id of the app's window (None under a driver without one)."""
    info = pygame.display.get_wm_info()
    window = info.get("window")
    return int(window) if window else None


def _save(app: App, name: str, size: tuple[int, int]) -> Path:
    out = Path(os.environ.get(OUT_ENV) or OUT)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}_{size[0]}x{size[1]}.png"
    window = _window_id() if os.environ.get("SDL_VIDEODRIVER") == "x11" else None
    if window is None:
        surface = pygame.display.get_surface()
        if surface is None:
            raise RuntimeError("there is no window to save")
        pygame.image.save(surface, str(path))
        return path
    # Show the frame again and give the X server a moment, then read the window back.
    app.step(FRAME, [])
    pygame.display.flip()
    time.sleep(0.15)
    subprocess.run(["import", "-window", str(window), str(path)], check=True)
    return path


def shoot(size: tuple[int, int]) -> list[Path]:
    saved = []

    app = _new_app(size)
    app.step(FRAME, [])
    saved.append(_save(app, "start", size))

    # Bid Whist, a few tricks in, the human to play with cards on the table.
    scene = _start(app, "bidwhist", 4, seed=21)
    pilot = Autopilot(app, scene)
    _run(
        app,
        lambda: pilot.answer(
            lambda: (
                scene.app.scenes[-1] is scene
                and scene.input_enabled()
                and len(scene.session.view(0).game.tricks) >= 3
                and len(scene.model.trick) >= 2
            )
        ),
    )
    app.step(FRAME, [])
    saved.append(_save(app, "bidwhist_table", size))

    # The last trick, looked at again (the L key, or the button under the scores).
    scene.open_last_trick()
    app.step(FRAME, [])
    saved.append(_save(app, "last_trick", size))
    _top(app, LastTrickDialog).close()

    # Later in the same hand: how the contract stands, the trick in play tagged.
    _run(
        app,
        lambda: pilot.answer(
            lambda: (
                scene.app.scenes[-1] is scene
                and scene.input_enabled()
                and len(scene.session.view(0).game.tricks) >= 7
                and len(scene.model.trick) >= 2
            )
        ),
    )
    app.step(FRAME, [])
    saved.append(_save(app, "contract_progress", size))

    # The rules help over the same table, scrolled to the ranking of the contract in play.
    scene.open_rules_help()
    helper = _top(app, RulesHelpScene)
    ranking = next(line for line in helper.placed if line.text == t("help.section.ranking"))
    helper.scroll_to(ranking.top)
    app.step(FRAME, [])
    saved.append(_save(app, "rules_help", size))
    helper.close()

    # The score pad between the first and second hands.
    _run(app, lambda: pilot.answer(lambda: type(app.scenes[-1]).__name__ == "ScorePad"))
    app.step(FRAME, [])
    saved.append(_save(app, "score_pad", size))

    # The kitty dialog: the first seed whose first hand the human declares,
    # with four discards already picked.
    for seed in range(1, 60):
        scene = _start(app, "bidwhist", 4, seed=seed)
        pilot = Autopilot(app, scene)
        _run(
            app,
            lambda: pilot.answer(
                lambda: type(app.scenes[-1]).__name__ == "KittyDialog" or scene.session.phase == Phase.PLAY
            ),
        )
        dialog = app.scenes[-1]
        if isinstance(dialog, KittyDialog):
            for choice in dialog.cards[-4:]:
                dialog._toggle(choice)
            dialog.invalidate()
            app.step(FRAME, [])
            saved.append(_save(app, "kitty_dialog", size))
            break

    # Wizard, five players, round 4: the human bids last, after everyone else.
    scene = _start(app, "wizard", 5, seed=5)
    pilot = Autopilot(app, scene)
    _run(
        app,
        lambda: pilot.answer(
            lambda: type(app.scenes[-1]).__name__ == "BiddingPanel" and scene.session.deal_number >= 4
        ),
    )
    for _ in range(20):
        app.step(FRAME, [])
    saved.append(_save(app, "wizard_bidding", size))

    # Hot seat: Alice and Carmen share the screen; the second deal opens behind a cover.
    scene = _start(app, "wizard", 4, seed=6, humans=(0, 2), rounds=4)
    pilot = Autopilot(app, scene)
    _run(
        app,
        lambda: pilot.answer(lambda: type(app.scenes[-1]).__name__ == "CoverScene" and scene.session.deal_number >= 2),
    )
    app.step(FRAME, [], idle_time=COVER_GUARD_SECONDS)  # the cover as it listens, its button gold
    saved.append(_save(app, "hot_seat_cover", size))

    # A three-round Wizard game played to its end screen.
    scene = _start(app, "wizard", 4, seed=3, rounds=3)
    pilot = Autopilot(app, scene)
    _run(app, lambda: pilot.answer(lambda: type(app.scenes[-1]).__name__ == "EndScene"))
    app.step(FRAME, [])
    saved.append(_save(app, "end", size))
    app.close(quit_pygame=False)

    # The deal animation, caught halfway.
    app = _new_app(size, speed="normal")
    scene = _start(app, "wizard", 6, seed=9, rounds=8)
    pilot = Autopilot(app, scene)
    _run(app, lambda: pilot.answer(lambda: scene.model.deal_number >= 7 and len(scene.model.flying) >= 8))
    saved.append(_save(app, "wizard_dealing", size))
    app.close(quit_pygame=False)
    return saved


def _top_is(app: App, name: str) -> bool:
    return type(app.scenes[-1]).__name__ == name


def _top(app: App, kind: type[SceneKind]) -> SceneKind:
    """The scene on top, which the tour expects to be a ``kind`` by now."""
    top = app.scenes[-1]
    if not isinstance(top, kind):
        raise RuntimeError(f"the tour expected {kind.__name__} on top, not {type(top).__name__}")
    return top


def shoot_variants(size: tuple[int, int]) -> list[Path]:
    """The house variants of RULES.md on the table and the start screen."""
    saved = []
    app = _new_app(size)
    app.step(FRAME, [])

    # Without jokers: the first seed whose first hand the human declares; four discards picked.
    for seed in range(1, 60):
        scene = _start(app, "bidwhist", 4, seed=seed, jokers=False)
        pilot = Autopilot(app, scene)
        _run(app, lambda: pilot.answer(lambda: _top_is(app, "KittyDialog") or scene.session.phase == Phase.PLAY))
        dialog = app.scenes[-1]
        if isinstance(dialog, KittyDialog):
            for choice in dialog.cards[-3:]:
                dialog._toggle(choice)
            dialog.invalidate()
            app.step(FRAME, [])
            saved.append(_save(app, "kitty_no_jokers", size))
            break

    # The dealer may take the bid: the first seed where the human deals and someone has bid.
    for seed in range(1, 80):
        scene = _start(app, "bidwhist", 4, seed=seed, dealer_takes=True)
        pilot = Autopilot(app, scene)
        _run(app, lambda: pilot.answer(lambda: _top_is(app, "BiddingPanel") or scene.session.phase != Phase.BID))
        panel = app.scenes[-1]
        if isinstance(panel, BiddingPanel) and any(a.kind == ActionKind.TAKE for a in panel.legal):
            app.step(FRAME, [])
            saved.append(_save(app, "take_it", size))
            break

    # A Boston: the first seed whose game has one (found at instant speed by the hand's
    # result), played again up to that hand's last trick, then watched at normal speed.
    def boston_hand(scene: TableScene) -> bool:
        result = scene.result_line()
        return result is not None and result[0].startswith("Boston")

    # Played to 21, so the game goes on after the Boston and the pad shows it between hands.
    for seed in range(1, 400):
        scene = _start(app, "bidwhist", 4, seed=seed, boston="double", target_score=21)
        pilot = Autopilot(app, scene)
        _run(app, lambda: pilot.answer(lambda: boston_hand(scene) or scene.session.is_over), frames=200000)
        if not boston_hand(scene) or scene.session.is_over:
            continue
        deal = scene.session.deal_number
        scene = _start(app, "bidwhist", 4, seed=seed, boston="double", target_score=21)
        pilot = Autopilot(app, scene)
        _run(
            app,
            lambda: pilot.answer(
                lambda: (
                    scene.session.deal_number == deal
                    and scene.session.phase == Phase.PLAY
                    and len(scene.session.view(0).game.tricks) >= 11
                )
            ),
            frames=200000,
        )
        app.settings.animation_speed = "normal"
        _run(app, lambda: pilot.answer(lambda: (scene.model.banner or "").startswith("Boston")), frames=5000)
        for _ in range(40):
            app.step(FRAME, [])
        saved.append(_save(app, "boston", size))
        app.settings.animation_speed = "instant"
        _run(app, lambda: pilot.answer(lambda: _top_is(app, "ScorePad")))
        app.step(FRAME, [])
        saved.append(_save(app, "boston_pad", size))
        break

    # The rule editor with the new keys, the help of one of them shown.
    app = _new_app(size)
    app.step(FRAME, [])
    start = _top(app, StartScene)
    for game, key in (("bidwhist", "boston"), ("wizard", "wizard_turn_up")):
        start.set_game(game)
        start.open_rules_editor()
        editor = _top(app, RulesEditor)
        widget = next(widget for spec, widget in editor.rows if spec.key == key)
        editor.focus.focus(widget, keyboard=True)
        editor.invalidate()
        app.step(FRAME, [])
        saved.append(_save(app, f"rules_{game}", size))
        editor.cancel()
        app.step(FRAME, [])

    # A Wizard turned up under first_bidder_chooses, named over the table while the computer
    # at the dealer's left thinks (seed 13: in round 1 Carmen deals and Dmitri names trump).
    watch = _new_app(size, speed="normal")
    watch.settings.ai_pause_seconds = 1.5
    scene = _start(watch, "wizard", 4, seed=13, wizard_turn_up="first_bidder_chooses")
    _run(watch, lambda: scene.model.trump_pending and scene.model.banner is not None, frames=2000)
    for _ in range(10):
        watch.step(FRAME, [])
    saved.append(_save(watch, "wizard_chooser_named", size))
    watch.close(quit_pygame=False)

    # A Wizard turned up under first_bidder_chooses: the human sits left of the dealer.
    for seed in range(1, 200):
        scene = _start(app, "wizard", 4, seed=seed, wizard_turn_up="first_bidder_chooses")
        pilot = Autopilot(app, scene)
        _run(app, lambda: pilot.answer(lambda: _top_is(app, "ContractChooser") or scene.session.deal_number > 6))
        if _top_is(app, "ContractChooser"):
            app.step(FRAME, [])
            saved.append(_save(app, "wizard_chooser", size))
            break
    app.close(quit_pygame=False)
    return saved


def shoot_network(size: tuple[int, int]) -> list[Path]:
    """Host a table and its lobby: the host's choices, the lobby as the host and as a guest sees it.
    The program's own server listens on loopback only; a guest joins it over a real link."""
    from game.net.lobby_link import LobbyLink
    from game.net.protocol import DEFAULT_PORT
    from game.ui.scenes.host_scene import HostScene
    from game.ui.scenes.lobby_scene import LobbyScene
    from game.ui.scenes.start_scene import StartScene

    saved = []
    app = _new_app(size)
    app.step(FRAME, [])
    _top(app, StartScene).open_host()
    host = _top(app, HostScene)
    host.listen, host.announce = ("127.0.0.1", DEFAULT_PORT), False  # a free port if that is taken
    host.set_game("bidwhist")
    host.names[0] = "Alice"
    for seat, kind in enumerate(("human", "open", "open", "computer")):
        host.kinds[seat] = kind
    host.stand_in_after = 60
    host.set_game("bidwhist")  # the seat rows again, as chosen
    app.step(FRAME, [])
    saved.append(_save(app, "host", size))

    host.open_table()
    deadline = time.monotonic() + 10
    _run(app, lambda: _top_is(app, "LobbyScene") or time.monotonic() > deadline)
    lobby = _top(app, LobbyScene)
    assert lobby.hosting is not None and lobby.link.invite
    guest = LobbyLink.connect(lobby.hosting.url)
    guest.take_seat(lobby.link.invite, "Bongani")

    def seated() -> bool:
        guest.poll()
        time.sleep(0.002)
        return (
            bool(guest.held) and lobby.lobby is not None and lobby.lobby.seats[1].taken
        ) or time.monotonic() > deadline

    deadline = time.monotonic() + 10
    _run(app, seated)
    app.step(FRAME, [])
    saved.append(_save(app, "lobby", size))

    seen_by_guest = LobbyScene(app, guest)
    app.push(seen_by_guest)
    app.step(FRAME, [])
    saved.append(_save(app, "lobby_guest", size))
    seen_by_guest.opened = True  # only shown here: the guest's table is not opened in this window
    app.pop(seen_by_guest)
    port = lobby.hosting.port
    saved += _shoot_waiting(app, lobby, guest, size)
    saved += _shoot_join(app, size, port)
    app.close(quit_pygame=False)
    return saved


def _shoot_waiting(app: App, lobby: Any, guest: Any, size: tuple[int, int]) -> list[Path]:
    """The table while a player elsewhere has dropped: "Waiting for Bongani (0:03)". The host
    starts the game with a computer in the last seat, plays until it is the guest's turn, and the
    guest's program goes away."""
    from game.net.lobby_link import COMPUTER, SeatChoice

    lobby.link.set_seat(2, SeatChoice(COMPUTER, level="medium"))
    deadline = time.monotonic() + 10
    _run(app, lambda: (lobby.lobby is not None and lobby.lobby.filled) or time.monotonic() > deadline)
    lobby.link.start()
    deadline = time.monotonic() + 20
    _run(app, lambda: _top_is(app, "TableScene") or time.monotonic() > deadline)
    scene = _top(app, TableScene)
    session = scene.session

    def guests_turn() -> bool:
        guest.poll()  # the guest's program is there, but nobody plays at it
        time.sleep(0.002)
        top = app.scenes[-1]
        if session.current_player == 1 or time.monotonic() > deadline:
            return True
        if session.current_player == 0:
            legal = session.view(0).game.legal_actions
            if isinstance(top, (BiddingPanel, ContractChooser)):
                top.finish(top.on_action, legal[0])
            elif isinstance(top, KittyDialog):
                top.finish(top.on_confirm, [action.value for action in legal][: top.discard_count])
            elif top is scene and scene.input_enabled():
                scene.apply_action(legal[0])
        return False

    deadline = time.monotonic() + 30
    _run(app, guests_turn)
    guest.close()  # Bongani's program is gone: the link drops
    deadline = time.monotonic() + 15
    _run(app, lambda: session.away_seats().get(1, Away(0)).seconds >= 3 or time.monotonic() > deadline)
    app.step(FRAME, [])
    return [_save(app, "table_waiting", size)]


def _shoot_join(app: App, size: tuple[int, int], port: int) -> list[Path]:
    """The Join screen: the table hosted above found on this network (advertised on loopback) under
    a table kept to rejoin, then the screen with nothing found and an invite typed."""
    from game.net.discovery import advertise, browse
    from game.settings.network_seats import forget, remember
    from game.ui.scenes.join_scene import JoinScene

    saved = []
    remember(app.user_paths, "ws://192.168.1.31:47123/", "earlier", {2: "kept"}, "Cleo's table", "wizard")
    advert = advertise(port, "Alice's laptop", interfaces=["127.0.0.1"])
    join = JoinScene(app, browser=browse(["127.0.0.1"]))
    join.name_input.text = "Bongani"
    app.push(join)
    deadline = time.monotonic() + 10

    def found() -> bool:
        time.sleep(0.005)  # the servers answer from their threads
        return any(row.enabled and "Alice" in row.label for row in join.rows) or time.monotonic() > deadline

    _run(app, found)
    app.step(FRAME, [])
    saved.append(_save(app, "join_found", size))
    app.pop(join)
    advert.close()
    forget(app.user_paths, "earlier")
    nothing = JoinScene(app, browser=browse(["127.0.0.1"]))
    nothing.name_input.text = "Bongani"
    nothing.address_input.text = "192.168.1.20:47123/ABCD-2345"
    nothing.opened_at -= 10  # past the first look round: "No tables found"
    app.push(nothing)
    nothing.focus.focus(nothing.address_input)
    app.step(FRAME, [])
    saved.append(_save(app, "join_nothing", size))
    app.pop(nothing)
    return saved


def _wait_for_display(number: str, server: subprocess.Popen, timeout: float = 10.0) -> None:
    """Wait until the X server on ``:number`` accepts connections (or fail)."""
    socket = Path(f"/tmp/.X11-unix/X{number}")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"Xvfb :{number} exited with code {server.returncode}")
        if socket.exists():
            return
        time.sleep(0.05)
    raise RuntimeError(f"Xvfb :{number} did not start within {timeout:.0f} s")


def run_under_xvfb(display: str, sizes: str, picture_set: str = "tour") -> int:
    """Start our own Xvfb, take the pictures from the real x11 window in a child process, stop Xvfb."""
    for tool in ("Xvfb", "import"):
        if shutil.which(tool) is None:
            print(f"--xvfb needs {tool} (packages xvfb and imagemagick)", file=sys.stderr)
            return 2
    number = display.lstrip(":")
    if Path(f"/tmp/.X{number}-lock").exists():
        print(f"display :{number} is already in use; pick another with --display", file=sys.stderr)
        return 2
    server = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_display(number, server)
        env = {**os.environ, "DISPLAY": f":{number}", "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy"}
        root = Path(__file__).resolve().parent.parent
        child = subprocess.run(
            [sys.executable, "-m", "tools.screenshots", "--sizes", sizes, "--set", picture_set], env=env, cwd=root
        )
        return child.returncode
    finally:
        # Stop only the server this run started.
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


PICTURE_SETS: dict[str, Callable[[tuple[int, int]], list[Path]]] = {
    "tour": shoot,
    "variants": shoot_variants,
    "network": shoot_network,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Save screenshots of the app into docs/screenshots/.")
    parser.add_argument("--sizes", default="1280x720,800x600", help="comma-separated WIDTHxHEIGHT list")
    parser.add_argument(
        "--xvfb", action="store_true", help="capture the real window on a virtual X screen started for this run"
    )
    parser.add_argument("--display", default=":95", help="the X display number --xvfb starts (default :95)")
    parser.add_argument("--out", metavar="DIR", help=f"write the pictures here instead of {OUT}")
    parser.add_argument(
        "--set",
        dest="picture_set",
        choices=sorted(PICTURE_SETS),
        default="tour",
        help="tour: the README's pictures (default); variants: the house variants; network: Host, lobby and Join",
    )
    parser.add_argument(
        "--language",
        choices=LANGUAGES,
        help="the interface language of the pictures (default en; use --out to keep each apart)",
    )
    args = parser.parse_args(argv)
    if args.language:
        os.environ[LANGUAGE_ENV] = args.language
    if args.out:
        os.environ[OUT_ENV] = str(Path(args.out).resolve())
    if args.xvfb:
        return run_under_xvfb(args.display, args.sizes, args.picture_set)
    for text in args.sizes.split(","):
        width, height = (int(part) for part in text.lower().split("x"))
        for path in PICTURE_SETS[args.picture_set]((width, height)):
            print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
