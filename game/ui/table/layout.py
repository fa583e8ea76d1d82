"""Where everything on the card table goes, computed from the window size."""

from __future__ import annotations

# Seats go clockwise. Seen from the bottom player, the next seat clockwise (to
# their left) sits at the left of the screen, then the far side, then the
# right; with any count from 3 to 6 the opponents are spread evenly over the
# upper part of an ellipse around the table centre.
#
# The player's UI scale grows the plates, panels and their type, and large-card
# mode the cards, each only as far as the window has room (``compute_layout``).
#
# Sizes below the 800x600 minimum are laid out as 800x600 (the app scales that
# picture down), so a window dragged to a sliver never produces negative or
# zero-sized rectangles.

import math
from dataclasses import dataclass, field

import pygame

from game.ui import theme
from game.ui.widgets.focus import FOCUS_GAP, FOCUS_WIDTH
from game.ui.widgets.geometry import CHOICES, LARGE_CARD_FACTOR

MIN_SIZE = (800, 600)
CARD_RATIO = 1.4
#: How far a card of the bottom hand rises, in card heights: a playable card, and on top of
#: that the card the keyboard selected, the card under the pointer and the hint's card.
RAISE_PLAYABLE = 0.14
RAISE_SELECTED = 0.03
RAISE_HOVER = 0.02
RAISE_HINT = 0.03
#: How far the selection's focus ring reaches round a card.
RING_REACH = FOCUS_GAP + FOCUS_WIDTH + 2


def clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


@dataclass
class SeatPlace:
    """Geometry of one seat, in screen pixels."""

    seat: int
    relative: int  # 0 = bottom, then clockwise
    angle: float  # radians, screen coordinates (y down), from the table centre
    plate: pygame.Rect  # the name plate
    fan_centre: tuple[int, int]  # centre of the small card-back fan (opponents)
    fan_angle: float  # rotation of that fan in degrees (counter-clockwise)
    trick_centre: tuple[int, int]  # where this seat's card lies in the trick
    trick_angle: float  # small tilt of that card, degrees
    hand_origin: tuple[int, int]  # where cards leave from / arrive at for this seat


# ``TableLayout`` is plain geometry: given the drawing size, the number of
# seats and which seat sits at the bottom (the human whose hand is shown), it
# says where each seat's name plate, small fan of card backs and trick card
# go, where the bottom hand is laid out, and where the corner panels and
# buttons sit: the contract or trump panel with the hand's progress under it
# (upper left), the Score pad / Menu buttons over the scores (upper right),
# and the Last trick / Hand log buttons level with the bottom player's plate.
# It also sizes the oval drawn under the trick (``trick_rect``) to hold every
# trick card, and says where the "Led" and "Winning" tags sit beside a card.
# Nothing here draws; the table view and the drag controller both
# read the same layout, so a card is dropped exactly where it is drawn.
@dataclass
class TableLayout:
    width: int
    height: int
    num_players: int
    bottom_seat: int
    unit: float = 1.0
    #: The player's UI scale as far as this layout grew by it (1.0: the usual sizes). The
    #: upper bounds of type, plates and panels, made for the usual sizes, grow with it.
    grow: float = 1.0
    #: How far the corner panels (contract, progress, scores, their buttons) grew: with
    #: their width, which the felt the dialogs need between them may hold below ``grow``.
    #: Their type grows with ``grow`` all the same; where it outgrows the width, a team's
    #: row in the scores panel takes two lines (``stacked_scores``).
    corner_grow: float = 1.0
    #: Whether each team's row of the scores panel is two lines (its names over its books and
    #: score), for corner panels too narrow for the three side by side at their type.
    stacked_scores: bool = False
    #: Where a dialog as wide as the window (the kitty) starts: below the corner panels as they
    #: are at the usual sizes, so type grown in the corners never squeezes that dialog.
    wide_dialog_top: int = 0
    margin: int = 12
    hand_card_w: int = 90
    trick_card_w: int = 70
    back_card_w: int = 40
    small_card_w: int = 40
    hand_rect: pygame.Rect = field(default_factory=pygame.Rect)
    table_rect: pygame.Rect = field(default_factory=pygame.Rect)
    trick_rect: pygame.Rect = field(default_factory=pygame.Rect)
    centre: tuple[int, int] = (0, 0)
    indicator_rect: pygame.Rect = field(default_factory=pygame.Rect)
    score_rect: pygame.Rect = field(default_factory=pygame.Rect)
    menu_button: pygame.Rect = field(default_factory=pygame.Rect)
    pad_button: pygame.Rect = field(default_factory=pygame.Rect)
    hint_button: pygame.Rect = field(default_factory=pygame.Rect)  # empty when the table offers no hints
    # Low on the right, level with the bottom plate: the buttons that look back over the hand.
    last_trick_button: pygame.Rect = field(default_factory=pygame.Rect)
    log_button: pygame.Rect = field(default_factory=pygame.Rect)
    # Under the contract/trump panel: how the hand stands (books needed, bids against tricks).
    progress_rect: pygame.Rect = field(default_factory=pygame.Rect)
    message_centre: tuple[int, int] = (0, 0)
    kitty_centre: tuple[int, int] = (0, 0)
    turn_up_centre: tuple[int, int] = (0, 0)
    seats: list[SeatPlace] = field(default_factory=list)

    # ------------------------------------------------------------------ sizes
    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    @property
    def hand_card_h(self) -> int:
        return round(self.hand_card_w * CARD_RATIO)

    @property
    def trick_card_h(self) -> int:
        return round(self.trick_card_w * CARD_RATIO)

    @property
    def back_card_h(self) -> int:
        return round(self.back_card_w * CARD_RATIO)

    @property
    def font_unit(self) -> float:
        """Base text size in pixels for the name plates and everything on the felt."""
        return clamp(20 * self.unit, 17, 30 * self.grow)

    @property
    def corner_unit(self) -> float:
        """The size factor of the corner panels: the layout's, as far as their width grew."""
        return self.unit * self.corner_grow / self.grow

    @property
    def corner_font_unit(self) -> float:
        """Base text size in pixels for the corner panels: it grows with the UI scale as the
        rest of the table's type does (``grow``), though their width may grow less; the panels
        grow taller instead and a team's row wraps (``stacked_scores``)."""
        return clamp(20 * self.unit, 17, 30 * self.grow)

    @property
    def smallest_text(self) -> int:
        """The nominal size of the smallest text on the table (tags, the corners' small lines, a
        text fitted to its box): 12 px in a 1280x720 window at 100%, 10 px in the smallest
        window, grown by the UI scale as far as the table grew."""
        own = self.unit / self.grow
        return theme.nominal_size(theme.smallest_text_px(own) * self.grow)

    @property
    def message_top(self) -> int:
        """The top of the table's message line (a pill of type ``font_unit * 0.95`` around
        ``message_centre``), which the dialogs on the felt keep clear of."""
        return self.message_centre[1] - round(self.font_unit * 0.9)

    def place(self, seat: int) -> SeatPlace:
        return self.seats[seat]

    def relative(self, seat: int) -> int:
        return (seat - self.bottom_seat) % self.num_players


def effective_size(size: tuple[int, int]) -> tuple[int, int]:
    """The size the table is laid out for: never below the 800x600 minimum."""
    return (max(MIN_SIZE[0], int(size[0])), max(MIN_SIZE[1], int(size[1])))


#: How many times its type's size a team's row in the scores panel takes side by side (names,
#: books, score), and how tall a row that is stacked in two lines is.
SCORE_ROW_EMS = 12
STACKED_ROW_EMS = 2.2
#: How much the player's UI scale and large cards are cut back at a time when they do not fit.
CUT_BACK_STEP = 0.05
#: The widest dialog opened on the felt between the corner panels (the bidding panel) at
#: size factor 1: the corner panels widen with the UI scale only into felt it does not need.
DIALOG_FELT_WIDTH = 760


def compute_layout(
    size: tuple[int, int], num_players: int, bottom_seat: int, score_rows: int | None = None, hint_button: bool = False
) -> TableLayout:
    """The table layout for a drawing of ``size`` with ``num_players`` seats
    (``hint_button``: with a Hint button under the scores).

    The player's UI scale (plates, panels and their type) and large cards grow the
    layout only as far as the window has room: where the grown layout would put
    name plates over each other or over the corner panels, or the trick over a
    plate, both are cut back step by step, down to the usual sizes. That check is
    what limits the felt's plates and type, so a 200% choice grows them as far as they
    fit. The corner panels grow with their width, which only takes felt the dialogs
    between them (the bidding panel, the trump chooser) do not need.
    """
    scale = CHOICES.scale
    cards = LARGE_CARD_FACTOR if CHOICES.large_cards else 1.0
    felt = 0
    usual: TableLayout | None = None
    if scale > 1.0:
        # The felt the dialogs between the corner panels have at the usual sizes, or as much as
        # the widest of them needs: growing the table must not squeeze them narrower.
        usual = _laid_out(size, num_players, bottom_seat, score_rows, hint_button, 1.0, cards)
        felt = min(_felt_width(usual), round(DIALOG_FELT_WIDTH * min(usual.width / 1280, usual.height / 720)))
    while True:
        layout = _laid_out(size, num_players, bottom_seat, score_rows, hint_button, scale, cards, felt)
        if (scale <= 1.0 and cards <= 1.0) or (
            _has_room(layout)
            and _felt_width(layout) >= felt
            and (usual is None or _plates_beside_felt_kept(layout, usual, felt))
        ):
            if usual is not None:
                layout.wide_dialog_top = usual.wide_dialog_top
            return layout
        # The UI scale gives way first: the large cards are a choice of their own, which cutting
        # both at once threw away whenever the grown type did not fit (200% turned them off).
        if scale > 1.0:
            scale = max(1.0, scale - CUT_BACK_STEP)
        else:
            cards = max(1.0, cards - CUT_BACK_STEP)


def _plates_beside_felt_kept(layout: TableLayout, usual: TableLayout, felt: int) -> bool:
    """Whether every name plate that lies beside the dialogs' felt at the usual sizes still does.

    A dialog on the felt (the bidding panel, the trump chooser) hides the plates it
    covers (``TableView.draw``), so a side player's plate grown into that column would
    vanish while the players bid: the plates may grow only outward."""
    left = layout.width // 2 - felt // 2
    right = left + felt

    def beside(plate: pygame.Rect) -> bool:
        return plate.right <= left or plate.left >= right

    return all(beside(grown.plate) for grown, plain in zip(layout.seats, usual.seats) if beside(plain.plate))


def _felt_width(layout: TableLayout) -> int:
    """How wide the felt between the two upper corner panels is (where the bids and trump are asked)."""
    return layout.score_rect.left - layout.indicator_rect.right


def _has_room(layout: TableLayout) -> bool:
    """Whether every plate lies on screen, apart from the others, the corner panels, the review
    buttons and the trick."""
    screen = pygame.Rect(0, 0, layout.width, layout.height)
    plates = [place.plate for place in layout.seats]
    # The review buttons (and the Undo and Claim buttons mirroring them on the left) sit level
    # with the bottom plate: panels grown by the UI scale must not reach it.
    undo = layout.log_button.copy()
    undo.right = layout.width - layout.log_button.left
    claim = layout.last_trick_button.copy()
    claim.right = layout.width - layout.last_trick_button.left
    corners = [
        layout.indicator_rect,
        layout.progress_rect,
        layout.score_rect,
        layout.hint_button,
        layout.last_trick_button,
        layout.log_button,
        undo,
        claim,
    ]
    reach = pygame.Rect(0, 0, round(layout.trick_card_w * 1.1), round(layout.trick_card_h * 1.1))
    for index, plate in enumerate(plates):
        if not screen.contains(plate) or plate.collidelist(plates[index + 1 :] + corners) >= 0:
            return False
        for place in layout.seats:
            card = reach.copy()
            card.center = place.trick_centre
            if card.colliderect(plate):
                return False
    return True


def _laid_out(
    size: tuple[int, int],
    num_players: int,
    bottom_seat: int,
    score_rows: int | None,
    hint_button: bool,
    scale: float,
    cards: float,
    felt: int = 0,
) -> TableLayout:
    """The table layout with plates and panels grown by ``scale`` and cards by ``cards``,
    leaving at least ``felt`` pixels between the upper corner panels where it can."""
    w, h = effective_size(size)
    n = max(2, num_players)
    unit = min(w / 1280, h / 720) * scale
    # The corner panels widen with the UI scale, but only into felt the dialogs between
    # them do not need (``felt``), and never below their usual width; their type, buttons
    # and the window margin grow with that width, so the felt stays as wide as it was.
    usual_side = round(clamp(w * 0.19, 196, 330))
    side_w = round(clamp(w * 0.19 * scale, 196, 330 * scale))
    if felt:
        usual_margin = round(clamp(12 * unit / scale, 8, 22))
        side_w = max(usual_side, min(side_w, (w - 2 * usual_margin - felt) // 2))
    corner_grow = min(scale, side_w / usual_side)
    corner_unit = unit * corner_grow / scale
    margin = round(clamp(12 * corner_unit, 8, 22))
    if felt:
        side_w = max(usual_side, min(side_w, (w - 2 * margin - felt) // 2))  # the grown margin takes its share
    layout = TableLayout(
        width=w,
        height=h,
        num_players=n,
        bottom_seat=bottom_seat % n,
        unit=unit,
        grow=scale,
        corner_grow=corner_grow,
        margin=margin,
    )

    # Card sizes follow the smaller of the two window proportions so tall and
    # wide windows both keep the hand readable.
    hand_w = round(clamp(min(w * 0.074, h * 0.128), 58, 176))
    if cards > 1.0:
        # Large cards, but the hand never takes more than a fifth of the height and a
        # dozen cards still lie side by side across the window.
        hand_w = round(max(hand_w, min(hand_w * cards, h * 0.155, w / 11)))
    layout.hand_card_w = hand_w
    layout.trick_card_w = round(hand_w * 0.8)
    layout.back_card_w = max(26, round(hand_w * 0.42))
    layout.small_card_w = max(30, round(hand_w * 0.5))
    hand_h = layout.hand_card_h

    # The bottom band holds the hand, with room for raised (playable) cards
    # and the bottom player's name plate just above.
    font_unit = layout.font_unit
    plate_w = round(clamp(170 * unit, 150, 250 * scale))
    plate_h = round(font_unit * 2.7)
    # The highest a card of the hand rises (playable and selected, with its focus ring): the
    # player's own plate sits above it, so a lifted card never covers the plate.
    lift = round(hand_h * (RAISE_PLAYABLE + RAISE_SELECTED)) + max(0, RING_REACH - round(4 * unit))
    hand_top = h - margin - hand_h
    layout.hand_rect = pygame.Rect(margin, hand_top, w - 2 * margin, hand_h)
    bottom_plate = pygame.Rect(0, 0, plate_w, plate_h)
    bottom_plate.midbottom = (w // 2, hand_top - lift - round(4 * unit))

    # Corner panels (upper left: contract/trump; upper right: buttons, scores), at their own factor.
    corner_font = layout.corner_font_unit
    # The buttons grow with the corners' type (their words), even where the panels' width does not.
    button_h = max(round(clamp(36 * corner_unit, 32, 48 * corner_grow)), round(corner_font * 1.8))
    gap = round(clamp(8 * corner_unit, 6, 12))
    small_h = round(layout.small_card_w * CARD_RATIO)
    pad = round(clamp(10 * corner_unit, 8, 16))
    # The contract panel holds three lines of type (a small one, a large one, a small one,
    # which may wrap to a second line) beside the badge or turn-up card.
    layout.indicator_rect = pygame.Rect(
        margin,
        margin,
        side_w,
        max(
            round(clamp(118 * corner_unit, 104, 170 * corner_grow)),
            small_h + 2 * pad,
            round(corner_font * 4.8) + 2 * pad,
        ),
    )
    layout.turn_up_centre = (layout.indicator_rect.left + pad + layout.small_card_w // 2, layout.indicator_rect.centery)
    half = (side_w - gap) // 2
    layout.pad_button = pygame.Rect(w - margin - side_w, margin, half, button_h)
    layout.menu_button = pygame.Rect(w - margin - half, margin, half, button_h)
    if hint_button:
        # Three buttons share the row, each as wide as its word needs: Score pad, Hint, Menu.
        inner = side_w - 2 * gap
        pad_w, hint_w = round(inner * 0.44), round(inner * 0.25)
        layout.pad_button = pygame.Rect(w - margin - side_w, margin, pad_w, button_h)
        layout.hint_button = pygame.Rect(layout.pad_button.right + gap, margin, hint_w, button_h)
        layout.menu_button = pygame.Rect(
            layout.hint_button.right + gap, margin, w - margin - layout.hint_button.right - gap, button_h
        )
    rows = score_rows if score_rows is not None else (2 if n == 4 else n)
    # A team's names, books and score side by side take about twelve times the type's size;
    # in a narrower panel (a small window, or type grown more than the panel) each team's
    # row is two lines, so the names keep their size.
    # (Fewer rows than players: the rows are teams, with books beside their names.)
    layout.stacked_scores = rows < n and side_w < corner_font * SCORE_ROW_EMS
    row_h = round(corner_font * (STACKED_ROW_EMS if layout.stacked_scores else 1.25))
    score_h = round(corner_font * 1.9) + rows * row_h
    layout.score_rect = pygame.Rect(w - margin - side_w, margin + button_h + gap, side_w, score_h)
    # Two lines, or four where the panel is too narrow for a line at the smallest type.
    progress_lines = 4 if side_w < corner_font * SCORE_ROW_EMS else 2
    progress_h = round(corner_font * 1.1 * progress_lines) + 2 * round(pad * 0.6)
    layout.progress_rect = pygame.Rect(margin, layout.indicator_rect.bottom + gap, side_w, progress_h)
    left_block = layout.indicator_rect.union(layout.progress_rect)
    right_block = layout.score_rect.union(layout.pad_button)
    # The buttons that look back over the hand sit low on the right, level with the
    # bottom player's plate, clear of the hand below and of every seat above.
    review_h = max(round(clamp(30 * corner_unit, 28, 42 * corner_grow)), round(corner_font * 1.5))
    review_top = bottom_plate.centery - review_h // 2
    layout.last_trick_button = pygame.Rect(w - margin - side_w, review_top, half, review_h)
    layout.log_button = pygame.Rect(w - margin - half, review_top, half, review_h)

    # The table proper: everything above the bottom plate.
    table = pygame.Rect(0, 0, w, max(200, bottom_plate.top - gap))
    layout.table_rect = table
    cx = w // 2
    cy = round(table.top + table.height * 0.52)
    layout.centre = (cx, cy)
    rx = w / 2 - margin - plate_w / 2 - round(6 * unit)
    ry = table.height / 2 - margin - plate_h / 2

    trick_w, trick_h = layout.trick_card_w, layout.trick_card_h
    layout.kitty_centre = (cx, cy)
    layout.message_centre = (cx, bottom_plate.top - round(font_unit * 1.2))

    for seat in range(n):
        rel = (seat - layout.bottom_seat) % n
        angle = math.radians(90 + rel * 360 / n)
        ca, sa = math.cos(angle), math.sin(angle)
        if rel == 0:
            plate = bottom_plate
            fan_centre = (cx, hand_top + hand_h // 2)
            hand_origin = (cx, hand_top + hand_h // 2)
        else:
            ax = cx + rx * ca
            ay = cy + ry * sa
            plate = pygame.Rect(0, 0, plate_w, plate_h)
            plate.center = (round(ax), round(ay))
            # Keep plates on screen and clear of the corner panels.
            plate.clamp_ip(pygame.Rect(margin, margin, w - 2 * margin, table.bottom - margin))
            _avoid(plate, (left_block, right_block), table)
            # The seat's cards peek out from behind the plate on the side facing
            # the table centre: beside it for seats at the sides, below it for
            # seats along the top edge, above it otherwise.
            if abs(ca) > 0.6:
                reach = plate_w / 2 + layout.back_card_w * 0.55
                fan_centre = (round(plate.centerx - (reach if ca > 0 else -reach)), plate.centery)
            else:
                shift = plate_h / 2 + layout.back_card_h * 0.12
                fan_centre = (plate.centerx, round(plate.centery + (shift if sa < 0 else -shift)))
            hand_origin = fan_centre
        # The trick card lies between the centre and the seat, tilted a touch.
        tilt = -ca * 6.0 if rel else 0.0
        fan_angle = 0.0
        layout.seats.append(
            SeatPlace(
                seat,
                rel,
                angle,
                plate,
                fan_centre,
                fan_angle,
                trick_card_centre(rel, n, (cx, cy), trick_w, trick_h),
                tilt,
                hand_origin,
            )
        )
    layout.trick_rect = _trick_area(layout)
    layout.wide_dialog_top = max(layout.indicator_rect.bottom, layout.score_rect.bottom)
    return layout


def trick_card_centre(rel: int, num_players: int, centre: tuple[int, int], card_w: int, card_h: int) -> tuple[int, int]:
    """Where the trick card of the seat ``rel`` places after the bottom seat lies.

    The cards lie on an ellipse around the table's centre, each toward its
    seat, wide enough that no card covers another's corner indices: with up
    to four cards the side cards stand clear of the top and bottom ones;
    with five or six, cards next to each other on the ellipse's sides are a
    card and a bit apart vertically, and those beside the top and bottom
    cards a card and a bit apart horizontally.
    """
    angle = math.radians(90 + rel * 360 / num_players)
    ca, sa = math.cos(angle), math.sin(angle)
    reach_x = card_w * 1.3
    reach_y = card_h * (0.52 if num_players <= 4 else 1.08)
    return (round(centre[0] + ca * reach_x), round(centre[1] + sa * reach_y))


def turned_card_corners(place: SeatPlace, card_w: int, card_h: int) -> list[tuple[float, float]]:
    """The four corners of ``place``'s trick card on screen, turned by its tilt as the view turns it
    (counter-clockwise on screen, as ``pygame.transform.rotate`` does)."""
    turn = math.radians(place.trick_angle)
    cos_t, sin_t = math.cos(turn), math.sin(turn)
    x, y = place.trick_centre
    return [
        (x + dx * cos_t + dy * sin_t, y - dx * sin_t + dy * cos_t)
        for dx in (-card_w / 2, card_w / 2)
        for dy in (-card_h / 2, card_h / 2)
    ]


def _trick_area(layout: TableLayout) -> pygame.Rect:
    """The bounds of the oval drawn under the trick: it holds every seat's trick card.

    Of the ovals around the table's centre that reach every card corner, the
    one of the least area is taken (the proportions are tried in small
    steps), plus a strip of felt, so five or six cards, which lie farther out
    than four, stay inside it without the oval crowding the seats.
    """
    cx, cy = layout.centre
    corners = [
        (x - cx, y - cy)
        for place in layout.seats
        for x, y in turned_card_corners(place, layout.trick_card_w, layout.trick_card_h)
    ]
    ovals = []
    for step in range(60, 241, 2):
        wide = step / 100  # the oval's half width over its half height
        half_h = max(math.hypot(x / wide, y) for x, y in corners)
        ovals.append((wide * half_h, half_h))
    half_w, half_h = min(ovals, key=lambda oval: oval[0] * oval[1])
    # The strip of felt narrows where a name plate comes close (six seats in a short window).
    for eighth in range(8, -1, -1):
        felt = layout.trick_card_w * 0.16 * eighth / 8
        if not any(_oval_reaches(layout.centre, half_w + felt, half_h + felt, place.plate) for place in layout.seats):
            break
    rect = pygame.Rect(0, 0, round(2 * (half_w + felt)), round(2 * (half_h + felt)))
    rect.center = layout.centre
    return rect


def _oval_reaches(centre: tuple[int, int], half_w: float, half_h: float, rect: pygame.Rect) -> bool:
    """Whether the oval of those half axes around ``centre`` overlaps ``rect``: the point of the
    rectangle nearest the centre, axis by axis, is the one to test."""
    x = clamp(centre[0], rect.left, rect.right)
    y = clamp(centre[1], rect.top, rect.bottom)
    return ((x - centre[0]) / half_w) ** 2 + ((y - centre[1]) / half_h) ** 2 < 1.0


def trick_tag_rect(layout: TableLayout, seat: int, size: tuple[int, int], second: bool = False) -> pygame.Rect:
    """Where a tag of ``size`` ("Led", "Winning") goes on ``seat``'s trick card.

    The tag sits just outside the card, so it never covers the card's corner
    indices, on the first side with room for two tags that touches no other
    trick card, no name plate and no window edge: the side facing its seat
    (above the card for seats across the table, below it for the near seat,
    beside it for seats at the sides), else the side facing the middle, else
    the left or right. A ``second`` tag on the same card sits beyond the first.
    Card backs count as cards: a tag never lies over a seat's fan.
    """
    place = layout.place(seat)
    width, height = size
    gap = max(2, round(layout.trick_card_w * 0.05))
    own = _bounds(turned_card_corners(place, layout.trick_card_w, layout.trick_card_h))
    others = [
        _bounds(turned_card_corners(other, layout.trick_card_w, layout.trick_card_h)).inflate(2, 2)
        for other in layout.seats
        if other.seat != seat
    ]
    others += [other.plate for other in layout.seats]
    # The opponents' fans of card backs count as well, but give way when nothing else does: the
    # tag then covers as little of them as it can (a tag on the far side of a card reached
    # over the backs of the seat across).
    fans = [fan_rect(layout, other.seat) for other in layout.seats if other.relative != 0]
    screen = pygame.Rect(0, 0, layout.width, layout.height)
    # Room for two tags, as wide as the card at least, so both tags of a card pick the same side.
    block = pygame.Rect(0, 0, max(width, layout.trick_card_w), 2 * height + gap)
    toward_y, toward_x = math.sin(place.angle), math.cos(place.angle)
    above, below = ("above", "below") if toward_y < 0 else ("below", "above")
    left, right = ("left", "right") if toward_x < 0 else ("right", "left")
    if abs(toward_y) > 0.7:
        sides = [above, below, left, right]
    else:
        sides = [left, right, above, below]
    chosen: tuple[str, float] = (sides[0], 0.0)
    least: int | None = None
    # Each side, the block centred along it first, then slid along it by up to a card.
    slides = (0.0, -0.25, 0.25, -0.5, 0.5, -0.75, 0.75, 1.0)
    for side in sides:
        for slide in slides:
            _put_beside(block, own, side, gap, slide)
            if not screen.contains(block) or block.collidelist(others) >= 0:
                continue
            covered = sum(block.clip(fan).width * block.clip(fan).height for fan in fans)
            if least is None or covered < least:
                chosen, least = (side, slide), covered
            if covered == 0:
                break
        if least == 0:
            break
    tag = pygame.Rect(0, 0, width, height)
    if least is None or least > 0:
        # No side is clear of the seats' card backs (a grown table, crowded): the tags then
        # lie across the middle of their own card, over its pips, clear of its corner
        # indices and of every other seat's cards.
        tag.center = own.center
        tag.centery += (height + gap) // 2 if second else -(height + gap) // 2
        return tag
    _put_beside(block, own, chosen[0], gap, chosen[1])
    # The first tag takes the half of the block next to the card (the upper half beside it).
    near_top = chosen[0] != "above"
    tag.centerx = block.centerx
    if near_top != second:
        tag.top = block.top
    else:
        tag.bottom = block.bottom
    return tag


def fan_rect(layout: TableLayout, seat: int) -> pygame.Rect:
    """The most a seat's fan of card backs can cover (a full hand)."""
    rect = pygame.Rect(0, 0, round(layout.back_card_w * 4.2), layout.back_card_h + 6)
    rect.center = layout.place(seat).fan_centre
    return rect


def _bounds(points: list[tuple[float, float]]) -> pygame.Rect:
    left, top = min(x for x, _ in points), min(y for _, y in points)
    right, bottom = max(x for x, _ in points), max(y for _, y in points)
    return pygame.Rect(math.floor(left), math.floor(top), math.ceil(right - left), math.ceil(bottom - top))


def _put_beside(block: pygame.Rect, card: pygame.Rect, side: str, gap: int, slide: float = 0.0) -> None:
    """Move ``block`` next to ``card`` on ``side``, centred along that side, then slid along
    it by ``slide`` times the card's length on that side."""
    if side == "above":
        block.midbottom = (card.centerx + round(slide * card.width), card.top - gap)
    elif side == "below":
        block.midtop = (card.centerx + round(slide * card.width), card.bottom + gap)
    elif side == "left":
        block.topright = (card.left - gap, card.centery - block.height // 4 + round(slide * card.height))
    else:
        block.topleft = (card.right + gap, card.centery - block.height // 4 + round(slide * card.height))


def _avoid(plate: pygame.Rect, blockers: tuple[pygame.Rect, ...], table: pygame.Rect) -> None:
    """Move a plate out of a corner panel it overlaps, by the smaller of two moves.

    The plate either slides sideways toward the middle of the screen or drops
    below the panel, whichever moves it less, and stays on the table.
    """
    for blocker in blockers:
        if not plate.colliderect(blocker):
            continue
        down = blocker.bottom + 6 - plate.top
        if blocker.centerx < table.centerx:
            side = blocker.right + 6 - plate.left
        else:
            side = plate.right - (blocker.left - 6)
        if abs(side) < abs(down):
            plate.x += side if blocker.centerx < table.centerx else -side
        else:
            plate.top = blocker.bottom + 6
    if plate.bottom > table.bottom - 4:
        plate.bottom = table.bottom - 4


def hand_positions(
    layout: TableLayout, count: int, lifted: set[int] | frozenset[int] = frozenset(), raise_px: int | None = None
) -> list[tuple[pygame.Rect, float]]:
    """Rects (unrotated) and tilt angles of ``count`` cards fanned in the bottom hand.

    Cards overlap to fit the width; with few cards they spread at a comfortable
    gap. A gentle arc (outer cards lower and tilted) gives the held-hand look.
    Indices in ``lifted`` are raised by ``raise_px``.
    """
    if count <= 0:
        return []
    cw, ch = layout.hand_card_w, layout.hand_card_h
    area = layout.hand_rect
    max_step = cw * 0.62
    step = max_step if count == 1 else min(max_step, (area.width - cw) / (count - 1))
    total = cw + step * (count - 1)
    left = area.centerx - total / 2
    raise_px = round(ch * RAISE_PLAYABLE) if raise_px is None else raise_px
    result = []
    middle = (count - 1) / 2
    spread = max(1.0, middle)
    for index in range(count):
        offset = (index - middle) / spread  # -1 .. 1
        arc = round(offset * offset * ch * 0.07)
        tilt = -offset * min(7.0, 0.9 * count)
        rect = pygame.Rect(round(left + step * index), area.top + arc, cw, ch)
        if index in lifted:
            rect.y -= raise_px
        result.append((rect, tilt))
    return result
