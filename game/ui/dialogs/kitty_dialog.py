"""The kitty dialog: the Bid Whist declarer chooses the kitty's worth of cards to discard."""

from __future__ import annotations

# After naming the contract the declarer holds 12 dealt cards plus the kitty
# (the kitty's size: 6 with the jokers, so 18 cards; 4 without, so 16), the
# kitty cards marked. They are laid out in two even rows, sorted for the
# contract: jokers and the trump suit first, then the other suits alternating
# in colour, each by rank as the contract ranks them (the game's ``hand_order``
# under the view's rules: uptown A K Q ... 2, downtown A 2 3 ... K, or 2 3 ...
# K A with the house rule that makes the ace low; no trump puts the useless
# jokers last). A click toggles a card; selected cards rise, are marked, and
# show again, small, in the discard tray under the hand, which has one slot
# per card to discard. A card can also be dragged: dropped on the tray it
# joins the discard, and a card dragged out of the tray (or a raised card
# dragged off it and dropped elsewhere) goes back to the hand. Discarding is
# possible only with exactly the kitty's number selected, and the selection
# can be changed freely until then.
#
# Keys: arrows move between cards (Left and Right in reading order, from the
# end of one row to the start of the next, never out of the hand), Space
# toggles the focused card, Enter discards (or says how many more to choose),
# Backspace clears.

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame

from game.rules import PlayerView, get_game
from game.rules.adapter import KittyChoice
from game.rules.cards import card_code
from game.ui import theme
from game.ui.table.animations import contract_words
from game.ui.text import t
from game.ui.widgets.button import Button
from game.ui.widgets.dialog import DialogScene
from game.ui.widgets.focus import Widget, draw_focus_ring
from game.ui.widgets.geometry import ui_scale
from game.ui.widgets.panels import draw_suggestion_frame, fill_translucent
from game.ui.widgets.text import draw_text_fit, draw_text_wrapped

if TYPE_CHECKING:
    from game.ui.app import App
    from game.ui.art.card_art import CardArt

#: The most cards in one row of the hand; more make a second row, the two kept even.
CARDS_PER_ROW = 9
#: How far the pointer must move with the button down before a press becomes a drag.
DRAG_THRESHOLD = 6
#: Size of the cards in the discard tray, relative to the hand's cards.
TRAY_CARD_SCALE = 0.62
#: How much larger than the dialog's own factor its words may grow with the UI scale.
TYPE_HEADROOM = 1.3
COLOUR_OF_SUIT = (0, 1, 1, 0)  # spades black, hearts red, diamonds red, clubs black
SUIT_ORDER = (0, 1, 3, 2)  # S H C D: colours alternate


def suit_positions(trump: int) -> dict[int, int]:
    """Where each suit's group goes in the dialog: the trump suit first, then the
    others with the colours alternating where the suits allow it."""
    others = [s for s in SUIT_ORDER if s != trump]
    if trump < 0:
        return {suit: i for i, suit in enumerate(SUIT_ORDER)}
    opposite = [s for s in others if COLOUR_OF_SUIT[s] != COLOUR_OF_SUIT[trump]]
    same = [s for s in others if COLOUR_OF_SUIT[s] == COLOUR_OF_SUIT[trump]]
    others = [opposite[0], same[0], opposite[1]] if len(opposite) == 2 and same else opposite + same
    return {trump: 0, **{suit: i + 1 for i, suit in enumerate(others)}}


def sort_for_contract(view: PlayerView, cards: list[int], suit_of: Sequence[int], direction: int) -> list[int]:
    """Cards in the order a player would hold them for the view's contract, best first.

    The rules say which suit each card belongs to under the contract
    (``suit_of``, by card id: jokers join the trump suit, and have none in no
    trump) and, through the game's ``hand_order`` under the view's rules and
    the contract's ``direction``, how strong it is in the contract's ranking;
    cards without a suit go last.
    """
    trump = view.trump
    ranked = get_game(view.game).hand_order(cards, trump, max(0, direction), rules=view.rules)
    strength = {card: index for index, card in enumerate(ranked)}
    position = suit_positions(trump)

    def key(card: int) -> tuple[int, int]:
        return (position.get(suit_of[card], len(position)), strength[card])

    return sorted(cards, key=key)


def cards_per_row(count: int) -> int:
    """How many cards each row of the hand holds: at most ``CARDS_PER_ROW``, the
    rows as even as the count allows (16 cards: two rows of 8, not 9 and 7)."""
    rows = max(1, -(-count // CARDS_PER_ROW))
    return max(1, -(-count // rows))


class CardChoice(Widget):
    """One card of the kitty dialog: a face that toggles between kept and discarded."""

    def __init__(self, card: int, from_kitty: bool, on_toggle: Callable[[CardChoice], None]) -> None:
        super().__init__((0, 0, 1, 1))
        self.card = card
        self.code = card_code(card)
        self.from_kitty = from_kitty
        self.selected = False
        self.suggested = False  # a hint names this card for the discard
        self.on_toggle = on_toggle
        self.face: pygame.Surface | None = None
        self.index_size = (0, 0)  # the card art's corner index box, which the kitty tag leaves in view
        self.lift = 0

    def activate(self) -> None:
        self.on_toggle(self)

    def handle_key(self, event: pygame.event.Event) -> bool:
        if event.key == pygame.K_SPACE:
            self.activate()
            return True
        return False  # Enter belongs to the dialog: it discards

    @property
    def shown_rect(self) -> pygame.Rect:
        return self.rect.move(0, -self.lift if self.selected else 0)

    def hit(self, pos: tuple[int, int]) -> bool:
        # The raised card is hit where it is drawn, and its old place stays clickable.
        return self.shown_rect.collidepoint(pos) or self.rect.collidepoint(pos)

    def track_hover(self, event: pygame.event.Event) -> None:
        self.hovered = self.shown_rect.collidepoint(event.pos)

    def draw(self, surface: pygame.Surface) -> None:
        rect = self.shown_rect
        if self.face is not None:
            surface.blit(self.face, rect)
        radius = max(3, rect.width // 12)
        if self.selected:
            pygame.draw.rect(surface, theme.DANGER, rect.inflate(4, 4), width=3, border_radius=radius + 2)
        elif self.hovered:
            pygame.draw.rect(surface, theme.ACCENT, rect.inflate(2, 2), width=2, border_radius=radius + 1)
        if self.suggested and not self.selected:
            draw_suggestion_frame(surface, rect, radius)
        if self.from_kitty:
            # Along the bottom edge, in the free span left of the bottom-right corner index.
            inset = max(2, round(rect.width * 0.05))
            room = pygame.Rect(rect.left + inset, rect.top, rect.width - self.index_size[0] - 2 * inset, rect.height)
            tag = pygame.Rect(0, 0, min(room.width, round(rect.width * 0.8)), max(12, round(rect.height * 0.14)))
            tag.midbottom = (room.centerx, rect.bottom - 3)
            pygame.draw.rect(surface, (*theme.ACCENT, 255), tag, border_radius=tag.height // 2)
            draw_text_fit(surface, t("kitty.tag"), tag.inflate(-6, -2), tag.height, theme.TEXT_DARK, bold=True)
        if self.focused and self.show_focus_ring:
            # Round the selection's red frame, so a chosen card shows both.
            draw_focus_ring(surface, rect.inflate(4, 4) if self.selected else rect, radius + 2)


class CardDrag:
    """A press on a card that may become a drag: which card, from where, and where the pointer is."""

    def __init__(self, choice: CardChoice, start: tuple[int, int], from_tray: bool, grab: tuple[int, int]) -> None:
        self.choice = choice
        self.start = start
        self.pos = start
        self.from_tray = from_tray
        self.grab = grab  # the pointer's offset inside the card, so the card does not jump
        self.moved = False

    def move(self, pos: tuple[int, int]) -> None:
        self.pos = pos
        if abs(pos[0] - self.start[0]) + abs(pos[1] - self.start[1]) >= DRAG_THRESHOLD:
            self.moved = True


class KittyDialog(DialogScene):
    """Choose the discards from ``view.hand`` (as many as the kitty brought: the
    hand keeps one card per trick); ``on_confirm`` gets the chosen card ids."""

    def __init__(self, app: App, view: PlayerView, on_confirm: Callable[[list[int]], None]) -> None:
        super().__init__(app)
        adapter = get_game(view.game).adapter
        choice: KittyChoice | None = adapter.kitty_choice(view)
        if choice is None:
            raise TypeError(f"the kitty dialog needs a view with a kitty; {view.game} has none")
        self.view = view
        self.figures = adapter.table_figures(view)
        self.on_confirm = on_confirm
        # The kitty's size is the rules' (6, or 4 without jokers), less any already laid aside.
        self.discard_count = choice.to_lay_aside
        self.title = t("kitty.title", count=self.discard_count)
        kitty = list(choice.kitty)
        self.cards: list[CardChoice] = []
        for card in sort_for_contract(view, list(view.hand), choice.suits, self.figures.direction):
            # The four-of-a-kind Wizard cards do not exist here; each id is one card.
            from_kitty = card in kitty
            if from_kitty:
                kitty.remove(card)
            self.cards.append(CardChoice(card, from_kitty, self._toggle))
        self.confirm = Button(
            (0, 0, 1, 1),
            t("kitty.confirm", count=self.discard_count),
            self._confirm,
            kind="primary",
            hotkey=(pygame.K_RETURN, pygame.K_KP_ENTER),
        )
        self.clear = Button((0, 0, 1, 1), t("kitty.clear"), self._clear, hotkey=pygame.K_BACKSPACE)
        self.tray_rect = pygame.Rect(0, 0, 1, 1)
        self.tray_slots: list[pygame.Rect] = []
        self.tray_faces: dict[str, pygame.Surface] = {}
        self.drag: CardDrag | None = None
        self._refresh()
        self.relayout()
        self.focus.focus(self.cards[0] if self.cards else self.confirm)

    def on_settings_changed(self) -> None:
        # The language may have changed: word the title and buttons again; the choice stays.
        self.title = t("kitty.title", count=self.discard_count)
        self.confirm.label = t("kitty.confirm", count=self.discard_count)
        self.clear.label = t("kitty.clear")
        self.tray_faces = {}
        self._refresh()
        self.relayout()

    # ------------------------------------------------------------------ selection
    def suggest(self, cards: set[int]) -> None:
        """Mark ``cards`` as a hint's discards; the selection itself stays the player's."""
        for choice in self.cards:
            choice.suggested = choice.card in cards
        self.invalidate()

    @property
    def selected(self) -> list[int]:
        return [choice.card for choice in self.cards if choice.selected]

    def _toggle(self, choice: CardChoice) -> None:
        self._set_selected(choice, not choice.selected)

    def _set_selected(self, choice: CardChoice, selected: bool) -> None:
        choice.selected = selected
        self._refresh()

    def tray_cards(self) -> list[CardChoice]:
        """The selected cards in the order the tray shows them (the hand's order)."""
        return [choice for choice in self.cards if choice.selected]

    def tray_places(self) -> list[tuple[CardChoice, pygame.Rect]]:
        """Each selected card and where the tray shows it.

        Up to the number to discard fill the slots; more (the player must
        unselect some) squeeze over the same width so each stays visible and
        draggable.
        """
        chosen = self.tray_cards()
        slots = self.tray_slots
        if not slots:
            return []
        if len(chosen) <= len(slots):
            return list(zip(chosen, slots))
        step = (slots[-1].left - slots[0].left) / (len(chosen) - 1)
        return [(choice, slots[0].move(round(i * step), 0)) for i, choice in enumerate(chosen)]

    # ------------------------------------------------------------------ dragging
    def _card_at(self, pos: tuple[int, int]) -> tuple[CardChoice, pygame.Rect, bool] | None:
        """The card under ``pos``: (card, its rectangle, whether it is in the tray)."""
        for choice, slot in reversed(self.tray_places()):
            if slot.collidepoint(pos):
                return choice, slot, True
        for choice in self.cards:
            if choice.hit(pos):
                return choice, choice.shown_rect, False
        return None

    def drag_event(self, event: pygame.event.Event) -> bool:
        """Mouse presses, drags and drops on the cards; True when used.

        A press and release without moving is a click (toggle). A drag that
        ends over the tray puts the card in the discard; one that starts in
        the tray, or on a raised card, and ends outside the tray takes it back.
        """
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            found = self._card_at(event.pos)
            if found is None:
                return False
            choice, rect, from_tray = found
            # Hold the full-size card at the same relative point as the (maybe smaller) one pressed.
            grab_x = (event.pos[0] - rect.left) * choice.rect.width // max(1, rect.width)
            grab_y = (event.pos[1] - rect.top) * choice.rect.height // max(1, rect.height)
            self.drag = CardDrag(choice, event.pos, from_tray, (grab_x, grab_y))
            self.focus.focus(choice, keyboard=False)
            return True
        drag = self.drag
        if drag is None:
            return False
        if event.type == pygame.MOUSEMOTION:
            drag.move(event.pos)
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            drag.move(event.pos)
            self.drag = None
            if not drag.moved:
                self._toggle(drag.choice)
            elif self.tray_rect.collidepoint(event.pos):
                self._set_selected(drag.choice, True)
            elif drag.from_tray or drag.choice.selected:
                self._set_selected(drag.choice, False)
            return True
        return False

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.done and self._laid_out_for is not None and self.drag_event(event):
            self.invalidate()
            return True
        if (
            event.type == pygame.KEYDOWN
            and event.key in (pygame.K_LEFT, pygame.K_RIGHT)
            and self.focus.focused in self.cards
        ):
            self._step_through_cards(1 if event.key == pygame.K_RIGHT else -1)
            return True
        return super().handle_event(event)

    def _step_through_cards(self, step: int) -> None:
        """Left and Right go through the hand in reading order: from the end of a row to
        the start of the next (nearest-in-direction once jumped from the top row's end to
        the buttons), and no further than the first or the last card."""
        focused = self.focus.focused
        assert isinstance(focused, CardChoice)
        index = min(max(self.cards.index(focused) + step, 0), len(self.cards) - 1)
        self.focus.focus(self.cards[index], keyboard=True)

    def _clear(self) -> None:
        for choice in self.cards:
            choice.selected = False
        self._refresh()

    def _refresh(self) -> None:
        count = len(self.selected)
        self.confirm.enabled = count == self.discard_count
        self.clear.enabled = count > 0
        if count < self.discard_count:
            self.confirm.reason = t("kitty.need_more", count=self.discard_count - count)
        else:
            self.confirm.reason = t("kitty.need_fewer", count=count - self.discard_count)
        self.clear.reason = None

    def _confirm(self) -> None:
        if len(self.selected) == self.discard_count:
            self.finish(self.on_confirm, self.selected)

    # ------------------------------------------------------------------ layout
    def layout(self, size: tuple[int, int]) -> None:
        # Grown by the UI scale as far as it fits below the corner panels and hides no player in sight.
        self.scale = scale = ui_scale(size, self.room_in_sight_of_plates(size, (1100, 640), wide=True))
        # The words grow with the player's choice beyond the panel, by up to TYPE_HEADROOM: below
        # the corner panels the kitty soon runs out of room, and its cards give up the height
        # the larger type takes (a text still too long is fitted smaller).
        self.text_scale = min(ui_scale(size, math.inf), scale * TYPE_HEADROOM)
        type_size = self.type_size
        content = self.open_panel(size, round(1100 * scale), round(640 * scale), wide=True, factor=self.text_scale)
        gap = max(4, round(8 * scale))
        help_h = max(14, round(content.height * 0.1), 2 * theme.line_step(type_size, True))
        self.help_rect = pygame.Rect(content.left, content.top, content.width, help_h)
        foot_h = max(
            24,
            min(round(54 * scale), round(content.height * 0.14)),
            theme.line_step(round(type_size * 1.1), True) * 5 // 3,
        )
        self.foot_rect = pygame.Rect(content.left, content.bottom - foot_h, content.width, foot_h)
        cards_area = pygame.Rect(
            content.left,
            self.help_rect.bottom + gap,
            content.width,
            max(10, self.foot_rect.top - gap - self.help_rect.bottom - gap),
        )
        per_row = cards_per_row(len(self.cards))
        rows = max(1, -(-len(self.cards) // per_row))
        card_gap = max(3, round(cards_area.width * 0.008))
        tray_pad = max(4, round(6 * scale))
        # Height per card width: each row holds a card and room above it for a
        # raised (selected) card; the tray under the rows holds smaller cards.
        per_width = rows * 1.4 * 1.16 + TRAY_CARD_SCALE * 1.4
        fixed = card_gap * rows + 2 * tray_pad
        card_w = min(
            (cards_area.width - card_gap * (per_row - 1)) // per_row, int((cards_area.height - fixed) / per_width)
        )
        card_w = max(12, card_w)
        card_h = round(card_w * 1.4)
        lift = round(card_h * 0.16)
        art = self._card_art(card_w)
        row_h = card_h + lift
        tray_card_w = max(10, round(card_w * TRAY_CARD_SCALE))
        tray_h = round(tray_card_w * 1.4) + 2 * tray_pad
        block_h = rows * row_h + (rows - 1) * card_gap + card_gap + tray_h
        top = cards_area.top + max(0, (cards_area.height - block_h) // 2) + lift
        for index, choice in enumerate(self.cards):
            row, column = divmod(index, per_row)
            in_row = min(per_row, len(self.cards) - row * per_row)
            row_w = in_row * card_w + (in_row - 1) * card_gap
            left = cards_area.centerx - row_w // 2 + column * (card_w + card_gap)
            choice.set_rect(pygame.Rect(left, top + row * (row_h + card_gap), card_w, card_h))
            choice.lift = lift
            choice.face = art.face(choice.code)
            choice.index_size = art.corner_index_size()
        self._layout_tray(
            cards_area,
            top + rows * row_h - lift + (rows - 1) * card_gap + card_gap,
            tray_h,
            tray_card_w,
            tray_pad,
            scale,
        )
        button_w = min(round(content.width * 0.3), max(120, round(240 * scale)))
        self.confirm.set_rect(pygame.Rect(self.foot_rect.right - button_w, self.foot_rect.top, button_w, foot_h))
        clear_w = min(round(content.width * 0.16), max(80, round(120 * scale)))
        self.clear.set_rect(pygame.Rect(self.confirm.rect.left - gap - clear_w, self.foot_rect.top, clear_w, foot_h))
        room = max(1, self.clear.rect.left - gap - self.foot_rect.left)
        self.count_rect = pygame.Rect(self.foot_rect.left, self.foot_rect.top, round(room * 0.4), foot_h)
        self._reason_rect = pygame.Rect(
            self.count_rect.right + gap, self.foot_rect.top, max(1, room - self.count_rect.width - gap), foot_h
        )
        self.focus.set_widgets([*self.cards, self.clear, self.confirm])

    def _card_art(self, width: int) -> CardArt:
        art_factory: Callable[[int], CardArt] | None = getattr(self.app, "card_art", None)
        if art_factory is not None:
            return art_factory(width)
        from game.ui.art.card_art import CardArt

        return CardArt(width)

    def _layout_tray(self, cards_area: pygame.Rect, top: int, height: int, card_w: int, pad: int, scale: float) -> None:
        """The discard tray: a label on the left, then one card slot per card to discard."""
        card_h = round(card_w * 1.4)
        slot_gap = max(3, round(card_w * 0.12))
        slots_w = self.discard_count * card_w + (self.discard_count - 1) * slot_gap
        label_w = max(round(120 * scale), round(cards_area.width * 0.2))
        width = min(cards_area.width, label_w + slots_w + 3 * pad)
        self.tray_rect = pygame.Rect(0, top, width, height)
        self.tray_rect.centerx = cards_area.centerx
        self.tray_label_rect = pygame.Rect(
            self.tray_rect.left + pad,
            self.tray_rect.top + pad,
            max(1, self.tray_rect.width - slots_w - 3 * pad),
            height - 2 * pad,
        )
        left = self.tray_label_rect.right + pad
        self.tray_slots = [
            pygame.Rect(left + i * (card_w + slot_gap), self.tray_rect.top + pad, card_w, card_h)
            for i in range(self.discard_count)
        ]
        art = self._card_art(card_w)
        self.tray_faces = {choice.code: art.face(choice.code) for choice in self.cards}

    def _draw_tray(self, surface: pygame.Surface, size: int) -> None:
        hovering = self.drag is not None and self.drag.moved and self.tray_rect.collidepoint(self.drag.pos)
        fill_translucent(surface, (*theme.ACCENT, 70) if hovering else (0, 0, 0, 70), self.tray_rect, 10)
        pygame.draw.rect(
            surface,
            theme.ACCENT if hovering else theme.PANEL_EDGE,
            self.tray_rect,
            width=2 if hovering else 1,
            border_radius=10,
        )
        label = self.tray_label_rect
        top = pygame.Rect(label.left, label.top, label.width, label.height // 2)
        draw_text_fit(surface, t("kitty.tray"), top, size, theme.PANEL_TITLE, align="left", bold=True)
        bottom = pygame.Rect(label.left, top.bottom, label.width, label.height - top.height)
        draw_text_wrapped(surface, t("kitty.tray_hint"), bottom, round(size * 0.75), theme.TEXT_DIM, align="left")
        for slot in self.tray_slots:
            pygame.draw.rect(surface, theme.PANEL_EDGE, slot, width=1, border_radius=max(3, slot.width // 10))
        for choice, slot in self.tray_places():
            if self.drag is not None and self.drag.moved and self.drag.choice is choice:
                continue  # it is under the pointer
            face = self.tray_faces.get(choice.code)
            if face is not None:
                surface.blit(face, slot)

    def draw_live(self, surface: pygame.Surface) -> None:
        super().draw_live(surface)
        drag = self.drag
        if drag is not None and drag.moved and drag.choice.face is not None:
            face = drag.choice.face
            rect = face.get_rect(topleft=(drag.pos[0] - drag.grab[0], drag.pos[1] - drag.grab[1]))
            shadow = rect.move(4, 6)
            fill_translucent(surface, (0, 0, 0, 90), shadow, max(3, rect.width // 12))
            surface.blit(face, rect)

    def reason_rect(self) -> pygame.Rect:
        # The dialog fills the window, so reasons show in its foot row, beside the buttons.
        return self._reason_rect

    def contract_line(self) -> str:
        """The contract, worded as the table's contract panel words it ("3 uptown, hearts trump")."""
        figures = self.figures
        contract = contract_words(
            figures.contract_books, max(0, figures.contract_mode), self.view.trump, figures.direction
        )
        return t("kitty.contract", contract=contract)

    @property
    def type_size(self) -> int:
        """The dialog's main type: its help, the contract and the tray's label."""
        return max(16, round(23 * self.text_scale))

    def draw_content(self, surface: pygame.Surface) -> None:
        size = self.type_size
        help_top = self.help_rect.copy()
        help_top.height //= 2
        draw_text_fit(surface, t("kitty.help", count=self.discard_count), help_top, size, theme.TEXT)
        help_bottom = pygame.Rect(
            self.help_rect.left, help_top.bottom, self.help_rect.width, self.help_rect.height - help_top.height
        )
        draw_text_fit(surface, self.contract_line(), help_bottom, size, theme.ACCENT, bold=True)
        count = len(self.selected)
        wanted = self.discard_count
        colour = theme.GOOD if count == wanted else (theme.BAD if count > wanted else theme.TEXT)
        count_top = self.count_rect.copy()
        count_top.height = round(count_top.height * 0.6)
        draw_text_fit(
            surface,
            t("kitty.count", count=count, total=wanted),
            count_top,
            round(size * 1.1),
            colour,
            align="left",
            bold=True,
        )
        keys = pygame.Rect(
            self.count_rect.left, count_top.bottom, self.count_rect.width, self.count_rect.height - count_top.height
        )
        # Wrapped, not cut: in a small window the key help takes two lines.
        draw_text_wrapped(surface, t("kitty.keys"), keys, round(size * 0.75), theme.TEXT_DIM, align="left")
        self._draw_tray(surface, size)
