"""The lobby of a network table, the same for its host and its guests, until the game begins.

It shows the table's name, game and rules, each seat (kind, name, connected or
not) and, for the host, the addresses and invite code to pass on, the seat
controls and Start. When the game begins the table opens over ``link.session()``.
"""

from __future__ import annotations

# The screen reads everything from its ``LobbyLink``: each frame drains what arrived
# (``poll``, never waiting) and a message wakes the window (``App.wake``), so a
# lobby where nothing happens costs no CPU. The host's seat controls send their
# messages and show the seat as the server's next ``lobby`` says, never ahead of it.
#
# The host's controls per seat: the kind (a player elsewhere, a player here, a
# computer), "Move down" (swap with the next seat, players and all) and "Free"
# (a player elsewhere who took it goes back to the lobby). Start is enabled once
# every seat is filled; otherwise the foot says how many players are still awaited.

import logging
from urllib.parse import urlsplit
from typing import TYPE_CHECKING, Any

import pygame

from game.net.hosting import HostedServer
from game.net.lobby_link import COMPUTER, HOST, OPEN, LinkError, Lobby, LobbyLink, SeatChoice, link_closed
from game.net.remote_session import NetworkTableError
from game.rules import get_game
from game.rules.house_rules import Rules
from game.ui import theme
from game.ui.art.table_art import draw_felt
from game.ui.scenes.rules_editor import value_label
from game.ui.seat_names import role_name
from game.ui.text import has_text, t
from game.ui.widgets.button import Button
from game.ui.widgets.controls import Cycler
from game.ui.widgets.dialog import DialogScene
from game.ui.widgets.focus import Widget
from game.ui.widgets.geometry import split_columns, window_scale
from game.ui.widgets.panels import draw_message_bar, draw_panel, panel_content
from game.ui.widgets.text import draw_text_fit, draw_text_wrapped

if TYPE_CHECKING:
    from game.ui.app import App

log = logging.getLogger("tricktable.lobby")

SEAT_KINDS = (OPEN, HOST, COMPUTER)
KIND_KEYS = {OPEN: "host.kind_open", HOST: "host.kind_here", COMPUTER: "start.computer"}


def link_error_words(error: LinkError) -> str:
    """A server's refusal in the player's words (its own English when the catalogue has no words for it)."""
    key = f"net.error.{error.code}"
    return t(key) if has_text(key) else error.message or error.code


def rules_lines(rules: Rules, players: int) -> list[str]:
    """The rules in play, one line each, as the start screen lists them."""
    game = get_game(rules.game)
    values = rules.to_dict()
    return [
        t(
            "start.rule_line",
            label=t(f"rule.{spec.key}.label"),
            value=value_label(rules.game, spec, values[spec.key], players),
        )
        for spec in game.rule_specs
        if spec.key in values
    ]


def server_address(url: str) -> str:
    """``host:port`` of a WebSocket address (an IPv6 host in brackets)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host
    return f"{host}:{parts.port}" if parts.port else host


def copy_text(text: str) -> bool:
    """Put ``text`` on the system clipboard; False where there is none (it is shown anyway)."""
    try:
        import pygame.scrap as scrap

        if not scrap.get_init():
            scrap.init()
        scrap.put_text(text)
        return True
    except (pygame.error, ImportError, AttributeError, NotImplementedError) as error:
        log.info("no clipboard here: %s", error)
        return False


class LobbyScene(DialogScene):
    """One table's lobby (see the module docstring)."""

    opaque = True
    modal = True
    cancellable = True

    def __init__(self, app: App, link: LobbyLink, hosting: HostedServer | None = None) -> None:
        super().__init__(app)
        self.link = link
        self.hosting = hosting
        if hosting is not None and hasattr(app, "host_for"):
            app.host_for(hosting, self)
        if link.client.on_arrival is None and hasattr(app, "wake"):
            link.client.on_arrival = app.wake  # a message wakes a sleeping window
        # Where players reach the table: this computer's addresses, or the server elsewhere it is on.
        if hosting is not None:
            self.addresses = hosting.addresses()
        else:
            self.addresses = [server_address(link.client.url)] if link.is_host else []
        self.opened = False  # the table opened over the link's session
        self.seat_controls: list[tuple[Cycler, Button, Button]] = []
        self.controls_share = 0.5  # of a seat's row, the host's controls take this part
        self._laid_out = False
        self.leave_button = Button((0, 0, 1, 1), t("lobby.leave"), self.leave)
        self.start_button = Button((0, 0, 1, 1), t("lobby.start"), self.start, kind="primary")
        self.copy_code_button = Button((0, 0, 1, 1), t("lobby.copy"), lambda: self.copy(self.link.invite or ""))
        self.copy_invite_button = Button((0, 0, 1, 1), t("lobby.copy_invite"), lambda: self.copy(self.full_invite()))
        self.link.poll()
        self._build_seat_controls()
        self._refresh()

    # ------------------------------------------------------------------ what it shows
    @property
    def lobby(self) -> Lobby | None:
        return self.link.lobby

    @property
    def is_host(self) -> bool:
        return self.link.is_host

    def full_invite(self) -> str:
        """The invite at the table's first address: ``host:port/CODE`` (``wss://`` first for a
        server that speaks TLS)."""
        code = self.link.invite or ""
        if not code or not self.addresses:
            return code
        tls = "wss://" if self.link.client.url.startswith("wss:") else ""
        return f"{tls}{self.addresses[0]}/{code}"

    def start_reason(self) -> str | None:
        """Why the host cannot start yet (None: every seat is filled)."""
        lobby = self.lobby
        if lobby is None:
            return t("lobby.connecting")
        free = len(lobby.free_seats)
        if free:
            return t("lobby.waiting_for_players", count=free)
        return None

    def status_text(self) -> str:
        """The foot's line: the link, the seat lost, or what the lobby waits for."""
        status = self.link.status
        if link_closed(self.link):
            return t("lobby.closed")
        if not status.up:
            return t("net.reconnecting") if self.lobby is not None else t("lobby.connecting")
        if self.link.seat_lost:
            return t("lobby.seat_lost")
        if self.is_host:
            return self.start_reason() or t("lobby.ready")
        return t("lobby.waiting_for_host")

    def seat_words(self, index: int) -> tuple[str, str]:
        """A seat's name and what sits there, as the lobby lists it."""
        lobby = self.lobby
        assert lobby is not None
        seat = lobby.seats[index]
        if seat.kind == COMPUTER:
            level = t(f"level.{seat.level}") if seat.level and has_text(f"level.{seat.level}") else seat.level or ""
            return seat.name, t("lobby.computer_level", level=level)
        if seat.kind == HOST:
            return seat.name, t("lobby.at_host")
        if seat.taken:
            words = t("lobby.joined") if seat.connected else t("lobby.not_connected")
            return seat.name, words
        return t("lobby.free_seat"), t("lobby.waiting_invite")

    # ------------------------------------------------------------------ the host's controls
    def _build_seat_controls(self) -> None:
        lobby = self.lobby
        self.seat_controls = []
        if lobby is None or not self.is_host:
            return
        labels = [t(KIND_KEYS[kind]) for kind in SEAT_KINDS]
        for index, seat in enumerate(lobby.seats):
            kind = Cycler((0, 0, 1, 1), list(SEAT_KINDS), SEAT_KINDS.index(seat.kind), self._kind_setter(index), labels)
            move = Button((0, 0, 1, 1), t("lobby.move_down"), self._mover(index))
            free = Button((0, 0, 1, 1), t("lobby.free"), self._freer(index))
            self.seat_controls.append((kind, move, free))

    def _kind_setter(self, index: int) -> Any:
        return lambda kind: self.set_seat_kind(index, kind)

    def _mover(self, index: int) -> Any:
        return lambda: self.move_seat(index)

    def _freer(self, index: int) -> Any:
        return lambda: self.set_seat_kind(index, OPEN)

    def set_seat_kind(self, index: int, kind: str) -> None:
        """Host: put a player elsewhere, a player here or a computer at seat ``index``."""
        lobby = self.lobby
        if lobby is None:
            return
        if kind == HOST:
            choice = SeatChoice(HOST, t("start.default_human_n", number=index + 1))
        elif kind == COMPUTER:
            offered = get_game(lobby.game).ai_levels
            levels = [level for level in ("medium", "easy", "hard", "expert") if level in offered]
            name = role_name(f"computer:{index}") or t("start.seat", number=index + 1)
            choice = SeatChoice(COMPUTER, name, levels[0] if levels else None)
        else:
            choice = SeatChoice(OPEN)
        self.link.set_seat(index, choice)

    def move_seat(self, index: int) -> None:
        """Host: swap seat ``index`` with the next (the last with the first)."""
        lobby = self.lobby
        if lobby is not None:
            self.link.move_seat(index, (index + 1) % len(lobby.seats))

    def start(self) -> None:
        reason = self.start_reason()
        if reason is not None:
            self.show_reason(reason)
            return
        self.link.start()

    def copy(self, text: str) -> None:
        if text and copy_text(text):
            self.show_note(t("lobby.copied", text=text), 3.0)

    def leave(self) -> None:
        """Leave the table (the host's leaving ends it): back to the start screen."""
        self.link.close()
        self.app.show_start()

    def cancel(self) -> None:
        self.leave()

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        super().update(dt)
        if self.opened:
            return
        if self.link.poll():
            self._taken_in()
        if self.link.game_ready:
            self._open_table()

    def _taken_in(self) -> None:
        error = self.link.error
        if error is not None:
            self.link.clear_error()
            self.show_reason(link_error_words(error))
        if self.lobby is not None and len(self.seat_controls) != (len(self.lobby.seats) if self.is_host else 0):
            self._build_seat_controls()
            self.relayout()
        self._refresh()

    def _refresh(self) -> None:
        lobby = self.lobby
        reason = self.start_reason()
        self.start_button.visible = self.is_host
        self.start_button.enabled = reason is None and self.link.status.up
        self.start_button.reason = reason or (None if self.link.status.up else t("net.reconnecting"))
        for index, (kind, _move, free) in enumerate(self.seat_controls):
            if lobby is None or index >= len(lobby.seats):
                continue
            seat = lobby.seats[index]
            kind.index = SEAT_KINDS.index(seat.kind)
            free.visible = seat.kind == OPEN and seat.taken
        self.copy_code_button.visible = self.is_host and bool(self.link.invite)
        self.copy_invite_button.visible = self.copy_code_button.visible and bool(self.addresses)
        self.invalidate()

    def _open_table(self) -> None:
        """The game has begun: the table over the link's session takes this screen's place."""
        self.opened = True
        try:
            session = self.link.session(user_paths=getattr(self.app, "user_paths", None))
        except NetworkTableError as error:
            log.warning("the network table cannot be shown: %s", error)
            self.link.client.close()
            self.app.show_start()
            self.app.notify(t("lobby.cannot_show"), seconds=8.0)
            return
        self.app.open_table(session, hosted=self.hosting is not None)

    def wake_in(self) -> float | None:
        return super().wake_in()  # a message from the server wakes the window (App.wake)

    def on_exit(self) -> None:
        if not self.opened:
            self.link.close()

    # ------------------------------------------------------------------ layout
    def layout(self, size: tuple[int, int]) -> None:
        width, height = size
        scale = self.scale = window_scale(size)
        margin = self.margin = max(8, round(24 * scale))
        gap = self.gap = max(6, round(12 * scale))
        self.panel_rect = pygame.Rect(0, 0, width, height)
        self.title_rect = pygame.Rect(margin, margin // 2, width - 2 * margin, max(30, round(56 * scale)))
        self.subtitle_rect = pygame.Rect(margin, self.title_rect.bottom, width - 2 * margin, max(14, round(24 * scale)))
        foot_h = max(26, round(52 * scale))
        foot = pygame.Rect(margin, height - margin - foot_h, width - 2 * margin, foot_h)
        top = self.subtitle_rect.bottom + gap
        panels = pygame.Rect(margin, top, width - 2 * margin, max(40, foot.top - gap - top))
        left_w = round((panels.width - gap) * 0.56)
        self.seats_panel = pygame.Rect(panels.left, panels.top, left_w, panels.height)
        self.info_panel = pygame.Rect(
            self.seats_panel.right + gap, panels.top, panels.width - left_w - gap, panels.height
        )
        self._layout_seats(panel_content(self.seats_panel, True, scale))
        self._layout_info(panel_content(self.info_panel, True, scale))
        button_w = max(120, round(foot.width * 0.22))
        self.leave_button.set_rect(pygame.Rect(foot.left, foot.top, button_w, foot.height))
        self.start_button.set_rect(pygame.Rect(foot.right - button_w, foot.top, button_w, foot.height))
        self.status_rect = pygame.Rect(
            self.leave_button.rect.right + gap,
            foot.top,
            max(1, self.start_button.rect.left - 2 * gap - self.leave_button.rect.right),
            foot.height,
        )
        widgets: list[Widget] = []
        for kind, move, free in self.seat_controls:
            widgets += [kind, move, free]
        widgets += [self.copy_code_button, self.copy_invite_button, self.leave_button, self.start_button]
        self.focus.set_widgets(widgets)  # the focus passes over those hidden (a seat nobody took has no Free)
        if not self._laid_out:  # the first layout focuses the screen's main button; later ones keep the focus
            self._laid_out = True
            self.focus.focus(self.start_button if self.is_host else self.leave_button)

    def _layout_seats(self, content: pygame.Rect) -> None:
        seats = len(self.lobby.seats) if self.lobby is not None else 4
        small_gap = max(3, self.gap // 2)
        row_h = max(22, min(round(46 * self.scale), (content.height - small_gap * seats) // max(1, seats)))
        self.seat_rows = [
            pygame.Rect(content.left, content.top + index * (row_h + small_gap), content.width, row_h)
            for index in range(seats)
        ]
        # The host's controls take the row's right part: more of it in a narrow window, where
        # their words would not fit otherwise.
        self.controls_share = 0.5 if content.width >= 560 else 0.62
        for row, (kind, move, free) in zip(self.seat_rows, self.seat_controls):
            controls_w = round(row.width * self.controls_share)
            controls = pygame.Rect(row.right - controls_w, row.top + 2, controls_w, row.height - 4)
            kind_w = round((controls.width - 2 * small_gap) * 0.36)
            kind.set_rect(pygame.Rect(controls.left, controls.top, kind_w, controls.height))
            rest = pygame.Rect(
                kind.rect.right + small_gap, controls.top, controls.right - kind.rect.right - small_gap, controls.height
            )
            move_rect, free_rect = split_columns(rest, 2, small_gap)
            move.set_rect(move_rect)
            free.set_rect(free_rect)

    def _layout_info(self, content: pygame.Rect) -> None:
        scale, gap = self.scale, self.gap
        self.info_content = content
        if not self.is_host:
            self.invite_rect = pygame.Rect(content.left, content.top, content.width, 0)
            self.rules_rect = content
            return
        line = max(16, round(26 * scale))
        code_h = max(30, round(64 * scale))
        self.code_label_rect = pygame.Rect(content.left, content.top, content.width, line)
        self.code_rect = pygame.Rect(content.left, self.code_label_rect.bottom, round(content.width * 0.66), code_h)
        self.copy_code_button.set_rect(
            pygame.Rect(
                self.code_rect.right + gap,
                self.code_rect.centery - line,
                content.right - self.code_rect.right - gap,
                2 * line,
            )
        )
        shown = max(1, min(3, len(self.addresses)))
        self.address_rect = pygame.Rect(
            content.left, self.code_rect.bottom + gap // 2, content.width, line * (shown + 1)
        )
        self.invite_line_rect = pygame.Rect(
            content.left, self.address_rect.bottom, round(content.width * 0.66), 2 * line
        )
        self.copy_invite_button.set_rect(
            pygame.Rect(
                self.invite_line_rect.right + gap,
                self.invite_line_rect.top + line // 2,
                content.right - self.invite_line_rect.right - gap,
                line + line // 2,
            )
        )
        self.invite_rect = pygame.Rect(
            content.left, content.top, content.width, self.invite_line_rect.bottom - content.top
        )
        self.rules_rect = pygame.Rect(
            content.left,
            self.invite_rect.bottom + gap,
            content.width,
            max(1, content.bottom - self.invite_rect.bottom - gap),
        )

    # ------------------------------------------------------------------ drawing
    def draw_static(self, surface: pygame.Surface) -> None:
        surface.blit(draw_felt(surface.get_size()), (0, 0))
        scale = self.scale
        lobby = self.lobby
        title = lobby.name if lobby is not None and lobby.name else t("lobby.title")
        draw_text_fit(surface, title, self.title_rect, round(52 * scale), theme.PANEL_TITLE, bold=True)
        draw_text_fit(surface, self.subtitle(), self.subtitle_rect, round(22 * scale), theme.TEXT_DIM)
        draw_panel(surface, self.seats_panel, t("lobby.seats"), factor=scale)
        draw_panel(surface, self.info_panel, t("lobby.invite") if self.is_host else t("start.rules_now"), factor=scale)
        self._draw_seats(surface)
        self._draw_info(surface)
        self.focus.draw(surface)
        size = max(13, round(18 * scale))
        status = self.status_text()
        hint = self.focus.hint()
        if hint and not self.toast.active:
            draw_message_bar(surface, hint, self.status_rect, size)
        elif not self.toast.active:
            warn = self.link.seat_lost or not self.link.status.up
            draw_message_bar(surface, status, self.status_rect, size, warning=warn)

    def subtitle(self) -> str:
        lobby = self.lobby
        if lobby is None:
            return t("lobby.connecting")
        game = get_game(lobby.game)
        parts = [t(game.text("title")), t("start.players_fixed_alone", players=len(lobby.seats))]
        parts.append(t("lobby.spectators_on") if lobby.spectators else t("lobby.spectators_off"))
        if lobby.stand_in_after is not None:
            parts.append(t("lobby.stand_in", seconds=round(lobby.stand_in_after)))
        return " · ".join(parts)

    def _draw_seats(self, surface: pygame.Surface) -> None:
        lobby = self.lobby
        if lobby is None:
            return
        size = max(13, round(22 * self.scale))
        for index, row in enumerate(self.seat_rows[: len(lobby.seats)]):
            seat = lobby.seats[index]
            mine = index in self.link.held
            if mine:
                pygame.draw.rect(surface, theme.ROW_HIGHLIGHT[:3], row, width=2, border_radius=6)
            words_w = round(row.width * (1 - self.controls_share if self.seat_controls else 1.0)) - 8
            dot = max(4, row.height // 6)
            centre = (row.left + dot + 4, row.centery)
            if seat.kind == COMPUTER:
                pygame.draw.circle(surface, theme.TEXT_DIM, centre, dot, width=1)
            else:
                pygame.draw.circle(surface, theme.GOOD if seat.connected else theme.BUTTON_DISABLED, centre, dot)
            left = centre[0] + dot + 6
            number = pygame.Rect(left, row.top, max(40, round(row.width * 0.1)), row.height)
            draw_text_fit(surface, t("lobby.seat_number", number=index + 1), number, size, theme.TEXT_DIM, align="left")
            name, detail = self.seat_words(index)
            if mine:
                name = t("lobby.you", name=name)
            text = pygame.Rect(
                number.right + 4, row.top, max(1, row.left + words_w - number.right - 4), row.height // 2 + 2
            )
            colour = theme.ACCENT if mine else (theme.TEXT if seat.filled else theme.TEXT_DIM)
            draw_text_fit(surface, name, text, size, colour, align="left", bold=True)
            below = pygame.Rect(text.left, text.bottom - 2, text.width, row.bottom - text.bottom + 2)
            draw_text_fit(surface, detail, below, round(size * 0.8), theme.TEXT_DIM, align="left")

    def _draw_info(self, surface: pygame.Surface) -> None:
        scale = self.scale
        size = max(13, round(20 * scale))
        if self.is_host:
            draw_text_fit(surface, t("lobby.code"), self.code_label_rect, size, theme.TEXT, align="left", bold=True)
            draw_text_fit(
                surface,
                self.link.invite or "…",
                self.code_rect,
                round(60 * scale),
                theme.ACCENT,
                align="left",
                bold=True,
            )
            heading = t("lobby.addresses") if self.hosting is not None else t("lobby.server_address")
            lines = [heading] + self.addresses[:3]
            if not self.addresses:
                lines.append(t("lobby.no_address"))
            rows = max(1, len(lines))
            height = self.address_rect.height // rows
            for number, line in enumerate(lines):
                rect = pygame.Rect(
                    self.address_rect.left, self.address_rect.top + number * height, self.address_rect.width, height
                )
                draw_text_fit(
                    surface, line, rect, size, theme.TEXT if number else theme.TEXT_DIM, align="left", bold=number > 0
                )
            half = self.invite_line_rect.height // 2
            label = pygame.Rect(
                self.invite_line_rect.left, self.invite_line_rect.top, self.invite_line_rect.width, half
            )
            draw_text_fit(surface, t("lobby.full_invite"), label, size, theme.TEXT_DIM, align="left")
            value = label.move(0, half)
            draw_text_fit(surface, self.full_invite(), value, size, theme.TEXT, align="left", bold=True)
        lobby = self.lobby
        if lobby is None:
            return
        rules = "\n".join(rules_lines(lobby.rules, len(lobby.seats)))
        head = pygame.Rect(self.rules_rect.left, self.rules_rect.top, self.rules_rect.width, round(size * 1.4))
        body = pygame.Rect(head.left, head.bottom, head.width, max(1, self.rules_rect.bottom - head.bottom))
        if self.is_host:
            draw_text_fit(surface, t("start.rules_now"), head, size, theme.ACCENT, align="left", bold=True)
        else:
            body = self.rules_rect
        columns = split_columns(body, 2, self.gap) if body.width > 360 and rules.count("\n") > 5 else [body]
        lines = rules.split("\n")
        per = (len(lines) + len(columns) - 1) // len(columns)
        for number, column in enumerate(columns):
            chunk = "\n".join(lines[number * per : (number + 1) * per])
            # The guests' panel holds only the rules: they read at the start screen's size.
            rule_size = round(size * 0.9) if self.is_host else max(14, round(22 * scale))
            draw_text_wrapped(surface, chunk, column, rule_size, theme.TEXT_DIM, align="left")
