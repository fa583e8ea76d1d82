"""The modal dialog scene every panel, chooser and editor builds on.

A dialog is a scene drawn over the table: a panel with focusable widgets, a
strip under it for refusal reasons (a fading toast) and hover hints. It is
drawn into one cached layer that is redrawn only when something may have
changed, so a still dialog costs one blit per frame over the animated table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import pygame

from game.ui import theme
from game.ui.scene import Scene
from game.ui.text import t
from game.ui.widgets.focus import ACTIVATE_KEYS, FocusGroup, Widget
from game.ui.widgets.geometry import area_above_hand, composition_room, measured_room, window_scale
from game.ui.widgets.panels import (
    draw_message_bar,
    draw_panel,
    draw_scrim,
    draw_suggestion_frame,
    panel_content,
    panel_radius,
)
from game.ui.widgets.toast import Toast

if TYPE_CHECKING:
    from game.ui.app import App

#: How long the note that a hotkey chose a control (Enter confirms) stays.
CHOSEN_NOTE_SECONDS = 4.0
MOUSE_EVENTS = (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL)


class DialogHost(Protocol):
    """The scene a dialog opens over, when its own controls must keep working.

    The card table is the one host: while a bidding panel, contract chooser or
    kitty dialog waits for the player, the table's Score pad and Menu buttons
    (and Esc, and S) still work, the dialog stays clear of them, and the
    table says where on the felt the dialog may go.
    """

    def control_event(self, event: pygame.event.Event) -> bool:
        """Handle an event meant for the host's controls; True when it was used."""
        ...

    def draw_controls(self, surface: pygame.Surface) -> None:
        """Draw the host's controls again (over a dialog's darkening scrim)."""
        ...

    def dialog_area(self, size: tuple[int, int], wide: bool) -> pygame.Rect:
        """Where a dialog may go: clear of the host's controls (``wide``: as wide as the window)."""
        ...

    def name_plates(self, size: tuple[int, int]) -> list[pygame.Rect]:
        """The players' name plates at this window size, which a grown dialog must not cover."""
        ...


class DialogScene(Scene):
    """A modal dialog over the table: scrim, panel, focusable widgets, reason toast.

    Subclasses implement ``layout(size)`` (set ``self.panel_rect`` and create or
    place the widgets, then ``self.focus.set_widgets(...)``) and
    ``draw_content(surface)``; ``cancel()`` runs on Esc when ``cancellable``.
    ``finish(callback, *args)`` pops the dialog, then calls the callback once.
    """

    modal = True
    opaque = False
    cancellable = False
    #: Darken the table under the dialog (costs a full-window blend every frame).
    dim_background = False
    #: Back the translucent panel with solid colour, for dialogs opened over other dialogs.
    solid_panel = False

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.focus = FocusGroup(on_refused=self.show_reason, on_chosen=self.hotkey_chose)
        self.toast = Toast()
        self.panel_rect = pygame.Rect(0, 0, 1, 1)
        #: The size factor the panel is laid out at: its title band grows with it.
        self.panel_factor = 1.0
        self.title: str | None = None
        self.done = False
        self._laid_out_for: tuple[int, int] | None = None
        # The whole dialog is drawn into one cached layer and redrawn only when
        # something may have changed (an event, a new layout, a toast coming or
        # going), so a still dialog costs one blit per frame.
        self._layer: pygame.Surface | None = None
        self._layer_area = pygame.Rect(0, 0, 0, 0)
        self._dirty = True
        self._toast_was_active = False
        #: The scene this dialog is open over, if it keeps controls of its own usable.
        self.host: DialogHost | None = None
        #: What a hint suggests here, framed in gold on its button (``button_for``); the choice stays the player's.
        self.suggested: Any = None

    def attach_host(self, host: DialogHost) -> DialogScene:
        """Open over ``host``: its controls stay usable and the dialog keeps clear of them."""
        self.host = host
        self._laid_out_for = None  # lay out again inside the host's area
        return self

    def suggest_action(self, action: Any) -> None:
        """Mark ``action``'s button as the hint's choice (None: no mark)."""
        if action != self.suggested:
            self.suggested = action
            self._dirty = True

    def button_for(self, action: Any) -> Widget | None:
        """The control that makes ``action``, in a dialog whose controls each make one action."""
        return None

    # ------------------------------------------------------------------ geometry
    def window_size(self) -> tuple[int, int]:
        size = getattr(self.app, "size", None)
        if size is None:
            surface = pygame.display.get_surface()
            size = surface.get_size() if surface is not None else (1280, 720)
        return (max(1, int(size[0])), max(1, int(size[1])))

    def relayout(self, size: tuple[int, int] | None = None) -> None:
        size = size or self.window_size()
        self._laid_out_for = size
        self.layout(size)
        self._dirty = True

    def invalidate(self) -> None:
        """Something visible changed outside an event: redraw the cached layer."""
        self._dirty = True

    def layout(self, size: tuple[int, int]) -> None:
        raise NotImplementedError

    def place_panel(self, size: tuple[int, int], width: int, height: int, wide: bool = False) -> pygame.Rect:
        """The panel rectangle for a dialog answered while looking at the table.

        Over a host the panel hangs from the top of the host's free area (so a
        name plate is either wholly under it or wholly clear of it); without
        one it sits in the upper part of the window, above the bottom hand.
        """
        area = self.panel_area(size, wide)
        if self.host is not None:
            panel = pygame.Rect(0, 0, max(1, min(area.width, width)), max(1, min(area.height, height)))
            panel.midtop = (area.centerx, area.top)
            return panel
        panel = pygame.Rect(0, 0, max(1, min(area.width, width)), max(1, min(area.height, height)))
        if wide:
            panel.center = area.center
        else:
            panel.midtop = (area.centerx, area.top + max(0, (area.height - panel.height) // 3))
        return panel

    def panel_area(self, size: tuple[int, int], wide: bool = False) -> pygame.Rect:
        """The area ``place_panel`` keeps the panel in: the host's free area, else the window
        above the bottom hand (``wide``: the whole window within a margin). A dialog measures
        how far the UI scale may grow it against this area."""
        if self.host is not None:
            return self.host.dialog_area(size, wide)
        return area_above_hand(size) if not wide else pygame.Rect(0, 0, *size).inflate(-16, -16)

    def room_in_sight_of_plates(
        self, size: tuple[int, int], base: tuple[int, int], wide: bool = False, width: int | None = None
    ) -> float:
        """How far the UI scale may grow a panel of ``base`` size (at factor 1): as far as it
        fits ``panel_area`` and, over the table, covers no name plate that the panel at its
        usual size leaves in sight (a plate under a dialog is not drawn, so a grown panel
        would hide a player). With ``width`` the panel keeps that width and only its height
        grows: how far a panel whose width is used up may still grow downwards."""
        area = self.panel_area(size, wide).size
        room = composition_room(area, base) if width is None else area[1] / max(1, base[1])
        if self.host is None:
            return room
        own = window_scale(size)

        def panel_at(factor: float) -> pygame.Rect:
            across = round(base[0] * factor) if width is None else width
            return self.place_panel(size, across, round(base[1] * factor), wide).inflate(4, 4)

        usual = panel_at(own)
        in_sight = [plate for plate in self.host.name_plates(size) if not usual.colliderect(plate)]
        return measured_room(size, lambda factor: factor <= room and panel_at(factor).collidelist(in_sight) < 0)

    def open_panel(
        self, size: tuple[int, int], width: int, height: int, wide: bool = False, factor: float = 1.0
    ) -> pygame.Rect:
        """Place the titled panel as ``place_panel`` does, laid out at size factor ``factor``
        (its title grows with it); returns its content rectangle."""
        self.panel_rect = self.place_panel(size, width, height, wide)
        self.panel_factor = factor
        return panel_content(self.panel_rect, True, factor)

    def centre_panel(
        self, size: tuple[int, int], width: int, height: int, margin: int = 8, factor: float = 1.0
    ) -> pygame.Rect:
        """Centre the titled panel in the window (within ``margin``), laid out at size factor
        ``factor``; returns its content rectangle."""
        window_w, window_h = size
        panel = pygame.Rect(0, 0, max(1, min(window_w - 2 * margin, width)), max(1, min(window_h - 2 * margin, height)))
        panel.center = (window_w // 2, window_h // 2)
        self.panel_rect = panel
        self.panel_factor = factor
        return panel_content(panel, True, factor)

    def on_resize(self, size: tuple[int, int]) -> None:
        self.relayout((max(1, size[0]), max(1, size[1])))

    def reason_rect(self) -> pygame.Rect:
        """Where reasons and toasts show: a strip just under the panel (or inside its foot)."""
        width, height = self.window_size()
        bar_h = max(24, min(44, round(height * 0.05)))
        rect = pygame.Rect(0, 0, min(width - 8, max(self.panel_rect.width, 320)), bar_h)
        rect.midtop = (self.panel_rect.centerx, self.panel_rect.bottom + 8)
        if rect.bottom > height - 4:
            rect.bottom = self.panel_rect.bottom - 6
        rect.clamp_ip(pygame.Rect(0, 0, width, height))
        return rect

    # ------------------------------------------------------------------ behaviour
    def show_reason(self, text: str) -> None:
        self.toast.show(text)
        self._dirty = True

    def show_note(self, text: str, seconds: float) -> None:
        """A message that is not a refusal (a hint), in the reason strip, for ``seconds``."""
        self.toast.show(text, seconds, warning=False)
        self._dirty = True

    def cancel(self) -> None:
        """Esc: close without choosing (only when ``cancellable``)."""
        self.close()

    def close(self) -> None:
        if self.app is not None and hasattr(self.app, "pop"):
            self.app.pop(self)

    def finish(self, callback: Callable[..., Any] | None, *args: Any) -> None:
        """Leave the dialog and report the choice, exactly once."""
        if self.done:
            return
        self.done = True
        self.close()
        if callback is not None:
            callback(*args)

    def handle_event(self, event: pygame.event.Event) -> bool:
        if self.done:
            return True
        if self._laid_out_for is None:
            self.relayout()
        self._dirty = True
        # The host's buttons lie outside the panel: the mouse reaches them first.
        if self.host is not None and event.type in MOUSE_EVENTS and self.host.control_event(event):
            return True
        if self.focus.handle_event(event):
            return True
        if self.handle_extra_event(event):
            return True
        if event.type == pygame.KEYDOWN and event.key in ACTIVATE_KEYS and self.focus.focused is None:
            # A dialog that opened with nothing chosen (``FocusGroup.focus_nothing``): Enter has
            # nothing to press, and a stray one (the tail of the last screen's answer) must not
            # choose for the player.
            self.enter_with_nothing_chosen()
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.cancellable:
            self.cancel()
            return True
        # Keys the dialog has no use for (Esc: the menu; S: the score pad) go to the host.
        if self.host is not None and event.type == pygame.KEYDOWN and self.host.control_event(event):
            return True
        return True  # modal: nothing else reaches the table under the dialog

    def handle_extra_event(self, event: pygame.event.Event) -> bool:
        """Events the widgets did not use (hotkeys, clicks outside the panel)."""
        return False

    def hotkey_chose(self, widget: Widget) -> None:
        """A choosing hotkey moved the focus to ``widget``: say that Enter makes the choice."""
        label = getattr(widget, "label", "")
        if label:
            self.show_note(t("keys.chosen", choice=label), CHOSEN_NOTE_SECONDS)

    def enter_with_nothing_chosen(self) -> None:
        """Enter or Space while no control has the focus: a dialog that opens with nothing
        chosen says here how to choose (by default nothing happens)."""

    def update(self, dt: float) -> None:
        if self._laid_out_for != self.window_size():
            self.relayout()
        self.toast.update(dt)
        self.focus.update(dt)
        if self.toast.active != self._toast_was_active:
            self._toast_was_active = self.toast.active
            self._dirty = True

    def wake_in(self) -> float | None:
        """A still dialog needs no frames; its reason toast does once it starts to fade."""
        return self.toast.wake_in()

    def draw(self, surface: pygame.Surface) -> None:
        if self._laid_out_for is None:
            self.relayout()
        if self.dim_background:
            draw_scrim(surface)
            if self.host is not None:
                self.host.draw_controls(surface)  # still usable, so not darkened
        size = surface.get_size()
        layer = self._layer
        if self._dirty or layer is None or layer.get_size() != size:
            layer = self._render_layer(size)
        surface.blit(layer, self._layer_area.topleft, self._layer_area)
        self.draw_live(surface)

    def layer_area(self, size: tuple[int, int]) -> pygame.Rect:
        """The part of the window the cached layer covers (the panel, its shadow, the hint strip)."""
        area = self.panel_rect.inflate(16, 16).union(self.reason_rect())
        return area.clip(pygame.Rect(0, 0, *size))

    def _render_layer(self, size: tuple[int, int]) -> pygame.Surface:
        if self.opaque:
            layer = self._layer if self._layer is not None and self._layer.get_size() == size else pygame.Surface(size)
        else:
            layer = pygame.Surface(size, pygame.SRCALPHA)
        self.draw_static(layer)
        if pygame.display.get_init() and pygame.display.get_surface() is not None:
            layer = layer.convert() if self.opaque else layer.convert_alpha()
        self._layer = layer
        self._layer_area = pygame.Rect(0, 0, *size) if self.opaque else self.layer_area(size)
        self._dirty = False
        return layer

    def draw_static(self, surface: pygame.Surface) -> None:
        """Everything but the toast: the panel, its content, the widgets and the hover hint."""
        if self.solid_panel:
            backing = self.panel_rect.inflate(-2, -2)
            pygame.draw.rect(surface, theme.PANEL_BOTTOM[:3], backing, border_radius=panel_radius(backing))
        draw_panel(surface, self.panel_rect, self.title, factor=self.panel_factor)
        self.draw_content(surface)
        self.focus.draw(surface)
        marked = self.button_for(self.suggested) if self.suggested is not None else None
        if marked is not None and marked.visible:
            draw_suggestion_frame(surface, marked.rect, marked.corner_radius)
            marked.draw_focus(surface)  # over the frame: a framed button may have the focus too
        if not self.toast.active:
            self.draw_hint(surface)

    def draw_live(self, surface: pygame.Surface) -> None:
        """What changes every frame (the fading toast), drawn over the cached layer."""
        if self.toast.active:
            rect = self.reason_rect()
            self.toast.draw(surface, rect, max(14, round(rect.height * 0.5)))

    def draw_content(self, surface: pygame.Surface) -> None:
        """Everything inside the panel besides the focus group's widgets."""

    def draw_hint(self, surface: pygame.Surface) -> None:
        """The refused action's reason (toast), else the hovered disabled widget's reason."""
        rect = self.reason_rect()
        size = max(14, round(rect.height * 0.5))
        if self.toast.active:
            self.toast.draw(surface, rect, size)
            return
        hint = self.focus.hint()
        if hint:
            draw_message_bar(surface, hint, rect, size, warning=False)
