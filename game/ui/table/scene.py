"""The card table: one game in progress, played with mouse and keyboard.

``TableScene`` ties the pieces together. It owns the ``Match``; every
action (a human's card, a dialog's bid, a computer's move) is applied to the
match here on the main thread, and the events that come back are queued on
the animation ``Director``, which changes the presentation model the
``TableView`` draws. Nothing waits: each frame the scene looks at the match
and, once every animation has finished, decides what happens next:

* a computer seat to act: its move is computed on the ``AiWorker`` thread
  and applied after the short pause from the settings;
* a human to act: with two or more humans the hot-seat cover comes first,
  then the bidding panel / contract chooser / kitty dialog, or in the play
  phase the hand becomes playable (``DragController``);
* a finished hand: the score pad (or, with no human at the table, a short
  pause) before the next deal;
* the end of the game: the hand history is appended to the user's history
  file and the end screen is shown.

The score pad (S, or the button) and the menu (Esc, or the button) open at
any moment, also while a computer player is thinking; while anything is open
over the table the game waits (no computer move, no new dialog).
"""

from __future__ import annotations

import logging
import time
from typing import Any

import pygame

from game.history import write_history
from game.match import Match
from game.rules import Action, IllegalActionError, Phase
from game.rules.actions import discard, play
from game.rules.cards import card_code
from game.ui.table.ai_worker import AiJob, AiWorker
from game.ui.table.animations import Director
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.contract_chooser import ContractChooser
from game.ui.dialogs.cover_scene import CoverScene
from game.ui.table.drag import DragController
from game.ui.dialogs.end_scene import EndScene
from game.ui.dialogs.kitty_dialog import KittyDialog
from game.ui.table.layout import TableLayout, compute_layout
from game.ui.scene import Scene
from game.ui.dialogs.score_pad import ScorePad
from game.ui.dialogs.table_menu import TableMenu
from game.ui.table.model import TableModel, hand_sort_key
from game.ui.table.view import HandLook, Overlay, TableView
from game.ui.text import explain, t
from game.ui.tween import speed_factor
from game.ui.widgets.button import Button
from game.ui.widgets.dialog import DialogScene

log = logging.getLogger("tricktable.table")

MESSAGE_SECONDS = 3.2
AUTO_NEXT_HAND_SECONDS = 2.5


class TableScene(Scene):
    opaque = True

    def __init__(self, app, match: Match) -> None:
        super().__init__(app)
        self.match = match
        self.names = [seat.name for seat in match.seats]
        self.humans = [i for i, seat in enumerate(match.seats) if seat.is_human]
        self.bottom = self.humans[0] if self.humans else 0
        # The human whose cards are currently uncovered (hot seat); None = nobody yet.
        self.revealed: int | None = None if len(self.humans) > 1 else self.bottom
        n = len(match.seats)
        self.model = TableModel.empty(match.game, n)
        self.model.total_rounds = self._total_rounds()
        self.layout: TableLayout = compute_layout(app.size, n, self.bottom, self._score_rows())
        self.view = TableView(app)
        self.director = Director(self.model, lambda: self.layout, self.speed, lambda s: self.names[s])
        self.director.on_idle = self._on_idle
        self.director.enqueue(match.events, match.current_player)
        self.drag = DragController(self)
        self.ai = AiWorker()
        self._ai_job: AiJob | None = None
        self._ai_waited = 0.0
        self._prompted: Any = None        # the decision a dialog/cover was shown for
        self._hand_over_for: Any = None
        self._hand_over_wait = 0.0
        self._game_over_done = False
        self.message: str | None = None
        self.message_warning = False
        self._message_left = 0.0
        self._hand_cache: tuple[Any, list[int]] | None = None
        self._playable_cache: tuple[Any, set[int] | None] | None = None
        self.pad_button = Button(self.layout.pad_button, t("table.score_pad"), self.open_score_pad, hotkey="s")
        self.menu_button = Button(self.layout.menu_button, t("table.menu"), self.open_menu)
        self._hand_over_prompt = False
        self._warm_queue: list[tuple[int, str]] = []
        self._plan_warm_up()

    # ------------------------------------------------------------------ basics
    def _total_rounds(self) -> int:
        rules = self.match.rules
        if hasattr(rules, "round_count"):
            try:
                return int(rules.round_count(len(self.match.seats)))
            except Exception:
                return 0
        return 0

    def _score_rows(self) -> int:
        """Rows of the score panel: two teams in Bid Whist, every player in Wizard."""
        return 2 if self.match.game == "bidwhist" else len(self.match.seats)

    def speed(self) -> float:
        return speed_factor(self.app.settings.animation_speed)

    def on_resize(self, size: tuple[int, int]) -> None:
        self.layout = compute_layout(size, len(self.match.seats), self.bottom, self._score_rows())
        self.pad_button.set_rect(self.layout.pad_button)
        self.menu_button.set_rect(self.layout.menu_button)
        self.drag.reset()
        self._plan_warm_up()

    def _plan_warm_up(self) -> None:
        """Queue every card face at the table's card sizes, to be drawn a few per frame.

        Drawing a face the first time costs a few milliseconds; doing it
        ahead, within a small budget each frame, keeps later frames smooth
        when a card is first dealt or played.
        """
        specials = ["BJ", "LJ"] if self.match.game == "bidwhist" else ["WZ", "JE"]
        codes = [rank + suit for suit in "SHDC" for rank in "23456789TJQKA"] + specials
        layout = self.layout
        hand = [card_code(c) for c in self.model.hands[self.bottom]] if self.model.hands else []
        order = [(layout.hand_card_w, code) for code in hand]
        order += [(layout.trick_card_w, code) for code in codes]
        order += [(layout.hand_card_w, code) for code in codes]
        order += [(layout.small_card_w, code) for code in codes]
        self._warm_queue = list(reversed(order))  # popped from the end

    def _warm_up(self, budget: float = 0.0025) -> None:
        began = time.perf_counter()
        while self._warm_queue and time.perf_counter() - began < budget:
            width, code = self._warm_queue.pop()
            self.app.card_art(width).face(code)

    def _set_bottom(self, seat: int) -> None:
        if seat != self.bottom:
            self.bottom = seat
            self.on_resize(self.app.size)
            self._hand_cache = None

    def on_exit(self) -> None:
        self.ai.stop()

    # ------------------------------------------------------------------ HandHost for the drag controller
    def hand_cards(self) -> list[int]:
        model = self.model
        key = (model.version, self.bottom, model.trump, model.direction)
        if self._hand_cache is None or self._hand_cache[0] != key:
            cards = list(model.hands[self.bottom]) if self.bottom < len(model.hands) else []
            cards.sort(key=hand_sort_key(model.game, model.trump, model.direction))
            self._hand_cache = (key, cards)
        return self._hand_cache[1]

    def input_enabled(self) -> bool:
        state = self.match.state
        return (self.director.idle and state.phase == Phase.PLAY and state.current_player == self.bottom
                and self.match.seats[self.bottom].is_human and self.revealed == self.bottom
                and self.app.top_scene() is self)

    def playable_cards(self) -> set[int] | None:
        if not self.input_enabled():
            return None
        key = len(self.match.actions)
        if self._playable_cache is None or self._playable_cache[0] != key:
            self._playable_cache = (key, set(self.match.state.legal_cards()))
        return self._playable_cache[1]

    def play_card(self, card: int, drop_at: tuple[float, float] | None) -> bool:
        if drop_at is not None:
            self.director.hint_origin(card, drop_at)
        else:
            # Played by click or key: leave from the card's place in the hand.
            cards = self.hand_cards()
            if card in cards:
                self.director.hint_origin(card, self.drag.slot_centre(cards.index(card)))
        ok = self.apply_action(play(card))
        if not ok:
            self.director._origin_hints.pop(card, None)
        return ok

    def refuse_card(self, card: int) -> None:
        state = self.match.state
        try:
            error = state.explain_illegal(play(card))
        except Exception:  # explaining must never fail the click
            error = IllegalActionError(t("table.cannot_play"), "cannot_play")
        self.show_message(explain(error), warning=True)

    def hint(self, text_key: str) -> None:
        self.show_message(t(text_key), warning=False)

    def show_message(self, text: str, warning: bool = True, seconds: float = MESSAGE_SECONDS) -> None:
        self.message = text
        self.message_warning = warning
        self._message_left = seconds

    # ------------------------------------------------------------------ acting
    def apply_action(self, action: Action) -> bool:
        """Apply ``action`` for the seat to act; show the reason and return False if refused."""
        seat = self.match.current_player
        try:
            events = self.match.apply(action, seat)
        except IllegalActionError as error:
            self.show_message(explain(error), warning=True)
            self._prompted = None  # ask again
            return False
        self.director.enqueue(events, self.match.current_player)
        self.drag.reset()
        self.drag.selected = -1
        self.message = None if self.message_warning else self.message
        return True

    def _human_action(self, action: Action) -> None:
        self.apply_action(action)

    def _human_discards(self, cards: list[int]) -> None:
        for card in cards:
            if self.match.state.phase != Phase.DISCARD:
                break
            if not self.apply_action(discard(card)):
                break

    def next_deal(self) -> None:
        if self.match.state.phase != Phase.HAND_OVER:
            return
        events = self.match.next_deal()
        self._hand_over_prompt = False
        self.director.enqueue(events, self.match.current_player)

    # ------------------------------------------------------------------ scenes on top
    def open_score_pad(self) -> None:
        if any(isinstance(scene, ScorePad) for scene in self.app.scenes):
            return
        self.app.push(ScorePad(self.app, self.match.history(), self.names, None).attach_host(self))

    def open_menu(self) -> None:
        if any(isinstance(scene, TableMenu) for scene in self.app.scenes):
            return
        self.app.push(TableMenu(self.app, self.open_score_pad, self.app.show_start, self.app.quit))

    # ------------------------------------------------------------------ the table under its own dialogs (DialogHost)
    def control_event(self, event: pygame.event.Event) -> bool:
        """The Score pad and Menu buttons, S and Esc: they work whatever the table's dialog asks."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.open_menu()
            return True
        # Both buttons see every event, so hover follows the mouse off one onto the other.
        used_pad = self.pad_button.handle_event(event)
        used_menu = self.menu_button.handle_event(event)
        return used_pad or used_menu

    def draw_controls(self, surface: pygame.Surface) -> None:
        self.pad_button.draw(surface)
        self.menu_button.draw(surface)

    def dialog_area(self, size: tuple[int, int], wide: bool) -> pygame.Rect:
        """Where the table's dialogs go, clear of the corner panels and buttons.

        A normal dialog (bids, trump) takes the middle of the table between the
        contract corner and the score corner, from the top edge down to just
        above the player's own name plate, so the scores, the buttons and the
        hand stay in view. A wide one (the kitty) takes the whole width below
        both corners.
        """
        layout = self.layout
        if layout.size != (max(800, size[0]), max(600, size[1])):
            layout = compute_layout(size, len(self.match.seats), self.bottom, self._score_rows())
        gap = max(6, layout.margin // 2)
        if wide:
            top = max(layout.indicator_rect.bottom, layout.score_rect.bottom) + gap
            return pygame.Rect(layout.margin, top, layout.width - 2 * layout.margin,
                               layout.height - layout.margin - top)
        left = layout.indicator_rect.right + gap
        right = layout.score_rect.left - gap
        bottom = layout.place(self.bottom).plate.top - gap
        return pygame.Rect(left, layout.margin, max(1, right - left), max(1, bottom - layout.margin))

    def _dialog_cover(self) -> pygame.Rect | None:
        """The panel of the table's own dialog, if one is open: what lies under it is not drawn."""
        for scene in reversed(self.app.scenes):
            if isinstance(scene, DialogScene) and scene.host is self and not scene.done:
                return scene.panel_rect.inflate(4, 4)
        return None

    # ------------------------------------------------------------------ events
    def handle_event(self, event: pygame.event.Event) -> bool:
        if self.control_event(event):
            return True
        if self.drag.handle_event(event):
            return True
        if self._hand_over_prompt and self.match.state.phase == Phase.HAND_OVER:
            if (event.type == pygame.KEYDOWN and event.key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER)) \
                    or (event.type == pygame.MOUSEBUTTONUP and event.button == 1):
                self.next_deal()
                return True
        return False

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        self._warm_up()
        self.view.update(dt)
        self.director.update(dt)
        self.drag.update(dt)
        if self._message_left > 0:
            self._message_left -= dt
            if self._message_left <= 0:
                self.message = None
        if not self.director.idle:
            return
        if self.app.top_scene() is not self:
            # A menu, score pad or dialog is open: the game waits for it. (The
            # table's own dialogs are on top while a human decides, so nothing
            # is lost; computers simply do not move behind an open menu.)
            return
        state = self.match.state
        if state.phase == Phase.GAME_OVER:
            self._game_over()
        elif state.phase == Phase.HAND_OVER:
            self._hand_over(dt)
        elif self.match.seats[state.current_player].is_human:
            self._human_turn(state.current_player)
        else:
            self._computer_turn(state.current_player, dt)

    def _on_idle(self) -> None:
        # Every animation has landed: make sure the picture equals the live state.
        self.model.sync(self.match.state)
        self._hand_cache = None

    def _decision_key(self) -> tuple[int, int]:
        return (len(self.match.actions), self.match.state.deal_number)

    def _human_turn(self, seat: int) -> None:
        key = self._decision_key()
        if self._prompted == key:
            return
        self._prompted = key
        if len(self.humans) > 1 and self.revealed != seat:
            self.app.push(CoverScene(self.app, self.names[seat], lambda: self._reveal(seat)))
            return
        self._set_bottom(seat)
        self._prompt(seat)

    def _reveal(self, seat: int) -> None:
        self.revealed = seat
        self._set_bottom(seat)
        if self.match.state.current_player == seat and self.director.idle:
            self._prompt(seat)
        else:
            self._prompted = None

    def _prompt(self, seat: int) -> None:
        """Open the dialog for the human at ``seat`` (in the play phase the hand itself is the dialog)."""
        phase = self.match.state.phase
        view = self.match.view(seat)
        if phase in (Phase.BID, Phase.PREDICT):
            self.app.push(BiddingPanel(self.app, view, self.names, self._human_action).attach_host(self))
        elif phase in (Phase.CONTRACT, Phase.TRUMP_CHOICE):
            self.app.push(ContractChooser(self.app, view, self._human_action).attach_host(self))
        elif phase == Phase.DISCARD:
            self.app.push(KittyDialog(self.app, view, self._human_discards).attach_host(self))

    def _computer_turn(self, seat: int, dt: float) -> None:
        key = self._decision_key()
        job = self._ai_job
        if job is None or job.key != key:
            match = self.match
            self._ai_job = job = self.ai.submit(key, seat, lambda: match.choose_ai_action(seat))
            self._ai_waited = 0.0
        self._ai_waited += dt
        if not job.done or self._ai_waited < self.app.settings.ai_pause_seconds:
            return
        action = job.result
        if job.error is not None:
            log.error("computer player at seat %d failed: %r", seat, job.error)
            legal = self.match.legal_actions()
            action = legal[0] if legal else None
        self._ai_job = None
        if action is not None:
            if not self.apply_action(action):
                legal = self.match.legal_actions()
                if legal:
                    self.apply_action(legal[0])

    def _hand_over(self, dt: float) -> None:
        key = self._decision_key()
        if self._hand_over_for != key:
            self._hand_over_for = key
            self._hand_over_wait = 0.0
            if self.humans:
                self._hand_over_prompt = True
                # Wizard calls its deals rounds.
                label = t("pad.next_round" if self.match.rules.game == "wizard" else "pad.next_hand")
                self.app.push(ScorePad(self.app, self.match.history(), self.names, self.next_deal,
                                       close_label=label).attach_host(self))
            return
        if not self.humans:
            self._hand_over_wait += dt
            if self._hand_over_wait >= AUTO_NEXT_HAND_SECONDS * max(0.0, self.speed()):
                self.next_deal()

    def _game_over(self) -> None:
        if self._game_over_done:
            return
        self._game_over_done = True
        self._write_history()
        self.app.push(EndScene(self.app, self.match.history(), self.names, self.play_again,
                              self.app.show_start).attach_host(self))

    def _write_history(self) -> None:
        try:
            folder = self.app.user_paths.histories_dir
            folder.mkdir(parents=True, exist_ok=True)
            write_history(folder / f"{self.match.game}.jsonl", [self.match.history()], append=True)
        except Exception:
            log.exception("could not write the hand history")
            self.show_message(t("table.history_failed"), warning=True)

    def play_again(self) -> None:
        self.app.start_match(self.match.rules, list(self.match.seats), None)

    # ------------------------------------------------------------------ drawing
    def _prompt_text(self) -> str | None:
        state = self.match.state
        if not self.director.idle or self.app.top_scene() is not self:
            return None
        if state.phase == Phase.HAND_OVER and self._hand_over_prompt:
            return t("table.continue_hint")
        if self.input_enabled():
            return t("table.your_turn")
        seat = state.current_player
        if seat >= 0 and not self.match.seats[seat].is_human:
            return t("table.thinking", name=self.names[seat])
        return None

    def draw(self, surface: pygame.Surface) -> None:
        face_up = (self.revealed == self.bottom and self.match.seats[self.bottom].is_human) or not self.humans
        hand = HandLook(cards=self.hand_cards(), face_up=face_up, playable=self.playable_cards(),
                        hover=self.drag.hover if self.input_enabled() else -1,
                        selected=self.drag.selected if self.input_enabled() else -1,
                        hidden=self.drag.hidden)
        overlay = Overlay(prompt=self._prompt_text(), message=self.message,
                          message_warning=self.message_warning and self.message is not None)
        viewer = self.bottom if face_up and self.humans else -1
        self.view.draw(surface, self.model, self.layout, self.names, hand, overlay, viewer,
                       covered=self._dialog_cover())
        for entry in self.drag.returning:
            self.view.draw_card_sprite(surface, entry.card, self.layout.hand_card_w, (entry.x, entry.y))
        dragged = self.drag.dragged_card()
        if dragged is not None:
            card, centre, legal = dragged
            self.view.draw_card_sprite(surface, card, self.layout.hand_card_w, centre,
                                       angle=-4.0 if legal else 0.0, alpha=255 if legal else 190)
        self.pad_button.draw(surface)
        self.menu_button.draw(surface)

