"""Turns the engine's events into animations, one after another.

The table scene hands every batch of events it gets from the match to the
``Director``. Each event becomes a *step*: a group of tweens plus the changes
it makes to the presentation model (``game.ui.table.model``) when the
animation starts and when it lands. Steps run strictly in order, so a trick
stays on the felt until its slide to the winner has finished, and the deal
follows the DEAL event's ``sequence`` card by card.

Durations are scaled by the animation speed setting; at ``instant`` every
tween has zero length and the whole queue is worked off in one frame, which
is what the headless tests use.

While the director is busy (``idle`` is False) the table does not take a
human's move; the scene checks ``idle`` before enabling input.
"""

from __future__ import annotations

import functools
import math
from collections import deque
from typing import Callable, Iterable

from game.rules import Event, Phase
from game.ui.table.layout import TableLayout
from game.ui.table.model import Floater, FlyingCard, TableModel, bid_label
from game.ui.text import t
from game.ui.theme import BAD, GOOD
from game.ui.tween import (Tween, TweenGroup, ease_in_out_cubic, ease_in_quad, ease_out_cubic,
                           ease_out_quad, lerp, linear)

SUIT_KEYS = ("table.suit.spades", "table.suit.hearts", "table.suit.diamonds", "table.suit.clubs")

# Base durations in seconds at "normal" speed.
DEAL_FLIGHT = 0.34
DEAL_TOTAL = 2.2          # the stagger shrinks so a long deal never takes much longer
PLAY_FLIGHT = 0.34
TRICK_HOLD = 0.75
TRICK_SLIDE = 0.45
DISCARD_FLIGHT = 0.26
KITTY_FLIGHT = 0.45
TURN_UP = 0.7
BANNER_HOLD = 1.1
SCORE_TWEEN = 0.9


class Step:
    """One queued animation: ``start()`` builds its tweens when its turn comes."""

    def __init__(self, start: Callable[[], TweenGroup | None]) -> None:
        self.start = start


class Director:
    def __init__(
        self,
        model: TableModel,
        layout: Callable[[], TableLayout],
        speed: Callable[[], float],
        seat_name: Callable[[int], str],
    ) -> None:
        self.model = model
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

    # ------------------------------------------------------------------ queue
    @property
    def idle(self) -> bool:
        return self._current is None and not self._queue

    def hint_origin(self, card: int, position: tuple[float, float]) -> None:
        self._origin_hints[card] = position

    def enqueue(self, events: Iterable[Event], turn_after: int) -> None:
        """Queue the animations for ``events``; the turn glow moves to ``turn_after`` at the end."""
        for event in events:
            handler = getattr(self, "_on_" + event.kind.value, None)
            if handler is not None:
                self._queue.append(Step(functools.partial(handler, event)))
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
        """Jump every queued animation to its end (used when the table is left)."""
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
    def _d(self, seconds: float) -> float:
        return seconds * self._speed()

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
        easing=ease_in_out_cubic,
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

        group.add(Tween(0.0, 1.0, self._d(duration), delay=self._d(delay), easing=easing,
                        on_start=begin, on_update=step, on_finish=end))

    def _hold(self, seconds: float, on_finish: Callable[[], None] | None = None) -> TweenGroup:
        return TweenGroup([Tween(0, 1, self._d(seconds), easing=linear, on_finish=on_finish)])

    def _banner(self, text: str, seconds: float = BANNER_HOLD) -> TweenGroup:
        model = self.model
        model.banner = text

        def clear() -> None:
            if model.banner == text:
                model.banner = None
        return self._hold(seconds, clear)

    def _set_turn(self, seat: int) -> None:
        self.model.turn = seat
        self.model.touch()
        return None

    def _seat_target(self, layout: TableLayout, seat: int) -> tuple[float, float]:
        return layout.place(seat).hand_origin

    # ------------------------------------------------------------------ events
    def _on_first_dealer(self, event: Event) -> TweenGroup | None:
        self.model.dealer = event.data["dealer"]
        self.model.touch()
        return self._banner(t("table.first_dealer", name=self._seat_name(event.data["dealer"])), 0.9)

    def _on_deal(self, event: Event) -> TweenGroup | None:
        model, layout, data = self.model, self._layout(), event.data
        model.reset_deal()
        # The last hand's score pop-ups belong to that hand: none fades on into the new deal.
        model.floaters.clear()
        model.dealer = data["dealer"]
        model.deal_number = data["number"]
        model.phase = Phase.BID if model.is_bidwhist else Phase.PREDICT
        if not model.is_bidwhist:
            model.round_number = data["number"]
        sequence = data.get("sequence")
        if not sequence:
            # Wizard deals one card at a time clockwise from the dealer's left.
            hands = data["hands"]
            n = len(hands)
            per_seat = len(hands[0]) if hands else 0
            sequence = [(hands[(model.dealer + 1 + i) % n][i // n], (model.dealer + 1 + i) % n)
                        for i in range(n * per_seat)]
        origin = self._seat_target(layout, model.dealer)
        group = TweenGroup()
        count = max(1, len(sequence))
        stagger = min(0.07, DEAL_TOTAL / count)
        for index, (card, seat) in enumerate(sequence):
            target: tuple[float, float]
            if seat < 0:
                target = layout.kitty_centre
                width = layout.small_card_w
            else:
                target = self._seat_target(layout, seat)
                width = layout.hand_card_w if layout.relative(seat) == 0 else layout.back_card_w
            sprite = FlyingCard(-1, origin[0], origin[1], width, angle=0.0, flip=0.0, z=index)

            def land(card: int = card, seat: int = seat) -> None:
                if seat < 0:
                    model.kitty.append(card)
                else:
                    model.hands[seat].append(card)
            self._fly(group, sprite, target, DEAL_FLIGHT, delay=index * stagger, easing=ease_out_cubic,
                      target_angle=(index * 37) % 20 - 10 if seat < 0 else 0.0, on_finish=land)
        model.touch()
        return group

    def _on_trump_turned(self, event: Event) -> TweenGroup | None:
        model, layout = self.model, self._layout()
        card = event.card
        trump = event.data.get("trump")
        pending = bool(event.data.get("dealer_chooses"))
        if card < 0:
            model.turn_up = -1
            model.turn_up_known = True
            model.trump = -1
            model.touch()
            return self._banner(t("table.no_turn_up"), 0.9)
        group = TweenGroup()
        origin = self._seat_target(layout, model.dealer)
        sprite = FlyingCard(card, origin[0], origin[1], layout.small_card_w, flip=0.0, z=1000)

        def land() -> None:
            model.turn_up = card
            model.turn_up_known = True
            model.trump = -1 if trump is None else int(trump)
            model.trump_pending = pending
        self._fly(group, sprite, layout.turn_up_centre, TURN_UP, flip_to=1.0, easing=ease_out_cubic,
                  on_finish=land)
        return group

    def _on_bid(self, event: Event) -> TweenGroup | None:
        model = self.model
        if model.is_bidwhist:
            action = event.data.get("action")
            key, params = bid_label(model.game, action)
            if action is not None and action.kind.name == "BID":
                model.high_bid = (event.seat, action.value, action.mode)
        else:
            hidden = bool(event.data.get("hidden"))
            value = event.data.get("bid")
            if hidden:
                # Never shown to the other players before the reveal.
                key, params = "table.bid_hidden", {}
                if value is not None:
                    model.secret_bids[event.seat] = int(value)
            else:
                key, params = bid_label(model.game, value)
                model.predictions[event.seat] = -1 if value is None else int(value)
        model.bid_labels[event.seat] = t(key, **params)
        model.touch()
        return None

    def _on_bids_revealed(self, event: Event) -> TweenGroup | None:
        model = self.model
        for seat, value in enumerate(event.data.get("bids", ())):
            if value is not None and value >= 0:
                model.predictions[seat] = value
                model.bid_labels[seat] = t("table.plate_bid", n=value)
        model.secret_bids.clear()
        model.touch()
        return self._banner(t("table.bids_revealed"), 0.9)

    def _on_redeal(self, event: Event) -> TweenGroup | None:
        return self._banner(t("table.redeal"), 1.6)

    def _on_contract(self, event: Event) -> TweenGroup | None:
        model, data = self.model, event.data
        model.declarer = event.seat
        model.contract_books = data["books"]
        model.contract_mode = ("uptown", "downtown", "notrump").index(data["mode"])
        model.trump = "SHDC".index(data["trump"]) if data.get("trump") else -1
        model.direction = 0 if data["direction"] == "uptown" else 1
        model.high_bid = None
        model.phase = Phase.DISCARD
        model.touch()
        return self._banner(t("table.contract_banner", name=self._seat_name(event.seat),
                              contract=contract_text(model)), BANNER_HOLD)

    def _on_trump_chosen(self, event: Event) -> TweenGroup | None:
        model = self.model
        model.trump = int(event.data["trump"])
        model.trump_pending = False
        model.touch()
        return self._banner(t("table.trump_chosen", name=self._seat_name(event.seat),
                              suit=t(SUIT_KEYS[model.trump])), 0.9)

    def _on_kitty_taken(self, event: Event) -> TweenGroup | None:
        model, layout = self.model, self._layout()
        cards = list(event.data.get("cards", ()))
        seat = event.seat
        group = TweenGroup()
        target = self._seat_target(layout, seat)
        cx, cy = layout.kitty_centre
        model.kitty = []
        for index, card in enumerate(cards):
            sprite = FlyingCard(-1, cx, cy, layout.small_card_w, angle=(index * 37) % 20 - 10, flip=0.0, z=index)
            self._fly(group, sprite, target, KITTY_FLIGHT, delay=index * 0.06, target_angle=0.0,
                      on_finish=functools.partial(model.hands[seat].append, card))
        model.touch()
        return group

    def _on_discard(self, event: Event) -> TweenGroup | None:
        model, layout = self.model, self._layout()
        seat, card = event.seat, event.card
        if card in model.hands[seat]:
            model.hands[seat].remove(card)
        start = self._origin_hints.pop(card, None) or self._seat_target(layout, seat)
        plate = layout.place(seat).plate
        group = TweenGroup()
        sprite = FlyingCard(-1, start[0], start[1], layout.small_card_w, angle=0.0, flip=0.0)

        def landed() -> None:
            model.discarded += 1
        self._fly(group, sprite, plate.center, DISCARD_FLIGHT, fade_to=0, easing=ease_in_quad,
                  target_angle=90.0, on_finish=landed)
        model.touch()
        return group

    def _on_card_played(self, event: Event) -> TweenGroup | None:
        model, layout = self.model, self._layout()
        seat, card = event.seat, event.card
        if card in model.hands[seat]:
            model.hands[seat].remove(card)
        place = layout.place(seat)
        hint = self._origin_hints.pop(card, None)
        start = hint or place.hand_origin
        bottom = layout.relative(seat) == 0
        sprite = FlyingCard(card, start[0], start[1], layout.trick_card_w,
                            flip=1.0 if bottom else 0.0, angle=0.0, z=len(model.trick))
        group = TweenGroup()

        def land() -> None:
            model.trick.append((seat, card))
        self._fly(group, sprite, place.trick_centre, PLAY_FLIGHT, target_angle=place.trick_angle,
                  flip_to=1.0, easing=ease_out_cubic, on_finish=land)
        model.touch()
        return group

    def _on_trick_won(self, event: Event) -> TweenGroup | None:
        model = self.model
        winner = event.seat
        # Show the finished trick with the winning card marked, then sweep it away.
        model.trick_winner = winner
        model.touch()
        group = self._hold(TRICK_HOLD, on_finish=lambda: self._queue.appendleft(
            Step(lambda: self._sweep_trick(winner))))
        return group

    def _sweep_trick(self, winner: int) -> TweenGroup:
        model, layout = self.model, self._layout()
        group = TweenGroup()
        target = layout.place(winner).plate.center
        plays = list(model.trick)
        model.trick = []
        model.trick_winner = -1
        for index, (seat, card) in enumerate(plays):
            place = layout.place(seat)
            sprite = FlyingCard(card, place.trick_centre[0], place.trick_centre[1], layout.trick_card_w,
                                angle=place.trick_angle, flip=1.0, z=index)
            self._fly(group, sprite, target, TRICK_SLIDE, delay=index * 0.03, fade_to=40,
                      easing=ease_in_out_cubic, target_angle=0.0)
        group.add(Tween(0, 1, self._d(TRICK_SLIDE), on_finish=lambda: self._count_trick(winner)))
        model.touch()
        return group

    def _count_trick(self, winner: int) -> None:
        self.model.tricks_won[winner] += 1
        self.model.touch()

    def _on_hand_scored(self, event: Event) -> TweenGroup | None:
        model, layout = self.model, self._layout()
        data = event.data
        new_scores = [float(s) for s in data.get("scores", model.scores)]
        changes = list(data.get("score_change", [0] * len(new_scores)))
        old_scores = list(model.scores) if len(model.scores) == len(new_scores) else [0.0] * len(new_scores)
        group = TweenGroup()

        def tween_scores(p: float) -> None:
            model.scores = [lerp(a, b, p) for a, b in zip(old_scores, new_scores)]
            model.touch()
        group.add(Tween(0, 1, self._d(SCORE_TWEEN), easing=ease_out_quad, on_update=tween_scores))
        size = round(layout.font_unit * 1.5)
        for index, change in enumerate(changes):
            if not change:
                continue
            text = f"{change:+d}"
            colour = GOOD if change > 0 else BAD
            if model.is_bidwhist:
                # Team change shows over both partners' plates.
                anchors = [layout.place(s).plate for s in range(model.num_players) if s % 2 == index]
            else:
                anchors = [layout.place(index).plate]
            for plate in anchors:
                self._float(Floater(text, plate.centerx, plate.top, colour, size=size))
        return group

    def _float(self, floater: Floater) -> None:
        model = self.model
        start_y = floater.y

        def begin() -> None:
            model.floaters.append(floater)

        def rise(p: float) -> None:
            floater.y = start_y - 46 * p

        def fade(p: float) -> None:
            # Linear in time, so the text leaves promptly instead of lingering
            # as a faint smudge through the eased rise's long tail.
            floater.alpha = round(255 * (1.0 - p))

        def end() -> None:
            if floater in model.floaters:
                model.floaters.remove(floater)
        self._background.add(Tween(0, 1, self._d(1.2), easing=ease_out_cubic, on_start=begin, on_update=rise))
        self._background.add(Tween(0, 1, self._d(0.45), delay=self._d(0.8), easing=linear, on_update=fade,
                                   on_finish=end))

    def _on_game_over(self, event: Event) -> TweenGroup | None:
        return None


def contract_text(model: TableModel) -> str:
    """'4 uptown, hearts trump' / '5 no trump, downtown' for the shown contract."""
    if model.contract_mode < 0:
        return ""
    if model.contract_mode == 2:
        direction = t("table.uptown") if model.direction != 1 else t("table.downtown")
        return t("table.contract_nt", n=model.contract_books, direction=direction)
    mode = t("table.uptown") if model.contract_mode == 0 else t("table.downtown")
    if model.trump < 0:
        return t("table.contract_pending", n=model.contract_books, mode=mode)
    return t("table.contract_suit", n=model.contract_books, mode=mode, suit=t(SUIT_KEYS[model.trump]))


def score_text(value: float) -> str:
    return str(int(round(value)))

