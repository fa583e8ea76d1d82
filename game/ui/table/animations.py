"""Turns the engine's events into animations, one after another."""

from __future__ import annotations

# The table scene hands every batch of events it gets from the match, already
# filtered for the seat being shown (``events_for``), to the ``Director``.
# Each event becomes a *step*: a group of tweens plus the changes it makes to
# the presentation model (``game.ui.table.model``) when the animation starts
# and when it lands. Steps run strictly in order, so a trick stays on the felt
# until its slide to the winner has finished, and every deal follows its
# ``Dealt.sequence`` card by card. A card the watching seat may not see
# arrives as ``UNKNOWN_CARD`` and flies, lands and stays face down.
#
# Every event type has exactly one handler, listed in ``Director.HANDLERS``;
# an event of a type without one is a programming error and raises
# ``UnhandledEventError`` at once instead of being dropped. The books the
# table shows are the rules' own figures carried by the events (``TrickWon``,
# ``Discarded``, the hand's score), never a count of the director's own.
#
# Durations are scaled by the animation speed setting; at ``instant`` (speed 0)
# every tween has zero length and the whole queue is worked off in one frame,
# which is what the headless tests use.
#
# While the director is busy (``idle`` is False) the table does not take a
# human's move; the scene checks ``idle`` before enabling input.
#
# Sounds go with the animations, through the ``sound`` callback the scene
# passes (the app's sound board, ``game.ui.audio``): the shuffle as a deal
# starts and a light click as each dealt or kitty card lands, a card's sound
# as it leaves for the trick (a discard's lighter one), the sweep of a trick
# to its winner, and a tap for each bid, contract and trump choice.
# A claim (``ClaimMade``) is said in a banner that stays up while the claimed
# tricks are played out, their flights and holds at ``CLAIM_PACE`` of the usual
# times. ``finish_all`` jumps to the end in silence: a screen handed to the next
# hot-seat player, or a position undone, must not burst into every sound at once.

import functools
import math
from collections import deque
from collections.abc import Callable, Iterable
from typing import ClassVar

import pygame

from game.rules import BidMode, GameDef
from game.rules.events import (
    BidMade,
    BidsRevealed,
    BidWhistHandScored,
    CardPlayed,
    ClaimMade,
    ContractSet,
    Dealt,
    Discarded,
    FirstDealerDrawn,
    GameEvent,
    GameOver,
    KittyTaken,
    Redealt,
    TrickWon,
    TrumpChosen,
    TrumpTurnedUp,
    UnhandledEventError,
    WizardHandScored,
)
from game.ui.audio import BID, CARD_PLAYED, DEAL, SHUFFLE, TRICK_WON
from game.ui.table.layout import TableLayout
from game.ui.table.model import Floater, FlyingCard, TableModel
from game.ui.text import direction_word, suit_word, t, team_words
from game.ui.theme import BAD, GOOD, TEAM_COLOURS
from game.ui.tween import (
    Tween,
    Easing,
    TweenGroup,
    ease_in_out_cubic,
    ease_in_quad,
    ease_out_cubic,
    ease_out_quad,
    lerp,
    linear,
)

# Base durations in seconds at "normal" speed.
DEAL_FLIGHT = 0.34
DEAL_TOTAL = 2.2  # the stagger shrinks so a long deal never takes much longer
PLAY_FLIGHT = 0.34
TRICK_HOLD = 0.75
TRICK_SLIDE = 0.45
DISCARD_FLIGHT = 0.26
KITTY_FLIGHT = 0.45
TURN_UP = 0.7
BANNER_HOLD = 1.1
BOSTON_HOLD = 2.4  # a Boston is rare: its banner stays long enough to be read
CLAIM_HOLD = 1.2  # a claim is read before its tricks are played out...
CLAIM_PACE = 0.35  # ...which then go at this share of the usual times
SCORE_TWEEN = 0.9
FLOATER_RISE = 46  # pixels a score pop-up rises while it fades
FLOATER_RISE_SECONDS = 1.2
FLOATER_FADE_FROM = 0.8  # a pop-up starts to fade this long after it appears...
FLOATER_SECONDS = 1.25  # ...and is gone this long after


class Step:
    """One queued animation: ``start()`` builds its tweens when its turn comes."""

    def __init__(self, start: Callable[[], TweenGroup | None]) -> None:
        self.start = start


class Director:
    # Every event type and the name of the method that animates it (one each).
    HANDLERS: ClassVar[dict[type, str]] = {
        FirstDealerDrawn: "_on_first_dealer_drawn",
        Dealt: "_on_dealt",
        TrumpTurnedUp: "_on_trump_turned_up",
        BidMade: "_on_bid_made",
        BidsRevealed: "_on_bids_revealed",
        Redealt: "_on_redealt",
        ContractSet: "_on_contract_set",
        TrumpChosen: "_on_trump_chosen",
        KittyTaken: "_on_kitty_taken",
        Discarded: "_on_discarded",
        CardPlayed: "_on_card_played",
        ClaimMade: "_on_claim_made",
        TrickWon: "_on_trick_won",
        BidWhistHandScored: "_on_bid_whist_hand_scored",
        WizardHandScored: "_on_wizard_hand_scored",
        GameOver: "_on_game_over",
    }

    def __init__(
        self,
        model: TableModel,
        layout: Callable[[], TableLayout],
        speed: Callable[[], float],
        seat_name: Callable[[int], str],
        game_def: GameDef,
        looking: Callable[[], int] = lambda: -1,
        sound: Callable[[str], object] | None = None,
    ) -> None:
        """``looking`` says which seat's player is at the screen (-1: nobody's in
        particular): a banner about that seat speaks to them ("You choose trump").
        ``sound`` plays a named effect (``game.ui.audio.EFFECTS``); without it the table is silent."""
        self.model = model
        self._play_sound = sound
        self._silent = False  # finishing everything at once: no sound
        self.game_def = game_def
        self._looking = looking
        self._layout = layout
        self._speed = speed
        self._seat_name = seat_name
        self._queue: deque[Step] = deque()
        self._current: TweenGroup | None = None
        # Extra tweens that do not hold up the queue (floating score texts).
        self._background = TweenGroup()
        # A card the player dropped somewhere: its flight starts from there.
        self._origin_hints: dict[int, tuple[float, float]] = {}
        self.on_idle: Callable[[], None] | None = None
        # A claimed hand being played out: its banner, and whether its cards go at the claim's pace.
        self._claim_banner: str | None = None
        self._brisk = False

    # ------------------------------------------------------------------ queue
    @property
    def idle(self) -> bool:
        return self._current is None and not self._queue

    @property
    def moving(self) -> bool:
        """Something still moves: a queued step, or a floating score text (which does not hold up the queue)."""
        return not self.idle or not self._background.done

    def hint_origin(self, card: int, position: tuple[float, float]) -> None:
        """``card`` was let go at ``position``: its next flight starts there."""
        self._origin_hints[card] = position

    def drop_hint(self, card: int) -> None:
        """Forget where ``card`` was let go (the move it was for was refused)."""
        self._origin_hints.pop(card, None)

    def handler_for(self, event: GameEvent) -> Callable[[GameEvent], TweenGroup | None]:
        """The method that animates ``event``; ``UnhandledEventError`` for a type without one."""
        name = self.HANDLERS.get(type(event))
        if name is None:
            raise UnhandledEventError(f"the table has no animation for {type(event).__name__} events")
        handler: Callable[[GameEvent], TweenGroup | None] = getattr(self, name)
        return handler

    def enqueue(self, events: Iterable[GameEvent], turn_after: int) -> None:
        """Queue the animations for ``events`` (filtered for the seat shown);
        the turn glow moves to ``turn_after`` at the end."""
        steps = [Step(functools.partial(self.handler_for(event), event)) for event in events]
        self._queue.extend(steps)
        self._queue.append(Step(lambda: self._set_turn(turn_after)))

    def update(self, dt: float) -> None:
        self._background.update(dt)
        if len(self._background.tweens) and self._background.done:
            self._background.clear()
        was_busy = not self.idle
        budget = dt
        # Several zero-length steps (instant speed, or bookkeeping steps) may
        # run in one frame; a step with duration takes the rest of the frame.
        for _ in range(10000):
            if self._current is None:
                if not self._queue:
                    break
                step = self._queue.popleft()
                self._current = step.start()
                if self._current is None:
                    continue
                self._current.update(0.0)
            else:
                self._current.update(budget)
                budget = 0.0
            if self._current.done:
                self._current = None
                continue
            if budget <= 0.0:
                break
        if was_busy and self.idle and self.on_idle is not None:
            self.on_idle()

    def finish_all(self) -> None:
        """Jump every queued animation to its end, without a sound (used when the table is left)."""
        self._silent = True
        try:
            self._finish_queue()
        finally:
            self._silent = False

    def _finish_queue(self) -> None:
        while not self.idle:
            if self._current is not None:
                self._current.finish_all()
                self._current = None
            elif self._queue:
                group = self._queue.popleft().start()
                if group is not None:
                    group.finish_all()
        self._background.finish_all()

    # ------------------------------------------------------------------ helpers
    def _sound(self, name: str) -> None:
        if self._play_sound is not None and not self._silent:
            self._play_sound(name)

    def _d(self, seconds: float) -> float:
        return seconds * self._speed() * (CLAIM_PACE if self._brisk else 1.0)

    def _fly(
        self,
        group: TweenGroup,
        sprite: FlyingCard,
        target: tuple[float, float],
        duration: float,
        *,
        delay: float = 0.0,
        target_angle: float | None = None,
        flip_to: float | None = None,
        fade_to: int | None = None,
        easing: Easing = ease_in_out_cubic,
        on_start: Callable[[], None] | None = None,
        on_finish: Callable[[], None] | None = None,
    ) -> None:
        """Move ``sprite`` to ``target`` (adding it to the table at the start, removing it at the end)."""
        model = self.model
        start = [sprite.x, sprite.y, sprite.angle, sprite.flip, sprite.alpha]

        def begin() -> None:
            start[:] = [sprite.x, sprite.y, sprite.angle, sprite.flip, sprite.alpha]
            model.flying.append(sprite)
            if on_start is not None:
                on_start()

        def step(p: float) -> None:
            sprite.x = lerp(start[0], target[0], p)
            # A slight arc makes flights look thrown rather than slid.
            sprite.y = lerp(start[1], target[1], p) - math.sin(math.pi * p) * 18
            if target_angle is not None:
                sprite.angle = lerp(start[2], target_angle, p)
            if flip_to is not None:
                sprite.flip = lerp(start[3], flip_to, p)
            if fade_to is not None:
                sprite.alpha = round(lerp(start[4], fade_to, p))

        def end() -> None:
            if sprite in model.flying:
                model.flying.remove(sprite)
            if on_finish is not None:
                on_finish()
            model.touch()

        group.add(
            Tween(
                0.0,
                1.0,
                self._d(duration),
                delay=self._d(delay),
                easing=easing,
                on_start=begin,
                on_update=step,
                on_finish=end,
            )
        )

    def _hold(self, seconds: float, on_finish: Callable[[], None] | None = None) -> TweenGroup:
        return TweenGroup([Tween(0, 1, self._d(seconds), easing=linear, on_finish=on_finish)])

    def _banner(self, text: str, seconds: float = BANNER_HOLD) -> TweenGroup:
        self.model.banner = text
        return self._hold(seconds, functools.partial(self._clear_banner, text))

    def _show_banner(self, text: str) -> None:
        self.model.banner = text
        self.model.touch()

    def _clear_banner(self, text: str) -> None:
        """Take ``text`` down, unless another banner has replaced it meanwhile."""
        if self.model.banner == text:
            self.model.banner = None
            self.model.touch()

    def _set_turn(self, seat: int) -> None:
        self.model.turn = seat
        self.model.touch()
        return None

    def _seat_target(self, layout: TableLayout, seat: int) -> tuple[float, float]:
        return layout.place(seat).hand_origin

    # ------------------------------------------------------------------ events
    def _on_first_dealer_drawn(self, event: FirstDealerDrawn) -> TweenGroup | None:
        self.model.dealer = event.dealer
        self.model.touch()
        return self._banner(t("table.first_dealer", name=self._seat_name(event.dealer)), 0.9)

    def _on_dealt(self, event: Dealt) -> TweenGroup | None:
        model, layout = self.model, self._layout()
        model.reset_deal()
        # The last hand's score pop-ups belong to that hand: none fades on into the new deal.
        model.floaters.clear()
        model.dealer = event.dealer
        model.deal_number = event.number
        model.round_number = event.number
        model.tricks_per_hand = len(event.hands[0]) if event.hands else 0
        origin = self._seat_target(layout, model.dealer)
        group = TweenGroup()
        count = max(1, len(event.sequence))
        stagger = min(0.07, DEAL_TOTAL / count)
        for index, (card, seat) in enumerate(event.sequence):
            target: tuple[float, float]
            if seat < 0:
                target = layout.kitty_centre
                width = layout.small_card_w
            else:
                target = self._seat_target(layout, seat)
                width = layout.hand_card_w if layout.relative(seat) == 0 else layout.back_card_w
            # Dealt face down: the card shows only once it lies in its owner's hand.
            sprite = FlyingCard(-1, origin[0], origin[1], width, angle=0.0, flip=0.0, z=index)

            def land(card: int = card, seat: int = seat) -> None:
                if seat < 0:
                    model.kitty.append(card)
                else:
                    model.hands[seat].append(card)
                self._sound(DEAL)

            self._fly(
                group,
                sprite,
                target,
                DEAL_FLIGHT,
                delay=index * stagger,
                easing=ease_out_cubic,
                target_angle=(index * 37) % 20 - 10 if seat < 0 else 0.0,
                on_finish=land,
            )
        model.touch()
        self._sound(SHUFFLE)
        return group

    def _on_trump_turned_up(self, event: TrumpTurnedUp) -> TweenGroup | None:
        model, layout = self.model, self._layout()
        if event.card < 0:
            model.turn_up = -1
            model.turn_up_known = True
            model.trump = -1
            model.touch()
            return self._banner(t("table.no_turn_up"), 0.9)
        group = TweenGroup()
        origin = self._seat_target(layout, model.dealer)
        sprite = FlyingCard(event.card, origin[0], origin[1], layout.small_card_w, flip=0.0, z=1000)
        chooser_says = ""
        if event.chooser >= 0:
            chooser_says = (
                t("table.you_choose_trump")
                if event.chooser == self._looking()
                else t("table.dealer_chooses", name=self._seat_name(event.chooser))
            )

        def land() -> None:
            model.turn_up = event.card
            model.turn_up_known = True
            model.trump = event.trump
            # A Wizard turned up: the seat the rules name chooses trump (the dealer, or
            # the dealer's left), or nobody does and the round has no trump.
            model.trump_pending = event.chooser >= 0
            model.trump_chooser = event.chooser
            if chooser_says:
                # Named over the table as the card lands; the game goes on meanwhile (the
                # chooser's own dialog opens over it), so the banner holds up nothing.
                self._show_banner(chooser_says)
                self._background.add(
                    Tween(
                        0,
                        1,
                        self._d(BANNER_HOLD * 1.5),
                        easing=linear,
                        on_finish=functools.partial(self._clear_banner, chooser_says),
                    )
                )

        self._fly(group, sprite, layout.turn_up_centre, TURN_UP, flip_to=1.0, easing=ease_out_cubic, on_finish=land)
        return group

    def _on_bid_made(self, event: BidMade) -> TweenGroup | None:
        # A bid hidden from this seat arrives without its action: only "placed" shows.
        self.model.show_bid(event.seat, event.action, event.hidden)
        self._sound(BID)
        return None

    def _on_bids_revealed(self, event: BidsRevealed) -> TweenGroup | None:
        self.model.reveal_bids(event.bids)
        return self._banner(t("table.bids_revealed"), 0.9)

    def _on_redealt(self, event: Redealt) -> TweenGroup | None:
        return self._banner(t("table.redeal"), 1.6)

    def _on_contract_set(self, event: ContractSet) -> TweenGroup | None:
        model = self.model
        model.declarer = event.declarer
        model.contract_books = event.books
        model.contract_mode = event.mode
        model.trump = event.trump
        model.direction = event.direction
        model.high_bid = None
        model.touch()
        self._sound(BID)
        return self._banner(
            t("table.contract_banner", name=self._seat_name(event.declarer), contract=contract_text(model)), BANNER_HOLD
        )

    def _on_trump_chosen(self, event: TrumpChosen) -> TweenGroup | None:
        model = self.model
        model.trump = event.trump
        model.trump_pending = False
        model.trump_chooser = -1
        model.touch()
        self._sound(BID)
        return self._banner(t("table.trump_chosen", name=self._seat_name(event.seat), suit=suit_word(model.trump)), 0.9)

    def _on_kitty_taken(self, event: KittyTaken) -> TweenGroup | None:
        model, layout = self.model, self._layout()
        seat = event.seat
        group = TweenGroup()
        target = self._seat_target(layout, seat)
        cx, cy = layout.kitty_centre
        model.kitty = []
        for index, card in enumerate(event.cards):
            sprite = FlyingCard(-1, cx, cy, layout.small_card_w, angle=(index * 37) % 20 - 10, flip=0.0, z=index)

            def land(card: int = card) -> None:
                model.hands[seat].append(card)
                self._sound(DEAL)

            self._fly(group, sprite, target, KITTY_FLIGHT, delay=index * 0.06, target_angle=0.0, on_finish=land)
        model.touch()
        return group

    def _on_discarded(self, event: Discarded) -> TweenGroup | None:
        model, layout = self.model, self._layout()
        seat, card = event.seat, event.card
        model.take_from_hand(seat, card)
        start = self._origin_hints.pop(card, None) or self._seat_target(layout, seat)
        plate = layout.place(seat).plate
        group = TweenGroup()
        sprite = FlyingCard(-1, start[0], start[1], layout.small_card_w, angle=0.0, flip=0.0)

        def landed() -> None:
            # The kitty book joins the declarer's books with the last discard.
            model.books = list(event.books)

        self._fly(
            group,
            sprite,
            plate.center,
            DISCARD_FLIGHT,
            fade_to=0,
            easing=ease_in_quad,
            target_angle=90.0,
            on_finish=landed,
        )
        model.touch()
        self._sound(DEAL)
        return group

    def _on_card_played(self, event: CardPlayed) -> TweenGroup | None:
        model, layout = self.model, self._layout()
        seat, card = event.seat, event.card
        model.take_from_hand(seat, card)
        place = layout.place(seat)
        hint = self._origin_hints.pop(card, None)
        start = hint or place.hand_origin
        bottom = layout.relative(seat) == 0
        sprite = FlyingCard(
            card, start[0], start[1], layout.trick_card_w, flip=1.0 if bottom else 0.0, angle=0.0, z=len(model.trick)
        )
        group = TweenGroup()

        def land() -> None:
            model.trick.append((seat, card))

        self._fly(
            group,
            sprite,
            place.trick_centre,
            PLAY_FLIGHT,
            target_angle=place.trick_angle,
            flip_to=1.0,
            easing=ease_out_cubic,
            on_finish=land,
        )
        model.touch()
        self._sound(CARD_PLAYED)
        return group

    def _on_claim_made(self, event: ClaimMade) -> TweenGroup | None:
        """The claim is said over the table, and stays up while its tricks are played
        out quickly; the hand's score takes it down (``_end_claim``)."""
        text = t("table.claim_banner", name=self._seat_name(event.seat), n=event.tricks)
        self._claim_banner = text
        self._show_banner(text)
        self._sound(BID)

        def brisk() -> None:
            self._brisk = True

        return self._hold(CLAIM_HOLD, on_finish=brisk)

    def _end_claim(self) -> None:
        """The claimed hand is over: back to the usual pace, and its banner comes down."""
        self._brisk = False
        if self._claim_banner is not None:
            self._clear_banner(self._claim_banner)
            self._claim_banner = None

    def _on_trick_won(self, event: TrickWon) -> TweenGroup | None:
        model = self.model
        # Show the finished trick with the winning card marked, then sweep it away.
        # Nobody is to act while it is collected: the last player's plate stops glowing
        # (the glow goes to the next player when the queued turn step comes).
        model.trick_winner = event.winner
        model.turn = -1
        model.touch()
        group = self._hold(TRICK_HOLD, on_finish=lambda: self._queue.appendleft(Step(lambda: self._sweep_trick(event))))
        return group

    def _sweep_trick(self, event: TrickWon) -> TweenGroup:
        model, layout = self.model, self._layout()
        group = TweenGroup()
        target = layout.place(event.winner).plate.center
        plays = list(model.trick)
        model.trick = []
        model.trick_winner = -1
        for index, (seat, card) in enumerate(plays):
            place = layout.place(seat)
            sprite = FlyingCard(
                card,
                place.trick_centre[0],
                place.trick_centre[1],
                layout.trick_card_w,
                angle=place.trick_angle,
                flip=1.0,
                z=index,
            )
            self._fly(
                group,
                sprite,
                target,
                TRICK_SLIDE,
                delay=index * 0.03,
                fade_to=40,
                easing=ease_in_out_cubic,
                target_angle=0.0,
            )
        group.add(Tween(0, 1, self._d(TRICK_SLIDE), on_finish=lambda: self._count_trick(event)))
        model.touch()
        self._sound(TRICK_WON)
        return group

    def _count_trick(self, event: TrickWon) -> None:
        self.model.tricks_won[event.winner] += 1
        self.model.books = list(event.books)
        self.model.touch()

    def _on_bid_whist_hand_scored(self, event: BidWhistHandScored) -> TweenGroup | None:
        self._end_claim()
        # The hand's books with every renege penalty applied, as the rules scored them.
        self.model.books = list(event.books)
        group = self._score_hand(event.scores, event.score_change)
        if event.boston and event.declarer >= 0:
            # All 13 books to the bidding team: said over the table once the score
            # pop-ups have risen and gone (they would pass behind the banner).
            members = self.game_def.team_members(self.game_def.team_of(event.declarer), self.model.num_players)
            text = t("table.boston_banner", team=team_words([self._seat_name(seat) for seat in members]))
            group.add(
                Tween(
                    0,
                    1,
                    self._d(BOSTON_HOLD),
                    delay=self._d(FLOATER_SECONDS),
                    easing=linear,
                    on_start=functools.partial(self._show_banner, text),
                    on_finish=functools.partial(self._clear_banner, text),
                )
            )
        return group

    def _on_wizard_hand_scored(self, event: WizardHandScored) -> TweenGroup | None:
        self._end_claim()
        self.model.books = list(event.tricks_won)
        return self._score_hand(event.scores, event.score_change)

    def _score_hand(self, scores: tuple[int, ...], changes: tuple[int, ...]) -> TweenGroup:
        """Count the scores up to the new totals, with a rising "+3" over each
        side's plates (a team's change over both partners)."""
        model, layout = self.model, self._layout()
        new_scores = [float(s) for s in scores]
        old_scores = list(model.scores) if len(model.scores) == len(new_scores) else [0.0] * len(new_scores)
        group = TweenGroup()

        def tween_scores(p: float) -> None:
            model.scores = [lerp(a, b, p) for a, b in zip(old_scores, new_scores)]
            model.touch()

        group.add(Tween(0, 1, self._d(SCORE_TWEEN), easing=ease_out_quad, on_update=tween_scores))
        size = round(layout.font_unit * 1.5)
        partnerships = self.game_def.partnerships > 0
        for side, change in enumerate(changes):
            if not change:
                continue
            text = f"{change:+d}"
            # A team's change in the team's own colour, as its score row shows it.
            colour = TEAM_COLOURS[side] if partnerships else (GOOD if change > 0 else BAD)
            starts = floater_starts(layout, size)
            for seat in self.game_def.team_members(side, model.num_players):
                x, y = starts[seat]
                self._float(Floater(text, x, y, colour, size=size))
        model.touch()
        return group

    def _float(self, floater: Floater) -> None:
        model = self.model
        start_y = floater.y

        def begin() -> None:
            model.floaters.append(floater)

        def rise(p: float) -> None:
            floater.y = start_y - FLOATER_RISE * p

        def fade(p: float) -> None:
            # Linear in time, so the text leaves promptly instead of lingering
            # as a faint smudge through the eased rise's long tail.
            floater.alpha = round(255 * (1.0 - p))

        def end() -> None:
            if floater in model.floaters:
                model.floaters.remove(floater)

        self._background.add(
            Tween(0, 1, self._d(FLOATER_RISE_SECONDS), easing=ease_out_cubic, on_start=begin, on_update=rise)
        )
        self._background.add(
            Tween(
                0,
                1,
                self._d(FLOATER_SECONDS - FLOATER_FADE_FROM),
                delay=self._d(FLOATER_FADE_FROM),
                easing=linear,
                on_update=fade,
                on_finish=end,
            )
        )

    def _on_game_over(self, event: GameOver) -> TweenGroup | None:
        # The final scores arrived with the last hand's score; the end screen says the rest.
        return None


def contract_text(model: TableModel) -> str:
    """'4 uptown, hearts trump' / '5 no trump, downtown' for the shown contract."""
    return contract_words(model.contract_books, model.contract_mode, model.trump, model.direction)


def contract_words(books: int, mode: int, trump: int, direction: int) -> str:
    """A contract in words; while the declarer is still choosing, only what is known:
    '4 uptown' before the trump is named, '4 no trump' before the ranking is."""
    if mode < 0:
        return ""
    if mode == BidMode.NOTRUMP:
        if direction < 0:
            return t("table.contract_nt_pending", n=books)
        return t("table.contract_nt", n=books, direction=direction_word(direction))
    word = direction_word(mode)
    if trump < 0:
        return t("table.contract_pending", n=books, mode=word)
    return t("table.contract_suit", n=books, mode=word, suit=suit_word(trump))


def score_text(value: float) -> str:
    return str(int(round(value)))


def floater_starts(layout: TableLayout, size: int) -> list[tuple[float, float]]:
    """Where each seat's score pop-up starts (centre of its text), by seat.

    A pop-up rises over its plate, or starts below the plate, or beside it on
    the side facing the table, whichever comes first with its whole rise clear
    of the window's edges, of the panels and buttons in the corners (the
    scores above all), of the other seats' plates and of the pop-ups already
    placed: two seats stacked at one side of the table had their pop-ups rise
    through each other, and the far seat's rose off the top of the window.
    """
    corners = [
        layout.score_rect.union(layout.pad_button),
        layout.indicator_rect.union(layout.progress_rect),
        layout.last_trick_button.union(layout.log_button),
    ]
    screen = pygame.Rect(0, 0, layout.width, layout.height)
    gap = round(size * 0.4)
    starts: list[tuple[float, float]] = []
    taken: list[pygame.Rect] = []
    for place in layout.seats:
        plate = place.plate
        inward = 1 if plate.centerx < layout.centre[0] else -1
        candidates = [
            (plate.centerx, plate.top),
            (plate.centerx, plate.bottom + FLOATER_RISE + size),
            (plate.centerx + inward * (plate.width // 2 + 2 * size + gap), plate.centery + FLOATER_RISE // 2),
        ]
        others = [other.plate for other in layout.seats if other is not place]
        chosen = candidates[0]
        for candidate in candidates:
            rise = floater_rise(candidate, size)
            if (
                screen.contains(rise)
                and rise.collidelist(corners) < 0
                and rise.collidelist(others) < 0
                and rise.collidelist(taken) < 0
            ):
                chosen = candidate
                break
        starts.append((float(chosen[0]), float(chosen[1])))
        taken.append(floater_rise(chosen, size))
    return starts


def floater_rise(start: tuple[float, float], size: int) -> pygame.Rect:
    """The band a pop-up of text ``size`` starting at ``start`` passes through as it rises."""
    x, y = start
    return pygame.Rect(round(x - 2 * size), round(y - FLOATER_RISE - size), 4 * size, FLOATER_RISE + 2 * size)
