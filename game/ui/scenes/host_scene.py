"""Host a table: the game, the house rules and every seat, then "Open the table" for players elsewhere.

The start screen's own screen with a third kind of seat (a player elsewhere), the
table's options at its foot, and a server started inside the program (``HostedServer``)
that a ``LobbyLink`` over loopback makes the table on; then the lobby shows.
"""

from __future__ import annotations

# Reuse: the game buttons, players, seat rows, presets, rule editor, rules help and
# "Rules in play" are the start screen's (``StartScene``), so the rules a table is
# hosted with are built exactly as a local game's. A seat is a player elsewhere
# ("open": a name comes with the player who takes it), a player here (this screen:
# two or more play hot seat) or a computer at a level. At least one player is here.
#
# Opening never waits in a frame: the server starts on its thread, the link connects
# on its own, and each frame looks for ``table_created`` (or a refusal) until
# ``OPEN_SECONDS`` have passed. Any failure stops the server and is said on this
# screen, whose choices are kept to try again.

import logging
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from game.net.client import LOST
from game.net.hosting import LISTEN_ON, HostedServer
from game.net.protocol import DEFAULT_PORT
from game.net.lobby_link import COMPUTER, HOST, OPEN, LobbyLink, SeatChoice
from game.session.names import clean_name
from game.ui import theme
from game.settings.house_rule_files import ConfigError, load_rule_file
from game.ui.scenes.start_scene import GameRules, StartScene
from game.ui.text import error_words, t
from game.ui.widgets.button import Button
from game.ui.widgets.controls import Cycler, TextInput
from game.ui.widgets.focus import Widget
from game.ui.widgets.text import draw_text_fit

if TYPE_CHECKING:
    from game.persistence.savegame import SavedGame
    from game.ui.app import App

log = logging.getLogger("tricktable.host")

SERVER_LENGTH = 120
RULES_FILE_LENGTH = 400  # characters of a rules file's path
_SERVER = re.compile(
    r"^(?:(?P<scheme>[wW][sS][sS]?)://)?(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(?P<port>\d{1,5}))?/?$", re.I
)

SEAT_KINDS = ("open", "human", "computer")  # a player elsewhere, a player here, a computer
STAND_IN_CHOICES = (None, 30, 60, 120, 300)  # seconds a player may be away before a computer plays
OPEN_SECONDS = 15.0  # how long the table's making may take before the screen gives up


def server_url(text: str) -> str | None:
    """The WebSocket address of a server as typed: ``host``, ``host:port``, ``ws://host:port`` or
    ``wss://host:port`` (TLS: a ``serve --cert --key``); None when it cannot be one."""
    match = _SERVER.match(text.strip())
    if match is None:
        return None
    port = int(match.group("port") or DEFAULT_PORT)
    if not 0 < port < 65536:
        return None
    scheme = "wss" if len(match.group("scheme") or "") == 3 else "ws"  # wss (in any case): TLS
    return f"{scheme}://{match.group('host')}:{port}/"


class HostScene(StartScene):
    """Choose the table; "Open the table" starts the server and shows the lobby."""

    cancellable = True

    def __init__(self, app: App) -> None:
        self.spectators = False
        self.stand_in_after: int | None = None
        # The table being made: the program's own server (None: a server elsewhere), the link, the time limit.
        self._opening: tuple[HostedServer | None, LobbyLink, float] | None = None
        self.server_text = ""  # a server elsewhere to make the table on; empty: this computer serves it
        self.rules_file_text = ""  # a house-rule file to play by; empty: the bundled presets
        # Where the server listens and whether it announces itself (tests: loopback, port 0, quiet).
        self.listen: tuple[str, int] = (LISTEN_ON, DEFAULT_PORT)
        self.announce = True
        super().__init__(app)
        self.focus.focus(self.start_button)

    # ------------------------------------------------------------------ what differs from the start screen
    def _load_saved_game(self) -> SavedGame | None:
        return None  # a saved local game is continued from the start screen, not here

    def _restore_last_setup(self) -> None:
        super()._restore_last_setup()
        # The game, the names and the rules of the last local game; the seats start as a
        # player here and players elsewhere, which is what hosting is for.
        self.kinds = ["human"] + ["open"] * (self.max_seats - 1)

    def network_buttons(self) -> list[Button]:
        return []

    def title_text(self) -> str:
        return t("host.title")

    def subtitle_text(self) -> str:
        return t("host.subtitle")

    def seat_kind_choices(self) -> tuple[list[str], list[str]]:
        return list(SEAT_KINDS), [t("host.kind_open"), t("host.kind_here"), t("start.computer")]

    def foot_widgets(self) -> list[Widget]:
        return [self.back_button, self.spectators_cycler, self.stand_in_cycler]

    def _build_widgets(self) -> None:
        super()._build_widgets()
        self.back_button = Button((0, 0, 1, 1), t("host.back"), self.cancel)
        self.spectators_cycler = Cycler(
            (0, 0, 1, 1),
            [False, True],
            int(self.spectators),
            self._set_spectators,
            labels=[t("host.spectators_off"), t("host.spectators_on")],
        )
        self.stand_in_cycler = Cycler(
            (0, 0, 1, 1),
            list(STAND_IN_CHOICES),
            STAND_IN_CHOICES.index(self.stand_in_after),
            self._set_stand_in,
            labels=[t("host.stand_in_off")] + [t("host.stand_in_after", seconds=s) for s in STAND_IN_CHOICES[1:]],
        )
        self.start_button.label = t("host.open")
        self.server_input = TextInput(
            (0, 0, 1, 1),
            self.server_text,
            self._set_server,
            max_length=SERVER_LENGTH,
            placeholder=t("host.server_placeholder"),
        )
        self.rules_file_input = TextInput(
            (0, 0, 1, 1),
            self.rules_file_text,
            self._set_rules_file,
            max_length=RULES_FILE_LENGTH,
            placeholder=t("host.rules_file_placeholder"),
        )
        self.rules_file_button = Button((0, 0, 1, 1), t("host.rules_file_load"), self.load_rules_file)
        self._refresh()

    def _set_rules_file(self, text: str) -> None:
        self.rules_file_text = text

    def load_rules_file(self) -> None:
        """Play by the house-rule file whose path was typed: its presets take the place of the
        bundled ones (and its game is chosen, when it names one). A file that cannot be used is
        said in the player's words and changes nothing."""
        path = Path(self.rules_file_text.strip()).expanduser()
        if not self.rules_file_text.strip():
            self._notify(t("host.rules_file_none"))
            return
        try:
            try:
                rule_file = load_rule_file(path)  # the game the file names...
            except ConfigError as error:
                if error.problem is None or error.problem.code != "game.missing_in_file":
                    raise
                rule_file = load_rule_file(path, self.game)  # ... or, naming none, the one set up
        except ConfigError as error:
            self._notify(t("host.rules_file_refused", reason=error_words(error)))
            return
        game = rule_file.game
        self.catalog[game] = GameRules(game, rule_file)
        self.preset_index[game] = self._standard_index(game)
        self.edits[game] = {}
        self.set_game(game)
        self._notify(t("host.rules_file_loaded", file=path.name), seconds=4.0)

    def _kind_setter(self, seat: int) -> Callable[[str], None]:
        set_kind = super()._kind_setter(seat)

        def set_kind_here(kind: str) -> None:
            set_kind(kind)
            self._refresh()  # whether anybody plays here decides whether the table can open

        return set_kind_here

    def _set_server(self, text: str) -> None:
        self.server_text = text

    def _set_spectators(self, value: bool) -> None:
        self.spectators = value

    def _set_stand_in(self, value: int | None) -> None:
        self.stand_in_after = value

    def _place(self, size: tuple[int, int], scale: float) -> None:
        # The start screen's layout above a row of its own at the foot: where the table is served.
        width, height = size
        gap = max(6, round(12 * self.across(scale)))
        row_h = max(24, round(40 * scale))
        super()._place((width, height - row_h - gap), scale)
        margin = self.margin
        row = pygame.Rect(margin, height - margin - row_h, width - 2 * margin, row_h)
        # Where the table is served, and a house-rule file to play by, side by side.
        self.server_label_rect = pygame.Rect(row.left, row.top, round(row.width * 0.09), row.height)
        self.server_input.set_rect(
            pygame.Rect(self.server_label_rect.right + gap // 2, row.top, round(row.width * 0.3), row.height)
        )
        self.rules_file_label_rect = pygame.Rect(
            self.server_input.rect.right + gap, row.top, round(row.width * 0.12), row.height
        )
        button_w = round(row.width * 0.13)
        self.rules_file_button.set_rect(pygame.Rect(row.right - button_w, row.top, button_w, row.height))
        self.rules_file_input.set_rect(
            pygame.Rect(
                self.rules_file_label_rect.right + gap // 2,
                row.top,
                max(1, self.rules_file_button.rect.left - gap // 2 - self.rules_file_label_rect.right - gap // 2),
                row.height,
            )
        )
        # A player elsewhere brings a name: the seat shows where it will come from instead.
        for seat in range(self.max_seats):
            if self.kinds[seat] == "open":
                self.name_inputs[seat].visible = False
        widgets = [widget for widget in self.focus.widgets if widget.visible]
        at = widgets.index(self.start_button)
        widgets[at:at] = [self.server_input, self.rules_file_input, self.rules_file_button]
        self.focus.set_widgets(widgets)

    def _refresh(self) -> None:
        super()._refresh()
        if not hasattr(self, "back_button"):
            return  # still being built
        if self._opening is not None:
            self.start_button.enabled = False
            self.start_button.reason = t("host.opening")
        elif self.start_button.enabled and not self.human_seats():
            self.start_button.enabled = False
            self.start_button.reason = t("host.needs_player_here")

    def _draw_players(self, surface: pygame.Surface, scale: float) -> None:
        super()._draw_players(surface, scale)
        size = max(12, round(20 * scale))
        for seat in range(self.players):
            if self.kinds[seat] == "open":
                box = self.name_inputs[seat].rect
                draw_text_fit(surface, t("host.open_seat"), box, size, theme.TEXT_DIM, align="left")

    def draw_page(self, surface: pygame.Surface) -> None:
        super().draw_page(surface)
        size = max(12, round(20 * self.scale))
        draw_text_fit(surface, t("host.server"), self.server_label_rect, size, theme.TEXT, align="left", bold=True)
        draw_text_fit(
            surface, t("host.rules_file"), self.rules_file_label_rect, size, theme.TEXT, align="right", bold=True
        )

    # ------------------------------------------------------------------ the table's seats
    def default_role(self, seat: int) -> str:
        """Players elsewhere read the names, and "You" would name each of them: a lone player here
        is "Player N" (the seat's number) until they type a name, on this screen as at the table."""
        role = super().default_role(seat)
        return f"player:{seat + 1}" if role == "you" else role

    def seat_choices(self) -> list[SeatChoice]:
        """Each seat as the table is made with it."""
        seats = self.build_seats()
        choices = []
        for seat in range(self.players):
            kind = self.kinds[seat]
            name = seats[seat].name
            if kind == "open":
                choices.append(SeatChoice(OPEN))
            elif kind == "human":
                choices.append(SeatChoice(HOST, name))
            else:
                choices.append(SeatChoice(COMPUTER, name, self.seat_level(seat)))
        return choices

    def table_name(self) -> str:
        here = [choice.name for choice in self.seat_choices() if choice.kind == HOST]
        return clean_name(t("host.table_name", name=here[0]) if here else t("host.title"))

    # ------------------------------------------------------------------ opening the table
    def start(self) -> None:
        self.open_table()

    def cancel(self) -> None:
        self._give_up()
        self.close()

    def open_table(self) -> None:
        """Start the server, connect to it and ask for the table (answered in ``update``)."""
        rules = self.build_rules()
        if rules is None or self._opening is not None or not self.start_button.enabled:
            self.show_reason(self.start_button.reason or "")
            return
        on_arrival = getattr(self.app, "wake", None)
        server: HostedServer | None = None
        if self.server_text.strip():
            url = server_url(self.server_text)
            if url is None:
                self.show_reason(t("host.server_bad", text=self.server_text.strip()))
                return
            link = LobbyLink.connect(url, on_arrival=on_arrival)
        else:
            try:
                server = self._start_server()
            except OSError as error:
                log.warning("could not start the table server: %s", error)
                self.show_reason(t("host.cannot_listen", reason=error_words(error)))
                return
            link = LobbyLink.connect(server.url, on_arrival=on_arrival)
        link.create_table(
            rules,
            self.seat_choices(),
            self.table_name(),
            spectators=self.spectators,
            stand_in_after=self.stand_in_after,
        )
        self._opening = (server, link, time.monotonic() + OPEN_SECONDS)
        self._refresh()

    def _start_server(self) -> HostedServer:
        """The program's own table server, listening (``OSError`` when it cannot)."""
        paths = getattr(self.app, "user_paths", None)
        host, port = self.listen
        server = HostedServer(
            paths.data_dir / "server" if paths is not None else None, self.table_name(), host=host, port=port
        )
        server.start(announce=self.announce)
        return server

    def _give_up(self, reason: str | None = None) -> None:
        if self._opening is None:
            return
        server, link, _ = self._opening
        self._opening = None
        link.close()
        if server is not None:
            server.stop()
        self._refresh()
        if reason:
            self.show_reason(reason)

    def update(self, dt: float) -> None:
        super().update(dt)
        if self._opening is None:
            return
        server, link, deadline = self._opening
        link.poll()
        if link.error is not None:
            from game.ui.scenes.lobby_scene import link_error_words

            log.warning("the table server refused the table: %s %s", link.error.code, link.error.message)
            self._give_up(t("host.refused", reason=link_error_words(link.error)))
        elif link.lobby is not None and link.is_host:
            from game.ui.scenes.lobby_scene import LobbyScene

            self._opening = None
            paths = getattr(self.app, "user_paths", None)
            if server is None and paths is not None:
                # A server elsewhere keeps the table when this program closes: its seats are kept, as
                # a joiner's are, to be taken back from the Join screen (the program's own server
                # ends with the program, and its tables with it).
                link.keep_seats(paths)
            self.app.replace(LobbyScene(self.app, link, hosting=server))
        elif server is None and link.status.state == LOST:
            # A server elsewhere that cannot be reached: said at once (the client would try on).
            log.warning("the server %s cannot be reached: %s", link.client.url, link.status.reason)
            self._give_up(t("host.server_unreachable", where=self.server_text.strip()))
        elif time.monotonic() > deadline:
            self._give_up(t("host.no_answer"))

    def wake_in(self) -> float | None:
        wake = super().wake_in()
        if self._opening is None:
            return wake
        # The answer wakes the window (``App.wake``); this is for the time limit.
        left = max(0.0, self._opening[2] - time.monotonic())
        return left if wake is None else min(wake, left)

    def on_exit(self) -> None:
        self._give_up()
