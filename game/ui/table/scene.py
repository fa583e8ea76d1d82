"""The card table: one game in progress, played with mouse and keyboard."""

from __future__ import annotations

# What the screen may show is decided by the *viewer*, the one seat whose
# private information is on screen (see ``game.ui.table.turn_controller``).
# The director only ever receives the event stream filtered for the viewer,
# and whenever the viewer changes (a hot-seat player passes their cover, or
# has acted and the screen turns public again) the pending animations are
# finished and the model is set afresh from the new viewer's view, without
# replaying anything. So the model never holds a card or a hidden bid the
# person at the screen may not know.
#
# Nothing waits. Each frame the scene hands the facts of the moment to its
# ``TurnController`` and carries out the decision it returns:
#
# * a computer seat to act: the session thinks for it off the frame loop
#   (``game.session.computers``) and plays its answer once the table lets it,
#   after the short pause from the settings;
# * a human to act: in hot seat the "Pass to <name>" cover comes first, then
#   the bidding panel / contract chooser / kitty dialog, or in the play phase
#   the hand becomes playable (``DragController``);
# * a finished hand: the score pad (or, with no human at the table, a short
#   pause) before the next deal;
# * the end of the game: the session records it in the user's history file
#   (and removes the autosave) and the end screen is shown.
#
# Autosave and resume: the session keeps the game saved after every action. A
# table opened on a game that already has actions (a game continued from the
# start screen) shows the position as it stands, set straight from the view,
# instead of replaying the game as animation. Leaving still asks first, and
# says that the game stays saved (or, if saving failed, that it would be lost).
#
# Undo: at a table with exactly one human, and while the settings allow it,
# the Undo button (or U, or Ctrl+Z) takes back that human's last card or bid
# of the current hand together with the computers' replies after it
# (``TableSession.undo``: the game is rebuilt from its actions, never patched). It
# can be pressed again and again back to the start of the hand, never past
# the deal; the restored position is shown at once, without animation. Hot
# seat has no undo: the next player would see what the previous one took back.
#
# Claims and forced cards: a human on lead whose every card is sure to win (the
# rules decide, ``TableSession.can_claim``) is offered Claim the rest (the button or C);
# the claim is announced to the whole table and the tricks left are played out
# at once as ordinary plays (``TableSession.claim``), which the director shows at a
# quick pace. A computer in that place claims the same way. With the setting
# ``auto_play`` a human's only legal card plays itself after a short pause,
# decided by the turn controller (``AutoPlay``), so never behind a hot-seat cover.
#
# The score pad (S, or the button) and the menu (Esc, or the button) open at
# any moment, also while a computer player is thinking; while anything is open
# over the table the game waits (no computer move, no new dialog). So do the
# last trick (L, the button, or a click on the plate of the player who took
# it) and the hand's log (``game.ui.table.review``): both are built from what
# the seat at the screen may know, the view's finished tricks and the events
# filtered for that seat. While a trick is played the view's ``winning_seat``
# marks the card winning it; once a hand is over, its result is said in words
# (``game.ui.table.hand_log``) over the table and on the score pad.
#
# While a computer player's decision is being computed, its name plate shows
# a small animated "thinking" mark. Leaving the table cancels that decision
# and never waits for it: the runner's thread is a daemon and a search stops
# on its own deadline.
#
# Hints: at a table with exactly one human, and while the settings allow it,
# the Hint button (or H) asks what the strongest computer player would do in the
# human's place. It works only when that human has a decision to make, also
# from inside the bidding panel, contract chooser and kitty dialog. The session
# computes the hint like a computer's move (``TableSession.request_hint``; its
# words are ``game.ui.table.hints``), shows "Thinking..." meanwhile, then the suggested
# action with its reason, and frames its choice in gold (the card or cards, the bid's or
# the trump's button); the human still makes the move themselves.
#
# Sounds (the app's ``SoundBoard``, ``game.ui.audio``): the director plays
# the effects that go with its animations; the scene adds the "your turn"
# chime, once per turn when the turn comes to a human from someone else (in
# hot seat as the cover calls the next player to the screen), and the end of
# the game: won when a human at the table is on a winning side, lost when none
# is (a game between computers ends on the winner's sound).

import logging
import time
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

import pygame

from game.settings.house_rule_files import ConfigError
from game.settings.app_settings import save_settings as write_settings
from game.rules import Action, ActionKind, GameEvent, IllegalActionError, Phase, PlayerView, TrickRecord
from game.rules.events import BidWhistHandScored
from game.rules.actions import discard, play
from game.rules.cards import card_code
from game.rules.played_cards import PlayedCards, played_cards
from game.rules.tricks import PUBLIC_SEAT
from game.ui.audio import GAME_LOST, GAME_WON, YOUR_TURN
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.contract_chooser import ContractChooser
from game.ui.dialogs.cover_scene import CoverScene
from game.ui.dialogs.end_scene import EndScene
from game.ui.dialogs.hands_review import HandsReviewDialog
from game.ui.dialogs.kitty_dialog import KittyDialog
from game.ui.dialogs.score_pad import ScorePad
from game.ui.dialogs.table_menu import TableMenu
from game.ui import theme
from game.ui.scene import Scene
from game.ui.seat_names import seat_name
from game.ui.scenes.rules_help_content import contract_of
from game.ui.scenes.rules_help_scene import RulesHelpScene
from game.ui.scenes.settings_scene import SettingsScene
from game.session.ai_worker import AiJob
from game.session.hints import HintLike, think_budget
from game.session.scores import ScoreHistory
from game.session.session import ComputerStep, TableSession
from game.ui.table.animations import Director
from game.ui.table.drag import DragController
from game.ui.table.hints import hint_text, suggested_cards
from game.ui.table.hand_log import LogLine, hand_log, hand_result
from game.ui.table.keyboard import TableKeys
from game.ui.table.layout import TableLayout, compute_layout
from game.ui.table.model import TableModel
from game.ui.table.turn_controller import (
    AutoNextDeal,
    AutoPlay,
    ComputerTurn,
    GameOver,
    Prompt,
    ShowCover,
    ShowHandOver,
    TableFacts,
    TurnController,
    Wait,
)
from game.ui.table.played_panel import PanelPlace, panel_place, render_played_panel
from game.ui.table.review import HandLogDialog, LastTrickDialog
from game.ui.table.view import HandLook, Overlay, TableView
from game.ui.text import explain, t
from game.ui.tween import speed_factor
from game.ui.widgets.button import Button
from game.ui.widgets.dialog import MOUSE_EVENTS, DialogScene
from game.ui.widgets.focus import INPUT_MODE

if TYPE_CHECKING:
    from game.ui.app import App

log = logging.getLogger("tricktable.table")

MESSAGE_SECONDS = 3.2
HINT_SECONDS = 8.0  # a hint is read, then acted on: it stays up longer than a notice
THINKING_NOTE_SECONDS = 30.0  # "Thinking..." stays until the hint replaces it
AUTO_NEXT_HAND_SECONDS = 2.5
# A forced card is seen in the hand this long (at the normal animation speed) before it plays
# itself; never less than the minimum, so that even instant animations let it be seen.
AUTO_PLAY_SECONDS = 0.7
AUTO_PLAY_MIN_SECONDS = 0.35
AWAY_TICK_SECONDS = 1.0  # a seat's time away on the felt is counted in whole seconds


# ``TableScene`` ties the pieces together. It reaches the game only through
# its ``TableSession`` (``game.session``): a human's card or a dialog's bid is
# submitted to it, and the events that follow (the session's numbered stream,
# filtered for the viewer, read from the last number the table saw) are queued
# on the animation ``Director``, which changes the presentation model the
# ``TableView`` draws.
class TableScene(Scene):
    opaque = True

    def __init__(self, app: App, session: TableSession) -> None:
        super().__init__(app)
        self.session = session
        self.game_def = session.game_def
        self.names = self._seat_names()
        # The seats played at this screen: a local game's humans, or the seats this program
        # holds at a network table (whose other people play elsewhere, as computers do).
        self.humans = list(session.local_seats)
        self.turns = TurnController(self.humans, spectator=session.spectating)
        # The seat whose information the model and the screen hold right now.
        self.viewer = self.turns.viewer
        # The seat drawn at the bottom: the human (the first one in hot seat,
        # then whoever last passed their cover), or seat 0 with no human.
        self.bottom = self.humans[0] if self.humans else 0
        players = session.num_players
        self.model = TableModel.empty(self.game_def, players, session.rules)
        self.layout: TableLayout = self._compute_layout(app.size)
        self.view = TableView(app)
        self.director = Director(
            self.model,
            lambda: self.layout,
            self.speed,
            lambda s: self.names[s],
            self.game_def,
            looking=self._looking,
            sound=self._play_sound,
        )
        # The "your turn" chime: the position it last rang for, and the seat that acted last.
        self._turn_cued: tuple[int, int] | None = None
        self._last_actor: int | None = None
        self.director.on_idle = self._on_idle
        # The number of the last event of the session's stream the table has shown (or skipped).
        self._seen = 0
        resumed = session.position[0] > 0
        if not resumed:
            # A new game: deal it out on the table (a continued one is shown as it stands, below).
            self.director.enqueue(self._new_events(), session.current_player)
        self._seen = session.last_number
        self.drag = DragController(self)
        # Hints: the job computing one, and the last hint with the position it is for.
        self._hint_job: AiJob[HintLike] | None = None
        self._hint: tuple[tuple[int, int], HintLike] | None = None
        self.message: str | None = None
        self.message_warning = False
        self._message_left = 0.0
        self._hand_cache: tuple[tuple[int, int], list[int]] | None = None
        self._view_cache: tuple[tuple[tuple[int, int], int], PlayerView] | None = None
        self._played_cache: tuple[tuple[int, int], PlayedCards] | None = None
        self._played_image: tuple[tuple[Hashable, ...], pygame.Surface] | None = None
        self.pad_button = Button(self.layout.pad_button, t("table.score_pad"), self.open_score_pad, hotkey="s")
        self.menu_button = Button(self.layout.menu_button, t("table.menu"), self.open_menu)
        self.hint_button = Button(self.layout.hint_button, t("hint.button"), self.request_hint, hotkey="h")
        self.hint_button.visible = self.hints_offered
        # Looking back over the hand: the last trick (also L, or a click on the plate of
        # the player who took it) and the hand's log.
        self.last_trick_button = Button(
            self.layout.last_trick_button, t("table.last_trick"), self.open_last_trick, hotkey="l"
        )
        self.log_button = Button(self.layout.log_button, t("table.hand_log"), self.open_hand_log)
        self.undo_button = Button(
            self._undo_rect(), t("undo.button"), self.request_undo, hotkey="u", reason=t("undo.nothing")
        )
        self.undo_button.visible = self.undo_offered
        self.undo_button.on_refused = lambda reason: self.show_message(reason, warning=False)
        # Claim the rest (or C): shown only while the human on lead may claim every trick left.
        self.claim_button = Button(
            self._claim_rect(), t("claim.button"), self.request_claim, hotkey="c", kind="primary"
        )
        self.claim_button.visible = False
        self._claim_state: tuple[tuple[tuple[int, int], int], bool] | None = None
        # Tab goes round the hand and these buttons (game.ui.table.keyboard).
        self.keys = TableKeys(
            self,
            self.drag,
            lambda: (
                self.pad_button,
                self.hint_button,
                self.menu_button,
                self.last_trick_button,
                self.log_button,
                self.undo_button,
                self.claim_button,
            ),
        )
        self._undo_state: tuple[tuple[int, int], bool] | None = None
        self._warm_queue: list[tuple[int, str]] = []
        self._plan_warm_up()
        self._last_cover_deal = 0  # the deal whose first hot-seat cover was shown
        # This screen's action sent to a network table and not yet answered: the actor and what
        # the screen showed before it (``_before_acting``), for when the answer is taken in.
        self._awaiting: tuple[int, tuple[int, PlayerView | None]] | None = None
        self._discards_left: list[int] = []  # the kitty's cards still to lay aside, one action each
        self._pile_hover = False  # the mouse is over the last trick's pile
        # The turn flow did something last frame (pushed a dialog, applied a
        # move): one more frame lets it settle before the table may sleep.
        self._flow_acted = False
        if resumed:
            # A game continued from its save: show where it stands, without replaying it.
            self.model.sync(self.shown_view())
        session.open()

    # ------------------------------------------------------------------ basics
    def _score_rows(self) -> int:
        """Rows of the score panel: one per team or one per player, as the game keeps scores."""
        return self.game_def.score_sides(self.session.num_players)

    def _looking(self) -> int:
        """The seat whose player is at the screen now, or PUBLIC_SEAT when it is nobody's own."""
        return self.viewer if self.viewer in self.humans else PUBLIC_SEAT

    def speed(self) -> float:
        return speed_factor(self.app.settings.animation_speed)

    def _play_sound(self, name: str) -> None:
        """Play a sound effect through the app's sound board (a test's stand-in app may have none)."""
        audio = getattr(self.app, "audio", None)
        if audio is not None:
            audio.play(name)

    def _cue_turn(self, seat: int) -> None:
        """The "your turn" chime, once per turn: when the human at ``seat`` is to act after someone
        else did. A human who acts again straight away (leads after taking the trick, discards after
        naming trump), or is asked again after a refused move or an undo, hears nothing new."""
        position = self.session.position
        if position == self._turn_cued or seat == self._last_actor:
            return
        self._turn_cued = position
        self._play_sound(YOUR_TURN)

    def _end_effect(self, winners: list[int]) -> str:
        """The end-of-game sound: won when a human at the table is on a winning side (in hot seat,
        any of them, since someone at the screen has won), or when only computers played (a watched
        game ends on its winner's fanfare); lost when humans played and none of them won."""
        if not self.humans:
            return GAME_WON
        won = any(self.game_def.team_of(seat) in winners for seat in self.humans)
        return GAME_WON if won else GAME_LOST

    @property
    def hints_offered(self) -> bool:
        """The table has a Hint button: one human plays, and the settings allow hints."""
        return len(self.humans) == 1 and self.app.settings.hints

    @property
    def undo_offered(self) -> bool:
        """The table has an Undo button: one human plays against computers, the settings allow it
        and the game has undo (a network table has none)."""
        return len(self.humans) == 1 and self.app.settings.undo and self.session.offers_undo

    def _undo_rect(self) -> pygame.Rect:
        """Low on the left, level with the bottom plate: the mirror of the Hand log button."""
        log_button = self.layout.log_button
        return pygame.Rect(self.layout.width - log_button.right, log_button.top, log_button.width, log_button.height)

    def _claim_rect(self) -> pygame.Rect:
        """Beside the Undo button, as the Last trick button lies beside the Hand log: the mirror of Last trick."""
        last = self.layout.last_trick_button
        return pygame.Rect(self.layout.width - last.right, last.top, last.width, last.height)

    def _compute_layout(self, size: tuple[int, int]) -> TableLayout:
        return compute_layout(
            size, self.session.num_players, self.bottom, self._score_rows(), hint_button=self.hints_offered
        )

    def on_resize(self, size: tuple[int, int]) -> None:
        self.layout = self._compute_layout(size)
        self.pad_button.set_rect(self.layout.pad_button)
        self.menu_button.set_rect(self.layout.menu_button)
        self.hint_button.set_rect(self.layout.hint_button)
        self.last_trick_button.set_rect(self.layout.last_trick_button)
        self.log_button.set_rect(self.layout.log_button)
        self.undo_button.set_rect(self._undo_rect())
        self.claim_button.set_rect(self._claim_rect())
        self.drag.reset()
        self._plan_warm_up()

    def _plan_warm_up(self) -> None:
        """Queue every card face at the table's card sizes, to be drawn a few per frame.

        Drawing a face the first time costs a few milliseconds; doing it
        ahead, within a small budget each frame, keeps later frames smooth
        when a card is first dealt or played.
        """
        codes = [card_code(card) for card in self.game_def.deck]
        layout = self.layout
        hand = [card_code(card) for card in self.hand_cards() if card >= 0]
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

    def on_enter(self) -> None:
        # Back on top, a dialog or cover closed: a card picked before it opened is put
        # down, so no Enter meant for that dialog (pressed twice) plays it; the next picks it again.
        self.drag.put_down()

    def on_exit(self) -> None:
        # Leaving the table: a decision or hint still being thought about is
        # dropped, without waiting for it (the runner's thread is a daemon).
        self._drop_hint()
        self.session.close()

    # ------------------------------------------------------------------ the viewer
    def shown_view(self) -> PlayerView:
        """The game as the viewer may see it now (cached per position and viewer)."""
        key = (self.session.position, self.viewer)
        if self._view_cache is None or self._view_cache[0] != key:
            self._view_cache = (key, self.session.view(self.viewer).game)
        return self._view_cache[1]

    def _show_viewer(self, viewer: int, seen: PlayerView) -> None:
        """Turn the screen to ``viewer``: finish what is moving, then set the model from ``seen``
        (that viewer's view), so nothing the previous viewer knew stays in the picture."""
        self.director.finish_all()
        self.viewer = viewer
        self.model.sync(seen)
        self.drag.reset()
        self.drag.forget_pick()  # another hand, or none, is shown
        if viewer != PUBLIC_SEAT:
            self._set_bottom(viewer)

    def _follow_viewer(self) -> None:
        """Show the controller's viewer, if it has changed, as the game stands now."""
        if self.turns.viewer != self.viewer:
            self._show_viewer(self.turns.viewer, self.session.view(self.turns.viewer).game)

    # ------------------------------------------------------------------ HandHost for the drag controller
    def hand_cards(self) -> list[int]:
        """The bottom hand in display order (unknown cards, -1, when it is not the viewer's)."""
        key = (self.model.version, self.bottom)
        if self._hand_cache is None or self._hand_cache[0] != key:
            self._hand_cache = (key, self.model.sorted_hand(self.bottom))
        return self._hand_cache[1]

    def _played_elsewhere(self) -> bool:
        """This screen plays no more: the host closed the table, or its seat is played from
        another window or computer (``network_notice`` says which)."""
        return self.session.table_closed or self.session.seat_taken_elsewhere

    def input_enabled(self) -> bool:
        seat = self.session.current_player
        return (
            not self._played_elsewhere()
            and self.director.idle
            and self.session.phase == Phase.PLAY
            and seat == self.bottom
            and seat == self.viewer
            and seat in self.humans
            and self.app.top_scene() is self
        )

    def playable_cards(self) -> set[int] | None:
        if not self.input_enabled():
            return None
        return {action.value for action in self.shown_view().legal_actions if action.kind == ActionKind.PLAY}

    def play_card(self, card: int, drop_at: tuple[float, float] | None) -> bool:
        if drop_at is not None:
            self.director.hint_origin(card, drop_at)
        else:
            # Played by click or key: leave from the card's place in the hand.
            cards = self.hand_cards()
            if card in cards:
                self.director.hint_origin(card, self.drag.slot_centre(cards.index(card)))
        played = self.apply_action(play(card))
        if not played:
            self.director.drop_hint(card)
        return played

    def refuse_card(self, card: int) -> None:
        error = self.session.refusal(play(card))
        self.show_message(explain(error) if error is not None else t("table.cannot_play"), warning=True)

    def hint(self, text_key: str) -> None:
        self.show_message(t(text_key), warning=False)

    def show_message(self, text: str, warning: bool = True, seconds: float = MESSAGE_SECONDS) -> None:
        self.message = text
        self.message_warning = warning
        self._message_left = seconds

    # ------------------------------------------------------------------ acting
    def apply_action(self, action: Action) -> bool:
        """Submit ``action`` for the seat to act; show the reason and return False if refused."""
        actor = self.session.current_player
        return self._carry_out(actor, lambda: self.session.submit(actor, action))

    def _carry_out(self, actor: int, act: Callable[[], object]) -> bool:
        """Do ``act`` (an action, a claim or a computer's move of ``actor``'s in the session) and
        show what it did; show the reason and return False if it is refused. An action a network
        table sent (the position did not move) is shown once its answer is taken in."""
        before = self._before_acting()
        position = self.session.position
        try:
            act()
        except IllegalActionError as error:
            self._refused(error)
            return False
        if self.session.position == position:
            self._awaiting = (actor, before)
            return True
        self._after_acting(actor, *before)
        return True

    def _refused(self, error: IllegalActionError | None) -> None:
        """``error`` refused the action: say why (nothing for one lost with the link) and ask again."""
        if error is not None:
            self.show_message(explain(error), warning=True)
        self._discards_left = []
        self.turns.action_refused()

    def _take_in_answers(self) -> None:
        """The session's answer to this screen's action, or a change to show at once (a network
        table's catch-up): shown as an action carried out here is."""
        answer = self.session.poll()
        if answer is None:
            return
        awaited, self._awaiting = self._awaiting, None
        if not answer.applied:
            self.drag.reset()
            self._refused(answer.refusal)
            return
        if awaited is not None:
            actor, (deal_before, public_before) = awaited
        else:
            actor, deal_before, public_before = answer.actor, answer.deal_before, None
        self._after_acting(actor, deal_before, public_before)
        self._discard_next()

    def _before_acting(self) -> tuple[int, PlayerView | None]:
        """The deal number, and in hot seat what the public saw: the screen may turn public
        with the coming action, and its animation must then start from the public's picture."""
        session = self.session
        public_before = session.view(PUBLIC_SEAT).game if self.turns.hot_seat and self.viewer != PUBLIC_SEAT else None
        return session.deal_number, public_before

    def _after_acting(self, actor: int, deal_before: int, public_before: PlayerView | None) -> None:
        """``actor`` acted in the session: turn the screen as the turn flow says and show the new events."""
        session = self.session
        self._last_actor = actor
        self.turns.action_applied(actor, session.current_player, session.deal_number != deal_before)
        if public_before is not None and self.turns.viewer == PUBLIC_SEAT:
            # The human has acted: the screen is theirs no longer. (It only ever
            # turns to a human at their cover, never after an action.)
            self._show_viewer(PUBLIC_SEAT, public_before)
        self.director.enqueue(self._new_events(), session.current_player)
        self._drop_hint()  # the position moved on: the hint was about the old one
        self.drag.reset()
        self.drag.forget_pick()
        self.message = None if self.message_warning else self.message

    def _new_events(self) -> list[GameEvent]:
        """The events after the last one the table saw, as the viewer may know them."""
        fresh = self.session.events_since(self._seen, self.viewer)
        if fresh:
            self._seen = fresh[-1].number
        return [numbered.event for numbered in fresh]

    # ------------------------------------------------------------------ autosave
    def _report_save_error(self) -> None:
        error = self.session.take_save_error()
        if error is not None:
            # The reason is the operating system's own words (strerror, in the system's
            # language), after the translated sentence.
            self.show_message(
                t("save.failed", reason=error.strerror or str(error)), warning=True, seconds=MESSAGE_SECONDS * 2
            )

    # ------------------------------------------------------------------ undo
    def undo_allowed(self) -> bool:
        """The lone human has a decision of this hand to take back (cached per position)."""
        if not self.undo_offered:
            return False
        key = self.session.position
        if self._undo_state is None or self._undo_state[0] != key:
            self._undo_state = (key, self.session.can_undo(self.humans[0]))
        return self._undo_state[1]

    def request_undo(self) -> None:
        """The Undo button, U or Ctrl+Z: take back the human's last decision of this hand."""
        if not self.undo_offered:
            return
        if not self.undo_allowed() or not self.session.undo(self.humans[0]):
            self.show_message(t("undo.nothing"), warning=False)
            return
        self._position_rewound()
        self.show_message(t("undo.done"), warning=False)

    def _position_rewound(self) -> None:
        """The game went back to an earlier position: drop what was about the later one
        (a hint, the open prompt; the session dropped the computer's decision) and show the
        position at once."""
        self._drop_hint()
        dialog = self._table_dialog()
        if dialog is not None:
            dialog.done = True  # its question was about the later position
            dialog.close()
        self.turns.position_rewound(self.session.position)
        self._turn_cued = self.session.position  # taken back on purpose: no chime for it
        self.director.finish_all()
        self._seen = self.session.last_number  # the position is shown from the view, not replayed
        self._view_cache = None
        self._undo_state = None
        self.model.sync(self.shown_view())
        self.drag.reset()
        self.drag.forget_pick()

    def _human_discards(self, cards: list[int]) -> None:
        self._discards_left = list(cards)
        self._discard_next()

    def _discard_next(self) -> None:
        """Lay the kitty's chosen cards aside one action at a time; at a network table each waits
        for the answer to the one before."""
        while self._discards_left and self._awaiting is None:
            card = self._discards_left.pop(0)
            if self.session.phase != Phase.DISCARD or not self.apply_action(discard(card)):
                self._discards_left = []

    def next_deal(self) -> None:
        if self.session.phase == Phase.HAND_OVER:
            self._carry_out(self.session.current_player, self.session.next_deal)

    # ------------------------------------------------------------------ claims and forced cards
    def claim_allowed(self) -> bool:
        """The human at the screen is on lead with more than one card, and the rules let them
        claim every trick left (each card sure to win); cached per position and viewer."""
        if not self.input_enabled():
            return False
        key = (self.session.position, self.viewer)
        if self._claim_state is None or self._claim_state[0] != key:
            seat = self.session.current_player
            self._claim_state = (key, len(self.shown_view().hand) > 1 and self.session.can_claim(seat))
        return self._claim_state[1]

    def request_claim(self) -> None:
        """Claim the rest (the button or C): the claim is told to the table, and the tricks left
        are played out at once (``TableSession.claim``), the director showing them at a quick pace."""
        if not self.claim_allowed():
            return
        seat = self.session.current_player
        self._carry_out(seat, lambda: self.session.claim(seat))

    def _forced_card(self) -> int | None:
        """The one card the human at the screen may play, when the settings let it play itself."""
        if not self.app.settings.auto_play or not self.input_enabled() or self.drag.pressed_index >= 0:
            return None
        playable = self.playable_cards()
        return next(iter(playable)) if playable is not None and len(playable) == 1 else None

    def _auto_play(self) -> None:
        card = self._forced_card()
        if card is not None:
            self.play_card(card, None)

    # ------------------------------------------------------------------ hints
    def hint_allowed(self) -> bool:
        """The lone human has a decision to make now, and sees their own cards."""
        if not self.hints_offered:
            return False
        seat = self.humans[0]
        session = self.session
        return (
            session.current_player == seat
            and self.viewer == seat
            and session.phase not in (Phase.HAND_OVER, Phase.GAME_OVER)
            and bool(self.shown_view().legal_actions)
        )

    def request_hint(self) -> None:
        """The Hint button or H: compute what the strongest player would do here (off the render loop)."""
        if not self.hints_offered:
            return
        if not self.hint_allowed():
            self._note(t("hint.not_now"), MESSAGE_SECONDS)
            return
        position = self.session.position
        if self._hint is not None and self._hint[0] == position:
            self._show_hint(self._hint[1])  # asked again: show it again, no new search
            return
        job = self._hint_job
        if job is not None and job.key == position and job.running:
            return  # already thinking about it
        self._drop_hint()
        self._note(t("hint.thinking"), THINKING_NOTE_SECONDS)
        self._hint_job = self.session.request_hint(self.humans[0], think_budget(self.app.settings.ai_think_seconds))
        self._collect_hint()  # an inline runner has answered already

    def _collect_hint(self) -> None:
        """Show the hint once its job has answered (called every frame while one is out)."""
        job = self._hint_job
        if job is None:
            return
        if job.key != self.session.position:
            self._drop_hint()
            return
        if not job.finished:
            return
        self._hint_job = None
        hint = job.result
        if job.error is not None or hint is None:
            log.error("the hint failed: %r", job.error)
            self._note(t("hint.failed"), MESSAGE_SECONDS)
            return
        self._hint = (job.key, hint)
        self._show_hint(hint)

    def _show_hint(self, hint: HintLike) -> None:
        self._note(hint_text(hint), HINT_SECONDS)
        self._mark_hint(self._table_dialog(), hint)

    @staticmethod
    def _mark_hint(dialog: DialogScene | None, hint: HintLike | None) -> None:
        """Frame what ``hint`` suggests in the table's open dialog: the cards to lay aside in the
        kitty, the bid's or the trump's button elsewhere (None: take the marks away)."""
        if isinstance(dialog, KittyDialog):
            dialog.suggest(suggested_cards(hint) if hint is not None else set())
        elif dialog is not None:
            dialog.suggest_action(hint.action if hint is not None else None)

    def _drop_hint(self) -> None:
        """Forget the hint (and stop waiting for one): the position it was for is gone."""
        if self._hint_job is not None:
            self._hint_job.cancel()
            self._hint_job = None
        if self._hint is not None:
            self._hint = None
            self._mark_hint(self._table_dialog(), None)
            if self.message is not None and not self.message_warning:
                self.message = None

    def hint_cards(self) -> frozenset[int]:
        """The cards of the hand the current hint points at (none once the position moved)."""
        if self._hint is None or self._hint[0] != self.session.position:
            return frozenset()
        return frozenset(suggested_cards(self._hint[1]))

    def _table_dialog(self) -> DialogScene | None:
        """The table's own dialog (bids, trump, kitty) if it is open on top."""
        top = self.app.top_scene()
        if isinstance(top, DialogScene) and top.host is self and not top.done:
            return top
        return None

    def _message_to_dialog(self) -> None:
        """The message over the table moves to the message strip of a dialog on the felt that
        would cover it: "Taken back: your move again" as the bidding panel opens again after
        an undo, which a panel grown by the UI scale hid."""
        dialog = self._table_dialog()
        if dialog is None or self.message is None or self._message_left <= 0:
            return
        layout = self.layout
        message_line = pygame.Rect(
            0, layout.message_top, layout.width, 2 * (layout.message_centre[1] - layout.message_top)
        )
        if not dialog.panel_rect.colliderect(message_line):
            return
        if self.message_warning:
            dialog.show_reason(self.message)
        else:
            dialog.show_note(self.message, self._message_left)
        self.message, self._message_left = None, 0.0

    def _note(self, text: str, seconds: float) -> None:
        """A message that is not a warning: in the open dialog's message strip, else over the table."""
        dialog = self._table_dialog()
        if dialog is not None:
            dialog.show_note(text, seconds)
        else:
            self.show_message(text, warning=False, seconds=seconds)

    def thinking_seat(self) -> int:
        """The computer seat whose decision for this position is being computed, or -1."""
        return self.session.thinking_seat()

    def network_notice(self) -> str | None:
        """What a network table says over the felt: the link is down, or who the game waits for
        and how long they have been away (minutes:seconds)."""
        if self.session.table_closed:
            return t("net.table_closed")
        if self.session.seat_taken_elsewhere:
            return t("net.seat_taken_elsewhere")
        if self.session.link_down:
            return t("net.reconnecting")
        lines = []
        for seat, away in sorted(self.session.away_seats().items()):
            seconds = int(away.seconds)
            time_away = f"{seconds // 60}:{seconds % 60:02d}"
            key = "net.stand_in" if away.stand_in else "net.waiting_for"
            lines.append(t(key, name=self.names[seat], time=time_away))
        return "  ".join(lines) if lines else None

    # ------------------------------------------------------------------ scenes on top
    def open_score_pad(self) -> None:
        if any(isinstance(scene, ScorePad) for scene in self.app.scenes):
            return
        # Between hands (the pad put away with Esc, then S) it still offers the hands' review.
        over = self.session.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
        review = self.open_hand_review if over and self.hand_review_offered else None
        self.app.push(ScorePad(self.app, self._scores(), self.names, None, on_review=review).attach_host(self))

    def _scores(self) -> ScoreHistory:
        """The score history, as the viewer's view holds it (the same for every viewer)."""
        return self.session.view(self.viewer).scores

    def open_menu(self) -> None:
        if any(isinstance(scene, TableMenu) for scene in self.app.scenes):
            return
        # Back to start and Quit ask first while the game is in progress (App.request_leave).
        self.app.push(
            TableMenu(
                self.app,
                self.open_score_pad,
                self.open_settings,
                self.app.request_start,
                self.app.request_quit,
                on_rules_help=self.open_rules_help,
            )
        )

    def open_rules_help(self) -> None:
        """The rules of this game as this table plays them, with the contract (or trump) in play;
        trump and contract are public, so any seat's view tells them."""
        contract = contract_of(self.game_def, self.session.view(self.bottom).game)
        self.app.push(RulesHelpScene(self.app, self.game_def, self.session.rules, self.session.num_players, contract))

    def open_settings(self) -> None:
        self.app.push(SettingsScene(self.app))

    def on_settings_changed(self) -> None:
        # Hints may have been switched on or off, the deck's colours or the language changed:
        # lay the table out again and draw it with fresh images.
        self.hint_button.visible = self.hints_offered
        if not self.hints_offered:
            self._drop_hint()
        self.undo_button.visible = self.undo_offered
        self._word_buttons()
        self.names = self._seat_names()  # default names follow the language
        # The plates hold worded bids ("Bid 3"): land what is moving and word them again.
        self.director.finish_all()
        self.model.sync(self.shown_view())
        self.view = TableView(self.app)
        self.on_resize(self.app.size)

    def _seat_names(self) -> list[str]:
        """The seats' names as shown now: a default name the player never typed in the
        current language, a typed one as typed."""
        return [seat_name(seat.name, seat.name_role) for seat in self.session.seats]

    def _word_buttons(self) -> None:
        """The buttons' words in the current language (it may have just changed)."""
        for button, key in (
            (self.pad_button, "table.score_pad"),
            (self.menu_button, "table.menu"),
            (self.hint_button, "hint.button"),
            (self.last_trick_button, "table.last_trick"),
            (self.log_button, "table.hand_log"),
            (self.undo_button, "undo.button"),
            (self.claim_button, "claim.button"),
        ):
            button.label = t(key)
        self.undo_button.reason = t("undo.nothing")

    def leave_warning(self) -> str | None:
        """Leaving a game being played keeps its save (it can be continued from the start screen),
        unless saving failed; a finished game is in the history already."""
        if self.session.is_over:
            return None
        if self.session.kept_on_server:
            return t("leave.seat_kept")
        if self.session.saved:
            return t("leave.game_saved")
        return t("leave.game_in_progress")

    # ------------------------------------------------------------------ the table under its own dialogs (DialogHost)
    def control_event(self, event: pygame.event.Event) -> bool:
        """The Score pad and Menu buttons, S and Esc: they work whatever the table's dialog asks."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.open_menu()
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_z and event.mod & pygame.KMOD_CTRL:
            if not self.undo_offered:
                return False
            self.request_undo()
            return True
        # Every button sees every event, so hover follows the mouse off one onto the other.
        used_pad = self.pad_button.handle_event(event)
        used_menu = self.menu_button.handle_event(event)
        used_hint = self.hint_button.handle_event(event)  # invisible, so deaf, when hints are off
        self.undo_button.enabled = self.undo_allowed()  # invisible, so deaf, when undo is off
        self.claim_button.visible = self.claim_allowed()  # deaf unless a claim stands
        used_corner = False
        cover = self._dialog_cover()
        for button in (self.undo_button, self.claim_button, self.last_trick_button, self.log_button):
            # A wide dialog (the kitty) lies over these buttons: a click there is the dialog's.
            if cover is None or not cover.colliderect(button.rect) or event.type not in MOUSE_EVENTS:
                used_corner = button.handle_event(event) or used_corner
        return used_pad or used_menu or used_hint or used_corner

    def draw_controls(self, surface: pygame.Surface) -> None:
        self.pad_button.draw(surface)
        self.menu_button.draw(surface)
        self.hint_button.draw(surface)
        self.undo_button.enabled = self.undo_allowed()
        self.claim_button.visible = self.claim_allowed()
        cover = self._dialog_cover()
        for button in (self.undo_button, self.claim_button, self.last_trick_button, self.log_button):
            if cover is None or not cover.colliderect(button.rect):
                button.draw(surface)

    # ------------------------------------------------------------------ looking back over the hand
    def last_trick(self) -> tuple[int, TrickRecord] | None:
        """The hand's last finished trick and its number, as the seat at the screen saw it."""
        tricks = self.shown_view().tricks
        return (len(tricks), tricks[-1]) if tricks else None

    def open_last_trick(self) -> None:
        """The Last trick button, L, or a click on the plate of the player who took it."""
        if any(isinstance(scene, (LastTrickDialog, HandLogDialog)) for scene in self.app.scenes):
            return
        last = self.last_trick()
        number, record = last if last is not None else (0, None)
        # It opens at the last trick and pages back through the hand's others.
        self.app.push(
            LastTrickDialog(self.app, record, number, self.names, tricks=self.shown_view().tricks).attach_host(self)
        )

    @property
    def hand_review_offered(self) -> bool:
        """Every hand is turned face up after a deal only when one person plays against the
        computers: in hot seat it would show each person the others' cards."""
        return len(self.humans) == 1

    def open_hand_review(self) -> None:
        """The score pad's Review hands: the deal just finished, every card face up, as the
        rules reveal it once the hand is scored (``TableSession.finished_hand``)."""
        finished = self.session.finished_hand()
        if (
            finished is None
            or not self.hand_review_offered
            or any(isinstance(scene, HandsReviewDialog) for scene in self.app.scenes)
        ):
            return
        self.app.push(
            HandsReviewDialog(self.app, finished, self.names, self.game_def, self.session.rules, first_seat=self.bottom)
        )

    def hand_log_lines(self) -> list[LogLine]:
        """This hand's log from the events the seat at the screen may know."""
        return hand_log(self.session.hand_events(self.viewer), self.names, self.game_def)

    def open_hand_log(self) -> None:
        if any(isinstance(scene, (LastTrickDialog, HandLogDialog)) for scene in self.app.scenes):
            return
        self.app.push(HandLogDialog(self.app, self.hand_log_lines()).attach_host(self))

    # ------------------------------------------------------------------ the played-cards panel
    def played_tally(self) -> PlayedCards:
        """What has fallen this hand, from the public view: the same for every seat, so the panel
        never shows a card the person at the screen may not see (cached per position)."""
        key = self.session.position
        if self._played_cache is None or self._played_cache[0] != key:
            self._played_cache = (key, played_cards(self.session.view(PUBLIC_SEAT).game))
        return self._played_cache[1]

    def played_panel(self) -> PanelPlace | None:
        """Where the played-cards panel is drawn now, or None: turned off in the settings, no
        card play under way, or no room for it clear of the plates, the trick and the hand."""
        if not self.app.settings.played_cards or self.session.phase not in (Phase.PLAY, Phase.HAND_OVER):
            return None
        fans = [
            self.view.fan_rect(self.layout, seat)
            for seat in range(self.session.num_players)
            if self.layout.relative(seat) != 0
        ]
        return panel_place(self.layout, fans)

    def _played_picture(self, place: PanelPlace) -> pygame.Surface:
        """The panel's picture, drawn again only when a card falls or its look changes."""
        four_colour = self.app.settings.four_colour_deck
        key = (
            place.rect.size,
            place.row_h,
            place.compact,
            self.layout.corner_unit,
            self.played_tally(),
            four_colour,
            t("played.title"),
        )
        if self._played_image is None or self._played_image[0] != key:
            self._played_image = (key, render_played_panel(place, self.layout, self.played_tally(), four_colour))
        return self._played_image[1]

    def toggle_played_cards(self) -> None:
        """P: show or hide the played-cards panel, kept in the settings for the next game too."""
        settings = self.app.settings
        settings.played_cards = not settings.played_cards
        try:
            write_settings(settings, self.app.user_paths)
        except (ConfigError, OSError) as exc:
            log.warning("could not save the settings: %s", exc)
        if settings.played_cards and panel_place(self.layout, []) is None:
            self.show_message(t("played.no_room"), warning=False)
        else:
            self.show_message(t("played.shown" if settings.played_cards else "played.hidden"), warning=False)

    def result_line(self) -> tuple[str, tuple[int, int, int]] | None:
        """The finished hand's result in words and its side's colour (None while a hand is played)."""
        if self.session.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            return None
        for event in reversed(self.session.hand_events(PUBLIC_SEAT)):
            if isinstance(event, BidWhistHandScored):
                return hand_result(event, self.names, self.game_def)
        return None

    def last_trick_pile(self) -> pygame.Rect | None:
        """Where the last trick went: the plate of the player who took it (None before any trick)."""
        last = self.last_trick()
        return self.layout.place(last[1].winner).plate if last is not None else None

    def _clicked_last_trick_pile(self, event: pygame.event.Event) -> bool:
        """A click on the last trick's pile; the mouse over it rings it, so it reads as clickable."""
        if event.type == pygame.MOUSEMOTION:
            pile = self.last_trick_pile()
            self._pile_hover = pile is not None and pile.collidepoint(event.pos)
            return False
        if event.type != pygame.MOUSEBUTTONUP or event.button != 1:
            return False
        pile = self.last_trick_pile()
        return pile is not None and pile.collidepoint(event.pos)

    def dialog_area(self, size: tuple[int, int], wide: bool) -> pygame.Rect:
        """Where the table's dialogs go, clear of the corner panels and buttons.

        A normal dialog (bids, trump) takes the middle of the table between the
        contract corner and the score corner, from the top edge down to just
        above the player's own name plate, so the scores, the buttons and the
        hand stay in view. A wide one (the kitty) takes the whole width below
        both corners.
        """
        layout = self._layout_for(size)
        gap = max(6, layout.margin // 2)
        if wide:
            top = layout.wide_dialog_top + gap
            return pygame.Rect(
                layout.margin, top, layout.width - 2 * layout.margin, layout.height - layout.margin - top
            )
        left = layout.indicator_rect.right + gap
        right = layout.score_rect.left - gap
        bottom = layout.place(self.bottom).plate.top - gap
        return pygame.Rect(left, layout.margin, max(1, right - left), max(1, bottom - layout.margin))

    def name_plates(self, size: tuple[int, int]) -> list[pygame.Rect]:
        """The players' name plates at window ``size`` (a grown dialog keeps clear of those in sight)."""
        return [place.plate for place in self._layout_for(size).seats]

    def _layout_for(self, size: tuple[int, int]) -> TableLayout:
        """The table's layout at window ``size``: the current one, unless a dialog asks for another size."""
        if self.layout.size == (max(800, size[0]), max(600, size[1])):
            return self.layout
        return self._compute_layout(size)

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
        if event.type == pygame.KEYDOWN and event.key == pygame.K_p and not event.mod & pygame.KMOD_CTRL:
            self.toggle_played_cards()
            return True
        if self.keys.handle_event(event):
            return True
        if self.drag.handle_event(event):
            return True
        if self._clicked_last_trick_pile(event):
            self.open_last_trick()
            return True
        if self._awaiting_next_deal():
            if (event.type == pygame.KEYDOWN and event.key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER)) or (
                event.type == pygame.MOUSEBUTTONUP and event.button == 1
            ):
                self.next_deal()
                return True
        return False

    def _awaiting_next_deal(self) -> bool:
        return (
            self.session.phase == Phase.HAND_OVER
            and self._awaiting is None
            and self.turns.awaiting_next_deal(self.session.position)
        )

    # ------------------------------------------------------------------ frame
    def update(self, dt: float) -> None:
        self._warm_up()
        if self._needs_frames():
            # The view's clock drives the turn glow's pulse and the thinking
            # dots; it stands still while the table sleeps, so the glow holds.
            self.view.update(dt)
        self.director.update(dt)
        self.drag.update(dt)
        self._report_save_error()
        if self._message_left > 0:
            self._message_left -= dt
            if self._message_left <= 0:
                self.message = None
        self._collect_hint()
        self._take_in_answers()
        if self._played_elsewhere():
            # Nothing more is asked of this screen: a decision it had open is put away.
            dialog = self._table_dialog()
            if isinstance(dialog, (BiddingPanel, ContractChooser, KittyDialog)):
                dialog.close()
        else:
            self._run_turn_flow(dt)
        self._message_to_dialog()
        self.keys.update(self.app.top_scene() is self, self.session.position)

    def wake_in(self) -> float | None:
        """Frames while anything moves or a computer is busy; otherwise sleep until
        input arrives or the message over the table is due to go."""
        if self._needs_frames():
            return 0.0
        wake: float | None = None
        if self.message is not None and self._message_left > 0:
            wake = self._message_left
        if self.session.away_seats():
            # "Waiting for Ann (0:42)" counts the seconds.
            wake = min(wake, AWAY_TICK_SECONDS) if wake is not None else AWAY_TICK_SECONDS
        return wake

    def _needs_frames(self) -> bool:
        """Something on the table changes without input: the table must keep its frame rate."""
        if self.director.moving or self._warm_queue or self._flow_acted:
            return True
        if self.drag.returning or self.drag.pressed_index >= 0:
            return True  # a card slides back, or is held or dragged
        if self.thinking_seat() >= 0 or self._hint_job is not None:
            return True  # the thinking dots, or a hint on its way
        if self.app.top_scene() is not self:
            return False  # something is open over the table: the game waits
        session = self.session
        if session.phase == Phase.HAND_OVER:
            return not self.humans  # no human closes the hand: it deals on after a pause
        if self._forced_card() is not None:
            return True  # a forced card is about to play itself
        seat = session.current_player
        if session.waiting_on_others():
            return False  # a move from elsewhere: the table sleeps until it arrives
        # A computer's move is being asked for, or held back for the pause.
        return session.phase != Phase.GAME_OVER and seat >= 0 and seat not in self.humans

    def _on_idle(self) -> None:
        # Every animation has landed: make sure the picture equals the viewer's view.
        self.model.sync(self.shown_view())

    def _facts(self) -> TableFacts:
        return TableFacts(
            position=self.session.position,
            phase=self.session.phase,
            current_seat=self.session.current_player,
            animating=not self.director.idle,
            covered=self.app.top_scene() is not self,
            ai_pause=self.app.settings.ai_pause_seconds,
            auto_next_delay=AUTO_NEXT_HAND_SECONDS * max(0.0, self.speed()),
            forced_play=self._forced_card() is not None,
            auto_play_delay=max(AUTO_PLAY_MIN_SECONDS, AUTO_PLAY_SECONDS * self.speed()),
        )

    def _run_turn_flow(self, dt: float) -> None:
        """Ask the turn controller what happens next and do it."""
        decision = self.turns.next_step(self._facts(), dt)
        self._flow_acted = not isinstance(decision, (Wait, ComputerTurn))
        self._follow_viewer()
        match decision:
            case ShowCover(seat=seat):
                self._cue_turn(seat)
                self.app.push(
                    CoverScene(
                        self.app, self.names[seat], lambda: self._cover_passed(seat), detail=self._cover_detail()
                    )
                )
            case Prompt(seat=seat, phase=phase):
                self._cue_turn(seat)
                self._prompt(seat, phase)
            case AutoPlay():
                self._auto_play()
            case ComputerTurn(seat=seat, paced=paced):
                self._flow_acted = self._computer_turn(seat, paced)
            case ShowHandOver():
                self.app.push(
                    ScorePad(
                        self.app,
                        self._scores(),
                        self.names,
                        self.next_deal,
                        close_key=self.game_def.text("next_deal"),
                        result=self.result_line(),
                        on_review=self.open_hand_review if self.hand_review_offered else None,
                    ).attach_host(self)
                )
            case AutoNextDeal():
                self.next_deal()
            case GameOver():
                self._game_over()

    def _cover_detail(self) -> str | None:
        """The first cover of a deal says that new cards were dealt, so whoever takes
        the screen knows the hand they are about to see is a fresh one."""
        deal = self.session.deal_number
        if deal == self._last_cover_deal:
            return None
        self._last_cover_deal = deal
        return t("cover.new_deal", deal=t(self.game_def.text("deal")), n=deal)

    def _cover_passed(self, seat: int) -> None:
        self.turns.cover_passed(seat)
        self._follow_viewer()
        # Prompt them at once, in the frame the cover went away.
        self._run_turn_flow(0.0)

    def _prompt(self, seat: int, phase: Phase) -> None:
        """Open the dialog for the human at ``seat`` (in the play phase the hand itself is the dialog)."""
        view = self.shown_view()
        dialog: DialogScene
        if phase in (Phase.BID, Phase.PREDICT):
            dialog = BiddingPanel(self.app, view, self.names, self._human_action)
        elif phase in (Phase.CONTRACT, Phase.TRUMP_CHOICE):
            # With hints on, H asks for a hint, so hearts answers to its number key alone.
            dialog = ContractChooser(self.app, view, self._human_action, letter_h_free=self.hints_offered)
        elif phase == Phase.DISCARD:
            dialog = KittyDialog(self.app, view, self._human_discards)
        else:
            return
        self.app.push(dialog.attach_host(self))
        if self._hint is not None and self._hint[0] == self.session.position:
            self._mark_hint(dialog, self._hint[1])  # a hint asked for before the dialog opened

    def _human_action(self, action: Action) -> None:
        self.apply_action(action)

    def _computer_turn(self, seat: int, paced: bool) -> bool:
        """Let the session's computer at ``seat`` think, and play once ``paced`` (the table is
        still and the pause is over); a move it plays is shown as a human's is. True when
        something was done this frame (thinking started, or a move played)."""
        before = self._before_acting()
        step = self.session.advance_computers(paced)
        if step is ComputerStep.PLAYED:
            self._after_acting(seat, *before)
        return step in (ComputerStep.STARTED, ComputerStep.PLAYED)

    def _game_over(self) -> None:
        # The session records the game in the history and then lets its save go. (If the history
        # could not be written, the save stays, so the game is not lost and can be recorded next time.)
        if not self.session.record_finished():
            self.show_message(t("table.history_failed"), warning=True)
        scores = self._scores()
        self._play_sound(self._end_effect(list(scores.winners)))
        self.app.push(
            EndScene(
                self.app,
                scores,
                self.names,
                self.play_again,
                self.app.show_start_after_game,
                on_review=self.open_hand_review if self.hand_review_offered else None,
            ).attach_host(self)
        )

    def play_again(self) -> None:
        if self.session.kept_on_server:
            self.app.show_start_after_game()  # a new network game is set up in a lobby, not here
            return
        self.app.start_match(self.session.rules, list(self.session.seats), None)

    # ------------------------------------------------------------------ drawing
    def _winning_seat(self) -> int:
        """Whose card is winning the trick on the felt, as the view says, once the
        picture shows that trick (while cards still fly it may show an earlier one)."""
        view = self.shown_view()
        return view.winning_seat if tuple(self.model.trick) == tuple(view.trick) else -1

    def _prompt_text(self) -> str | None:
        if not self.director.idle or self.app.top_scene() is not self:
            return None
        if self._awaiting_next_deal():
            return t("table.continue_hint")
        if self.session.phase == Phase.HAND_OVER and self._awaiting is not None:
            return t("net.waiting_ready")
        if self.claim_allowed():
            return t("claim.prompt")
        if self.input_enabled():
            if not INPUT_MODE.keyboard:
                return t("table.your_turn")
            # From the keys a card is picked first and played second (game.ui.table.drag).
            return t("table.your_turn_picked") if self.drag.selected >= 0 else t("table.your_turn_keys")
        seat = self.session.current_player
        if seat >= 0 and seat not in self.humans:
            return t("table.thinking", name=self.names[seat])
        return None

    @property
    def face_up(self) -> bool:
        """The bottom hand is drawn face up only for the viewer (their own cards)."""
        return self.viewer == self.bottom

    def draw(self, surface: pygame.Surface) -> None:
        playing = self.input_enabled()
        hand = HandLook(
            cards=self.hand_cards(),
            face_up=self.face_up,
            playable=self.playable_cards(),
            hover=self.drag.hover if playing else -1,
            selected=self.drag.selected if playing else -1,
            hidden=self.drag.hidden,
            suggested=self.hint_cards(),
        )
        overlay = Overlay(
            prompt=self._prompt_text(),
            message=self.message,
            message_warning=self.message_warning and self.message is not None,
            thinking_seat=self.thinking_seat(),
            winning_seat=self._winning_seat(),
            result=self.result_line() if self.director.idle and self.app.top_scene() is self else None,
            network=self.network_notice(),
        )
        # The person looking: a human viewer sees their own hidden bid on their plate.
        looking = self._looking()
        self.view.draw(
            surface, self.model, self.layout, self.names, hand, overlay, looking, covered=self._dialog_cover()
        )
        for entry in self.drag.returning:
            self.view.draw_card_sprite(surface, entry.card, self.layout.hand_card_w, (entry.x, entry.y))
        dragged = self.drag.dragged_card()
        if dragged is not None:
            card, centre, legal = dragged
            self.view.draw_card_sprite(
                surface,
                card,
                self.layout.hand_card_w,
                centre,
                angle=-4.0 if legal else 0.0,
                alpha=255 if legal else 190,
            )
        played = self.played_panel()
        covered = self._dialog_cover()
        if played is not None and (covered is None or not covered.colliderect(played.rect)):
            surface.blit(self._played_picture(played), played.rect.topleft)
        pile = self.last_trick_pile() if self._pile_hover and self.app.top_scene() is self else None
        if pile is not None:
            ring = pile.inflate(8, 8)
            pygame.draw.rect(surface, theme.ACCENT, ring, width=2, border_radius=ring.height // 2)
        self.draw_controls(surface)
