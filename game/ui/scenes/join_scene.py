"""The Join a table screen: tables found on this network, tables to rejoin, or a typed invite.

Opened from the start screen. A row joins with a click or Enter; the address box takes
``host:port/CODE``, ``host/CODE`` or, with one server found, the code alone. Joining waits
without blocking a frame ("Connecting..."), then opens the lobby screen on the link.
"""

from __future__ import annotations

# Rows, top to bottom: the tables this program holds seats at (``network_seats``, newest
# first: "Rejoin Ann's table (Wizard)"), then each table the servers on this network offer
# ("Ann's table: Wizard, 2 of 4 seats free"), a full or started table and a server of
# another protocol version greyed with the reason. With nothing found the list says so, and
# that typing the address works (multicast may be blocked, or the host elsewhere).
#
# Waiting costs no CPU: the list's own thread (``LanTables``) wakes the window only when the
# list changed (``App.wake``); the screen asks for frames on a timer only while a join is
# under way, and once when "Looking..." turns into "No tables found".
#
# A rejoin the server refuses with ``bad_token`` or ``no_table`` (the game ended, or the
# server forgot it) offers to forget that table, and says so; so does one that finds no
# server there (a host's program closed), which the player may also try again later.
# The name is the last start-screen setup's first human seat, unless that was the
# program's own default name.

import logging
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.net.discovery import Browser, browse
from game.net.join_attempt import CONNECT_SECONDS, FAILED, JOINED, JoinAttempt, JoinFailure
from game.net.lan_tables import ListedServer, ListedTable, LanTables, host_url, server_url
from game.net.protocol import DEFAULT_PORT, PROTOCOL_VERSION, parse_invite
from game.rules import game_names, get_game
from game.session.names import clean_name
from game.settings.app_settings import LANGUAGES
from game.settings.last_setup import load_last_setup
from game.settings.network_seats import RememberedTable, forget, remembered
from game.ui import theme
from game.ui.text import has_text, t, text_in
from game.ui.widgets.button import Button
from game.ui.widgets.controls import TextInput
from game.ui.widgets.dialog import DialogScene
from game.ui.art.table_art import draw_felt
from game.ui.widgets.focus import Widget
from game.ui.widgets.geometry import Colour, ui_scale
from game.ui.widgets.panels import draw_message_bar, draw_panel, panel_content
from game.ui.widgets.text import draw_text_fit, draw_text_wrapped

if TYPE_CHECKING:
    from game.net.lobby_link import LinkError, LobbyLink
    from game.ui.app import App

log = logging.getLogger("tricktable.net")

APP_NAME = "Trick Table"
NAME_LENGTH = 14  # as the start screen's name boxes
ADDRESS_LENGTH = 120
CONNECTING_FRAME_SECONDS = 0.1  # how often a join under way is looked at
LOOKING_SECONDS = 3.0  # "Looking for tables..." before "No tables found"
# The server's refusals of a rejoin after which the remembered seats are no use.
GONE_CODES = ("bad_token", "no_table")


def game_title(game: str) -> str:
    """A game's title in the player's language (a name this version does not know, as sent)."""
    return t(get_game(game).text("title")) if game in game_names() else game


def table_title(name: str) -> str:
    """A table's name as its host gave it ("Ann's table", in the host's language), or "A table"."""
    return name or t("join.table_unnamed")


def last_human_name(app: App) -> str:
    """The first human seat's name of the last start-screen setup; "" for the program's own default."""
    setup = load_last_setup(app.user_paths)
    if setup is None:
        return ""
    for kind, name in zip(setup.kinds, setup.names):
        if kind == "human":
            name = clean_name(name)[:NAME_LENGTH]
            defaults = {text_in(language, "start.default_human") for language in LANGUAGES}
            return "" if name in defaults else name
    return ""


class RowButton(Button):
    """A list row: its text at the left, a dim note (the server, the reason) at the right."""

    def __init__(self, label: str, on_click: Callable[[], object], note: str = "", **options: object) -> None:
        super().__init__((0, 0, 1, 1), label, on_click, **options)  # type: ignore[arg-type]  # Button's own keywords
        self.note = note

    def _draw_content(self, image: pygame.Surface, body: pygame.Rect, colour: Colour, state: str) -> None:
        inner = body.inflate(-2 * max(8, body.height // 3), -max(4, body.height // 6))
        size = self.font_size or max(12, round(body.height * 0.45))
        note_w = round(inner.width * 0.34) if self.note else 0
        text = pygame.Rect(inner.left, inner.top, inner.width - note_w, inner.height)
        draw_text_fit(image, self.label, text, size, colour, align="left", bold=True)
        if self.note:
            note = pygame.Rect(text.right + 8, inner.top, note_w - 8, inner.height)
            faded = theme.BUTTON_TEXT_DISABLED if state == "disabled" else theme.TEXT_DIM
            draw_text_fit(image, self.note, note, round(size * 0.85), faded, align="right")


class JoinScene(DialogScene):
    """The Join a table screen (see the module docstring)."""

    opaque = True
    modal = True
    cancellable = True

    def __init__(self, app: App, browser: Browser | None = None) -> None:
        """``browser``: where to look for servers (default: every network of this machine)."""
        super().__init__(app)
        self.lan = LanTables(browser if browser is not None else browse(), APP_NAME, on_change=self._wake)
        self.opened_at = time.monotonic()
        self._was_looking = True
        self.attempt: JoinAttempt | None = None
        self.attempt_entry: RememberedTable | None = None  # the remembered table being rejoined
        self.status = ""  # "Connecting to ..." or why the last join failed
        self.status_warning = False
        self.forgettable: RememberedTable | None = None  # a refused rejoin, offered to forget
        self.refusal: LinkError | None = None  # the server's last coded refusal, as the status words it
        self.lobby_link: LobbyLink | None = None  # the link of the lobby opened from here
        self.kept_seats: dict[int, str] = {}  # its seats as last remembered
        self.remembered = remembered(app.user_paths)
        self.listing: list[ListedServer] = []
        self.rows: list[RowButton] = []
        self.first_row = 0
        self.name_input = TextInput(
            (0, 0, 1, 1), last_human_name(app), None, max_length=NAME_LENGTH, placeholder=t("join.name_placeholder")
        )
        self.address_input = TextInput(
            (0, 0, 1, 1), "", None, max_length=ADDRESS_LENGTH, placeholder=t("join.address_placeholder")
        )
        self.join_button = Button((0, 0, 1, 1), t("join.join"), self.join_typed, kind="primary")
        self.forget_button = Button((0, 0, 1, 1), t("join.forget"), self.forget_refused, kind="danger")
        self.back_button = Button((0, 0, 1, 1), t("join.back"), self.cancel)
        self.scale = 1.0
        self._build_rows()
        self.relayout()
        self.focus.focus(self.rows[0] if self.rows else self.address_input)

    # ------------------------------------------------------------------ the rows
    def _wake(self) -> None:
        waker = getattr(self.app, "wake", None)
        if waker is not None:
            waker()

    def _rebuild(self) -> None:
        """New rows for what changed; the focus stays on the row it was on, when that row is still there."""
        focused = self.focus.focused
        label = focused.label if isinstance(focused, RowButton) else None
        self._build_rows()
        self.relayout()
        same = [row for row in self.rows if row.label == label and row.enabled]
        if same:
            self.focus.focus(same[0])
            self.relayout()  # scrolled into view

    def _build_rows(self) -> None:
        rows: list[RowButton] = []
        for entry in self.remembered:
            label = t("join.rejoin", table=table_title(entry.table_name), game=game_title(entry.game))
            rows.append(RowButton(label, self._rejoiner(entry), note=_where(entry.server_url)))
        for listed in self.listing:
            server = listed.server
            if not server.compatible:
                rows.append(self._incompatible_row(listed))
                continue
            for table in listed.tables:
                rows.append(self._table_row(listed, table))
        self.rows = rows
        self.first_row = min(self.first_row, max(0, len(rows) - 1))

    def _incompatible_row(self, listed: ListedServer) -> RowButton:
        version = listed.server.protocol
        reason = t("join.other_version", server=version if version is not None else "?", ours=PROTOCOL_VERSION)
        row = RowButton(listed.server.name, lambda: None, note=t("join.other_version_short"), enabled=False)
        row.reason = reason
        return row

    def _table_row(self, listed: ListedServer, table: ListedTable) -> RowButton:
        title, game = table_title(table.name), game_title(table.game)
        url, watch = listed.url, False
        reason = None
        if table.free_seats and not table.started:
            label = t("join.row", table=title, game=game, free=table.free_seats, players=table.players)
        elif table.spectators:  # full or begun, but open to watchers
            label, watch = t("join.row_watch", table=title, game=game), True
        elif table.started:
            label, reason = t("join.row_started", table=title, game=game), t("join.started_reason")
        else:
            label, reason = t("join.row_full", table=title, game=game), t("join.full_reason")

        def take_it() -> None:
            if watch:
                self.start_watch(url, table.invite, title)
            else:
                self.start_join(url, table.invite, title)

        # The server's name tells tables of different servers apart; a table hosted from the
        # start screen is its own server, named like the table, which the row already says.
        server = listed.server.name
        row = RowButton(label, take_it, note="" if server == title else server, enabled=reason is None)
        row.reason = reason
        return row

    def _rejoiner(self, entry: RememberedTable) -> Callable[[], None]:
        return lambda: self.start_rejoin(entry)

    # ------------------------------------------------------------------ joining
    def player_name(self) -> str | None:
        """The name to join with, or None (and the player is asked for one)."""
        name = clean_name(self.name_input.text)
        if not name:
            self._say(t("join.name_needed"), warning=True)
            self.focus.focus(self.name_input)
            return None
        return name

    def join_typed(self) -> None:
        """Join the table the address box names."""
        text = self.address_input.text.strip()
        if not text:
            self._say(t("join.address_needed"), warning=True)
            self.focus.focus(self.address_input)
            return
        invite = parse_invite(text)
        if invite is None:
            self._say(t("join.address_bad", text=text[:60]), warning=True)
            return
        if invite.host:
            found = [listed.server for listed in self.listing if invite.host in listed.server.addresses]
            tls = re.match(r"(?i)wss://", text) is not None or any(s.tls and s.port == invite.port for s in found)
            self.start_join(host_url(invite.host, invite.port, tls), invite.code, str(invite))
            return
        servers = [listed.server for listed in self.listing if listed.server.compatible]
        if len(servers) != 1:
            key = "join.code_needs_address" if not servers else "join.code_needs_address_many"
            self._say(t(key, example=f"192.168.1.20:{DEFAULT_PORT}/{invite.code}"), warning=True)
            return
        self.start_join(server_url(servers[0]), invite.code, servers[0].name)

    def start_join(self, url: str, invite: str, where: str) -> None:
        name = self.player_name()
        if name is None:
            return
        self._begin(JoinAttempt.join(url, APP_NAME, invite, name, on_arrival=self._wake), where, None)

    def start_watch(self, url: str, invite: str, where: str) -> None:
        self._begin(JoinAttempt.watch(url, APP_NAME, invite, on_arrival=self._wake), where, None)

    def start_rejoin(self, entry: RememberedTable) -> None:
        attempt = JoinAttempt.rejoin(entry.server_url, APP_NAME, entry.table, entry.seats, on_arrival=self._wake)
        self._begin(attempt, table_title(entry.table_name), entry)

    def _begin(self, attempt: JoinAttempt, where: str, entry: RememberedTable | None) -> None:
        if self.attempt is not None:
            self.attempt.cancel()
        self.attempt, self.attempt_entry = attempt, entry
        self.forgettable = None
        self._say(t("join.connecting", where=where))

    def _joined(self, attempt: JoinAttempt) -> None:
        link = attempt.link
        assert link is not None and link.table is not None and link.lobby is not None
        link.keep_seats(self.app.user_paths)  # at once: a program closed from here on can still take them back
        self._say("")
        from game.ui.scenes.lobby_scene import LobbyScene

        self.lobby_link, self.kept_seats = link, dict(link.held)
        self.app.push(LobbyScene(self.app, link))

    def _failed(self, attempt: JoinAttempt) -> None:
        entry = self.attempt_entry
        self.refusal = attempt.error
        if attempt.error is not None:
            from game.ui.scenes.lobby_scene import link_error_words

            text = link_error_words(attempt.error)
            if entry is not None and attempt.error.code in GONE_CODES:
                self.forgettable = entry
                text = t("join.rejoin_gone", reason=text)
            log.info("joining at %s was refused: %s %s", attempt.url, attempt.error.code, attempt.error.message)
        else:
            failure = attempt.failure or JoinFailure("failed")
            text = failure_words(failure, attempt.url)
            log.info("could not join at %s: %s %s", attempt.url, failure.code, failure.detail)
            # The server may be gone for good (a host's program closed): the player may try
            # again later, or drop the table from the list.
            self.forgettable = entry
        self._say(text, warning=True)

    def forget_refused(self) -> None:
        entry = self.forgettable
        if entry is None:
            return
        forget(self.app.user_paths, entry.table)
        self.forgettable = None
        self.remembered = remembered(self.app.user_paths)
        self._say(t("join.forgotten", table=table_title(entry.table_name)))
        self._rebuild()

    def _say(self, text: str, warning: bool = False) -> None:
        self.status, self.status_warning = text, warning
        self.relayout()  # the forget button comes and goes with the message

    # ------------------------------------------------------------------ the frame
    def update(self, dt: float) -> None:
        super().update(dt)
        if self.app.top_scene() is not self:
            self._follow_moved_seats()
            return  # the lobby is open over this screen
        attempt = self.attempt
        if attempt is not None and attempt.poll():
            self.attempt = None
            if attempt.state == JOINED:
                self._joined(attempt)
            elif attempt.state == FAILED:
                self._failed(attempt)
        looking = self.still_looking()
        if self.lan.poll():
            self.listing = self.lan.listing()
            self._rebuild()
        elif looking != self._was_looking:
            self.invalidate()  # "Looking..." becomes "No tables found"
        self._was_looking = looking

    def wake_in(self) -> float | None:
        """No frames while nothing changes: the list's watcher and the servers wake the window;
        only a join under way is looked at on a timer, and "Looking..." turns into "No tables
        found" once."""
        toast = self.toast.wake_in()
        if self.app.top_scene() is not self:
            return toast
        if self.attempt is not None:
            return CONNECTING_FRAME_SECONDS
        searching = self._was_looking and self.lan.searching
        looking = LOOKING_SECONDS - (time.monotonic() - self.opened_at) if searching else None
        timers = [wait for wait in (toast, looking) if wait is not None]
        return max(0.0, min(timers)) if timers else None

    def _follow_moved_seats(self) -> None:
        """The host moved this player in the lobby: the token now takes the new seat back."""
        link = self.lobby_link
        if link is None or link.table is None or link.lobby is None or not link.held or link.held == self.kept_seats:
            return
        self.kept_seats = dict(link.held)
        link.keep_seats(self.app.user_paths)

    def _forget_a_table_left(self) -> None:
        """Seats given up in the lobby before the start (left, or freed by the host) take nothing back."""
        link, self.lobby_link = self.lobby_link, None
        if link is not None and link.table is not None and not (link.held or link.started or link.spectating):
            forget(self.app.user_paths, link.table)

    def on_enter(self) -> None:
        # Back from the lobby: the seats kept may have changed (left, or a game ended).
        self._forget_a_table_left()
        self.remembered = remembered(self.app.user_paths)
        self._rebuild()

    def on_exit(self) -> None:
        self._forget_a_table_left()  # the lobby's Leave goes back to the start screen
        if self.attempt is not None:
            self.attempt.cancel()
            self.attempt = None
        self.lan.close()

    def cancel(self) -> None:
        if len(getattr(self.app, "scenes", [])) > 1:
            self.app.pop(self)
        else:
            self.app.show_start()

    def handle_extra_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.focus.focused is self.address_input:
                self.join_typed()
                return True
            if self.focus.focused is self.name_input:
                self.focus.focus(self.rows[0] if self.rows else self.address_input, keyboard=True)
                return True
        if event.type == pygame.MOUSEWHEEL and self.list_rect.collidepoint(pygame.mouse.get_pos()):
            self.first_row = max(0, min(self.first_row - event.y, len(self.rows) - self.rows_shown))
            self.relayout()
            return True
        return False

    # ------------------------------------------------------------------ layout
    def layout(self, size: tuple[int, int]) -> None:
        width, height = size
        self.scale = scale = ui_scale(size)
        margin = max(10, round(24 * scale))
        gap = max(6, round(12 * scale))
        self.panel_rect = pygame.Rect(0, 0, width, height)
        self.title_rect = pygame.Rect(margin, margin // 2, width - 2 * margin, max(30, round(56 * scale)))
        line_h = max(26, round(42 * scale))
        label_w = round((width - 2 * margin) * 0.26)
        name_top = self.title_rect.bottom + gap // 2
        self.name_label = pygame.Rect(margin, name_top, label_w, line_h)
        self.name_input.set_rect(pygame.Rect(margin + label_w, name_top, min(round(320 * scale), width // 3), line_h))
        foot_h = max(26, round(44 * scale))
        foot = pygame.Rect(margin, height - margin // 2 - foot_h, width - 2 * margin, foot_h)
        button_w = max(110, round(170 * scale))
        self.back_button.set_rect(pygame.Rect(foot.left, foot.top, button_w, foot_h))
        self.hint_rect = pygame.Rect(self.back_button.rect.right + gap, foot.top, foot.right - button_w - gap, foot_h)
        status_h = max(30, round(48 * scale))
        self.status_rect = pygame.Rect(margin, foot.top - gap - status_h, width - 2 * margin, status_h)
        self.forget_button.visible = self.forgettable is not None and bool(self.status)
        if self.forget_button.visible:
            forget_w = max(120, round(220 * scale))
            self.forget_button.set_rect(
                pygame.Rect(self.status_rect.right - forget_w, self.status_rect.top, forget_w, status_h)
            )
            self.status_rect.width -= forget_w + gap
        address_top = self.status_rect.top - gap - line_h
        self.address_label = pygame.Rect(margin, address_top, label_w, line_h)
        self.join_button.set_rect(pygame.Rect(width - margin - button_w, address_top, button_w, line_h))
        self.address_input.set_rect(
            pygame.Rect(margin + label_w, address_top, self.join_button.rect.left - gap - margin - label_w, line_h)
        )
        help_h = max(16, round(24 * scale))
        self.address_help = pygame.Rect(
            margin + label_w, address_top - help_h - 2, width - 2 * margin - label_w, help_h
        )
        list_top = self.name_label.bottom + gap
        self.list_panel = pygame.Rect(margin, list_top, width - 2 * margin, self.address_help.top - gap - list_top)
        self.list_rect = panel_content(self.list_panel, True, scale)
        row_h = max(28, round(46 * scale))
        row_gap = max(4, round(8 * scale))
        self.rows_shown = max(1, (self.list_rect.height + row_gap) // (row_h + row_gap))
        focused = self.focus.focused
        if focused in self.rows:
            index = self.rows.index(focused)  # type: ignore[arg-type]  # a row, just checked
            if index < self.first_row:
                self.first_row = index
            elif index >= self.first_row + self.rows_shown:
                self.first_row = index - self.rows_shown + 1
        self.first_row = max(0, min(self.first_row, len(self.rows) - self.rows_shown))
        for index, row in enumerate(self.rows):
            place = index - self.first_row
            row.visible = 0 <= place < self.rows_shown
            row.set_rect(
                pygame.Rect(
                    self.list_rect.left, self.list_rect.top + place * (row_h + row_gap), self.list_rect.width, row_h
                )
            )
        self.message_rect = pygame.Rect(
            self.list_rect.left, self.list_rect.top + len(self.rows) * (row_h + row_gap), self.list_rect.width, 0
        )
        self.message_rect.height = max(0, self.list_rect.bottom - self.message_rect.top)
        widgets: list[Widget] = [self.name_input, *self.rows, self.address_input, self.join_button]
        if self.forget_button.visible:
            widgets.append(self.forget_button)
        widgets.append(self.back_button)
        self.focus.set_widgets(widgets)

    def reason_rect(self) -> pygame.Rect:
        return self.hint_rect

    def handle_event(self, event: pygame.event.Event) -> bool:
        before = self.focus.focused
        used = super().handle_event(event)
        if self.focus.focused is not before and self.focus.focused in self.rows:
            self.relayout()  # keep the focused row in view
        return used

    # ------------------------------------------------------------------ drawing
    def draw_static(self, surface: pygame.Surface) -> None:
        surface.blit(draw_felt(surface.get_size()), (0, 0))
        scale = self.scale
        size = max(14, round(22 * scale))
        draw_text_fit(
            surface, t("join.title"), self.title_rect, round(40 * scale), theme.PANEL_TITLE, align="left", bold=True
        )
        draw_text_fit(surface, t("join.name"), self.name_label, size, theme.TEXT, align="left", bold=True)
        draw_text_fit(surface, t("join.address"), self.address_label, size, theme.TEXT, align="left", bold=True)
        draw_text_fit(
            surface,
            t("join.address_help", example=f"192.168.1.20:{DEFAULT_PORT}/ABCD-2345"),
            self.address_help,
            max(12, round(17 * scale)),
            theme.TEXT_DIM,
            align="left",
        )
        draw_panel(surface, self.list_panel, t("join.found_title"), factor=scale)
        message = self.list_message()
        if message and self.message_rect.height >= size:
            draw_text_wrapped(
                surface, message, self.message_rect.inflate(-16, -8), size, theme.TEXT_DIM, align="center"
            )
        if self.status:
            draw_message_bar(surface, self.status, self.status_rect, max(13, round(19 * scale)), self.status_warning)
        if not self.toast.active:
            hint = self.focus.hint()
            draw_text_fit(surface, hint or t("join.keys"), self.hint_rect, max(12, round(17 * scale)), theme.TEXT_DIM)
        self.focus.draw(surface)

    def list_message(self) -> str:
        """What the list says under its rows: still looking, nothing found, or how to join."""
        found_tables = any(listed.tables for listed in self.listing)
        if found_tables:
            return ""
        if not self.lan.searching:
            return t("join.discovery_off")
        if self.listing:
            return t("join.no_open_tables")
        if self.still_looking():
            return t("join.looking")
        return t("join.nothing_found")

    def still_looking(self) -> bool:
        return time.monotonic() - self.opened_at < LOOKING_SECONDS

    def draw_live(self, surface: pygame.Surface) -> None:
        if self.toast.active:
            self.toast.draw(surface, self.hint_rect, max(13, round(self.hint_rect.height * 0.45)))


def _where(url: str) -> str:
    """A server's address as the player typed it: ``host:port``."""
    return url.split("://", 1)[-1].rstrip("/")


def failure_words(failure: JoinFailure, url: str) -> str:
    """Why a connection to ``url`` failed, in the player's language."""
    where = _where(url)
    key = f"join.failed.{failure.code}"
    if not has_text(key):
        key = "join.failed.failed"
    return t(key, where=where, host=where.rsplit(":", 1)[0].strip("[]"), seconds=round(CONNECT_SECONDS))
