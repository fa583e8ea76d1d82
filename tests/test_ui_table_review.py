"""The table tells the players how the hand stands (issue 9), driven headless through the real app.

* the last trick can be looked at any time in a hand: a button, the L key and
  a click on the plate of the player who took it open it; it shows who played
  which card, who led and who took it, and closes with Esc, L or a click;
* while a trick is played, the led card and the card winning it (the view's
  ``winning_seat``) are tagged on the felt;
* Bid Whist shows the declaring side's books needed and taken and what the
  defenders need to set the contract, and the finished hand's result in
  words, in the declaring team's own colour; Wizard shows the round's bids
  against its tricks;
* the contract panel names no ranking while a no-trump declarer chooses one;
* the turn glow leaves the last player while the trick is collected, and a
  score pop-up never rises over the scores panel;
* the hand log is built from the events the seat at the screen may know, and
  fits and scrolls at 800x600.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from collections.abc import Callable

import pygame
import pytest

from game.session.match import Match, Seat
from game.rules import ActionKind, BidMode, Phase, make_rules
from game.rules.actions import PASS, bid
from game.rules.bidwhist import books_needed, books_to_set
from game.rules.events import BidWhistHandScored
from game.rules.tricks import PUBLIC_SEAT
from game.rules.view import BidWhistView, WizardView
from game.ui import theme
from game.session.ai_worker import InlineAiRunner
from game.ui.table.animations import FLOATER_RISE
from game.ui.table.hints import card_words
from game.session.local import LocalSession, local_session
from game.ui.dialogs.contract_chooser import ContractChooser
from game.ui.dialogs.cover_scene import CoverScene
from game.ui.dialogs.kitty_dialog import KittyDialog
from game.ui.dialogs.score_pad import ScorePad
from game.ui.table.review import HandLogDialog, LastTrickDialog
from game.ui.table.scene import TableScene
from game.ui.text import t, team_words
from scene_checks import match_of, top
from test_ui_table import click, key, make_app, mouse, pass_cover, start, step, top_name
from tools.screenshots import Autopilot


class Pilot(Autopilot):
    """Answers every question the table asks its human with the medium computer player
    (the screenshot tool's autopilot), laying away the six lowest cards of the kitty."""

    def __init__(self, scene: TableScene) -> None:
        super().__init__(scene.app, scene, seed=4)

    def discards(self, match: Match, seat: int) -> list:
        return sorted(a.value for a in match.view(seat).legal_actions)[:6]

    def play_on(self) -> None:
        """Answer the top scene, or let a frame pass when it asks the human nothing."""
        if not self.answer_top():
            step(self.app)

    def until(self, condition: Callable[[], bool], frames: int = 20000) -> None:
        for _ in range(frames):
            if condition():
                return
            self.play_on()
        assert condition(), "the condition never held"


def human_to_play_after(scene: TableScene, tricks: int) -> Callable[[], bool]:
    def ready() -> bool:
        assert isinstance(scene.session, LocalSession)
        return scene.app.scenes[-1] is scene and scene.input_enabled() and len(match_of(scene).view(0).tricks) >= tricks

    return ready


# --------------------------------------------------------------------------
# The last trick


def test_the_last_trick_opens_by_button_key_and_pile_and_tells_who_led_and_took_it(tmp_path):
    app = make_app(tmp_path, size=(800, 600))
    scene = start(app, "bidwhist", ["human", "ai:medium", "ai:medium", "ai:medium"], seed=21)
    pilot = Pilot(scene)
    pilot.until(human_to_play_after(scene, 3))
    record = match_of(scene).view(0).tricks[-1]

    def check_open() -> None:
        dialog = top(app, LastTrickDialog)
        assert dialog.record == record and dialog.record.plays and dialog.title == t("review.last_trick_title", n=3)
        winning_card = dict(record.plays)[record.winner]
        assert dialog.summary == t("review.summary", winner=scene.names[record.winner], card=card_words(winning_card))
        assert len(dialog.card_rects) == len(record.plays)
        assert all(dialog.panel_rect.contains(rect) for rect in dialog.card_rects)

    step(app, [key(pygame.K_l, "l")])
    check_open()
    step(app, [key(pygame.K_ESCAPE)])
    assert app.scenes[-1] is scene, "Esc closes the last trick"
    click(app, scene.last_trick_button.rect.center)
    check_open()
    step(app, [key(pygame.K_l, "l")])
    assert app.scenes[-1] is scene, "L closes it again"
    pile = scene.layout.place(record.winner).plate.center
    step(app, [mouse(pygame.MOUSEMOTION, pile)])
    assert scene._pile_hover, "the mouse over the pile rings it"
    click(app, pile)
    check_open()
    click(app, (4, app.size[1] // 2))
    assert app.scenes[-1] is scene, "a click outside the panel closes it"
    # The game waits while it is open, and goes on as before once it is closed.
    assert scene.input_enabled()


def test_the_last_trick_is_there_over_a_dialog_and_says_when_there_is_none(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:medium", "ai:medium", "ai:medium"], seed=5)
    pilot = Pilot(scene)
    pilot.until(lambda: top_name(app) in ("BiddingPanel", "ContractChooser", "KittyDialog"))
    step(app, [key(pygame.K_l, "l")])
    dialog = top(app, LastTrickDialog)
    assert dialog.record is None
    assert dialog.summary == t("review.no_trick")
    step(app, [key(pygame.K_ESCAPE)])
    assert top_name(app) in ("BiddingPanel", "ContractChooser", "KittyDialog")


def at_the_humans_kitty(app) -> TableScene:
    """A Bid Whist table whose human (seat 0) has won the contract and has the
    kitty dialog open: the first seed from 1 on where that happens."""
    for seed in range(1, 60):
        scene = start(app, "bidwhist", ["human", "ai:medium", "ai:medium", "ai:medium"], seed=seed)
        pilot = Pilot(scene)
        pilot.until(
            lambda: (
                top_name(app) == "KittyDialog"
                or (isinstance(scene.session, LocalSession) and match_of(scene).phase == Phase.PLAY)
            )
        )
        if top_name(app) == "KittyDialog":
            break
    return scene


def test_the_review_buttons_under_the_kitty_dialog_belong_to_the_dialog(tmp_path):
    app = make_app(tmp_path, size=(800, 600))
    scene = at_the_humans_kitty(app)
    dialog = top(app, KittyDialog)
    assert dialog.panel_rect.colliderect(scene.last_trick_button.rect)
    click(app, scene.last_trick_button.rect.center)
    assert app.scenes[-1] is dialog, "a click on the kitty dialog stays the dialog's"
    step(app, [key(pygame.K_l, "l")])
    assert top_name(app) == "LastTrickDialog", "L still opens the last trick"


def test_a_hot_seat_player_sees_the_trick_that_ended_behind_the_cover(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "human", "ai:random"], seed=6, rounds=3)
    pilot = Pilot(scene)
    pilot.until(lambda: top_name(app) == "CoverScene" and len(match_of(scene).view(PUBLIC_SEAT).tricks) >= 1)
    step(app, [key(pygame.K_l, "l")])
    assert top_name(app) == "CoverScene", "nothing of the table opens behind the cover"
    pass_cover(app)
    assert scene.viewer == match_of(scene).current_player
    step(app, [key(pygame.K_l, "l")])
    assert top(app, LastTrickDialog).record == match_of(scene).view(PUBLIC_SEAT).tricks[-1]


def test_the_first_cover_of_a_deal_says_a_new_hand_was_dealt(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "human", "ai:random"], seed=6, rounds=3)
    pilot = Pilot(scene)
    details = {}
    for _ in range(20000):
        if match_of(scene).deal_number > 2:
            break
        cover = app.scenes[-1]
        if isinstance(cover, CoverScene) and cover not in details:
            details[cover] = (match_of(scene).deal_number, cover.detail)
        pilot.play_on()
    by_deal: dict[int, list] = {}
    for deal, detail in details.values():
        by_deal.setdefault(deal, []).append(detail)
    assert set(by_deal) == {1, 2}
    for deal, shown in by_deal.items():
        assert shown[0] == t("cover.new_deal", deal=t("game.deal.round"), n=deal)
        assert all(detail is None for detail in shown[1:])


# --------------------------------------------------------------------------
# Marks on the trick in play


def test_the_led_card_and_the_card_winning_the_trick_are_tagged(tmp_path, monkeypatch):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:medium", "ai:medium", "ai:medium"], seed=21)
    tags: list[tuple[int, str]] = []
    original = scene.view._trick_tag

    def spy(surface, layout, seat, text, winning, stacked):
        tags.append((seat, text))
        return original(surface, layout, seat, text, winning, stacked)

    monkeypatch.setattr(scene.view, "_trick_tag", spy)
    pilot = Pilot(scene)
    checked = 0
    for tricks in range(1, 6):
        pilot.until(lambda: human_to_play_after(scene, tricks)() and len(scene.model.trick) >= 1)
        tags.clear()
        step(app)
        view = match_of(scene).view(0)
        assert view.winning_seat >= 0
        assert (view.trick[0][0], t("table.trick_led")) in tags
        assert (view.winning_seat, t("table.trick_winning")) in tags
        assert [text for _, text in tags].count(t("table.trick_winning")) == 1
        checked += 1
        pilot.play_on()
    assert checked == 5


# --------------------------------------------------------------------------
# Contract progress and the hand's result


def test_bid_whist_shows_books_needed_and_taken_for_both_sides(tmp_path):
    app = make_app(tmp_path, size=(800, 600))
    scene = start(app, "bidwhist", ["human", "ai:medium", "ai:medium", "ai:medium"], seed=21)
    pilot = Pilot(scene)
    pilot.until(human_to_play_after(scene, 4))
    view = match_of(scene).view(0)
    assert isinstance(view, BidWhistView)
    declarers = scene.game_def.team_of(view.declarer)
    need = books_needed(view.contract_books)
    lines = scene.view.progress_lines(scene.model, scene.names)
    assert len(lines) == 2
    words = [team_words([scene.names[s] for s in scene.game_def.team_members(team, 4)]) for team in (0, 1)]
    assert lines[0] == (
        t("table.progress_declarers", team=words[declarers], need=need, have=view.books[declarers]),
        theme.TEAM_COLOURS[declarers],
    )
    assert lines[1] == (
        t(
            "table.progress_defenders",
            team=words[1 - declarers],
            need=books_to_set(view.contract_books),
            have=view.books[1 - declarers],
        ),
        theme.TEAM_COLOURS[1 - declarers],
    )
    # Each book count names the team it belongs to.
    assert all(words[team] in text for team, (text, _) in zip((declarers, 1 - declarers), lines))


@pytest.mark.parametrize("seed", [21, 3, 8, 12])
def test_the_finished_hand_says_its_result_in_words_in_the_declaring_teams_colour(tmp_path, seed):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:medium", "ai:medium", "ai:medium"], seed=seed)
    pilot = Pilot(scene)
    pilot.until(lambda: top_name(app) in ("ScorePad", "EndScene"))
    scored = [e for e in match_of(scene).events if isinstance(e, BidWhistHandScored)][-1]
    # Between hands the score pad shows it; a hand that ends the game leaves it over the table.
    pad = top(app, ScorePad) if top_name(app) == "ScorePad" else None
    if scored.redeal:
        assert scene.result_line() == (t("table.result_redeal"), theme.TEXT)
        return
    team = scene.game_def.team_of(scored.declarer)
    words = team_words([scene.names[s] for s in scene.game_def.team_members(team, 4)])
    change = f"{scored.score_change[team]:+d}"
    assert scored.contract is not None
    if scored.made:
        bid_words = t(f"table.bid_{BidMode(scored.contract.mode).label}", n=scored.contract.books)
        expected = t("table.result_made", team=words, contract=bid_words, books=scored.books[team], change=change)
    else:
        short = books_needed(scored.contract.books) - scored.books[team]
        assert short > 0
        expected = t("table.result_set", team=words, short=short, change=change)
    assert scene.result_line() == (expected, theme.TEAM_COLOURS[team])
    # The progress panel has the last word too: made it, or went down.
    need = books_needed(scored.contract.books)
    progress = scene.view.progress_lines(scene.model, scene.names)[0][0]
    key_made = "table.progress_made" if scored.made else "table.progress_down"
    assert progress == t(key_made, team=words, need=need, have=scored.books[team])
    if pad is not None:
        assert pad.result == (expected, theme.TEAM_COLOURS[team])
        # The pad's change column too: the declaring team's colour, never a colour of the other team.
        change_cell = pad.rows[-1].cells[5]
        assert change_cell.text == change and change_cell.colour == theme.TEAM_COLOURS[team]
        # Its books say whose they are: the declaring team's, against what the contract needed.
        books_cell = pad.rows[-1].cells[4]
        assert books_cell.text == t(
            "pad.books_needed", books=scored.books[team], need=books_needed(scored.contract.books)
        )
        assert books_cell.colour == theme.TEAM_COLOURS[team]


def test_wizard_plates_and_the_table_show_bids_against_tricks(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:medium", "ai:medium", "ai:medium"], seed=5)
    pilot = Pilot(scene)
    seen: set[str] = set()
    for _ in range(60000):
        if seen == {"over", "under"} or match_of(scene).is_over:
            break
        pilot.play_on()
        if match_of(scene).phase != Phase.PLAY or not scene.director.idle:
            continue
        view = match_of(scene).view(0)
        assert isinstance(view, WizardView)
        bids, tricks = sum(view.predictions), view.tricks_per_hand
        lines = [text for text, _ in scene.view.progress_lines(scene.model, scene.names)]
        assert lines[0] == t("table.round_bids", bids=bids, n=tricks)
        if bids > tricks:
            assert lines[1] == t("table.round_over", n=bids - tricks)
            seen.add("over")
        elif bids < tricks:
            assert lines[1] == t("table.round_under", n=tricks - bids)
            seen.add("under")
        for seat in range(4):
            plate = scene.view._plate_line(scene.model, seat)
            assert t("table.plate_bid", n=view.predictions[seat]) in plate
            assert t("table.won", n=scene.model.tricks_won[seat]) in plate
    assert seen == {"over", "under"}


# --------------------------------------------------------------------------
# Labels


def _bid_four_no_trump_at_seat_0(match: Match) -> None:
    """Seat 0 bids 4 no trump and the others pass, while the bidding lets them."""
    while match.phase != Phase.BID:
        match.apply(match.legal_actions()[0])
    while match.phase == Phase.BID:
        seat = match.current_player
        action = bid(4, BidMode.NOTRUMP) if seat == 0 else PASS
        if action not in match.legal_actions():
            break
        match.apply(action)


def _declarer_choosing_no_trump(tmp_path, size=(800, 600)):
    """A table where seat 0 (the human) has won the bidding with 4 no trump and is to choose the ranking."""
    app = make_app(tmp_path, size=size)
    rules = make_rules("bidwhist", {}, players=4)
    for seed in range(1, 200):
        match = Match(
            rules,
            [Seat(n, c) for n, c in zip(["Ann", "Ben", "Cy", "Dee"], ["human", "ai:medium", "ai:medium", "ai:medium"])],
            seed,
        )
        _bid_four_no_trump_at_seat_0(match)
        if match.phase == Phase.CONTRACT and match.current_player == 0:
            scene = TableScene(app, local_session(match, app, ai_runner=InlineAiRunner()))
            app.replace(scene)
            return app, scene
    raise AssertionError("no seed lets seat 0 declare no trump")


def test_the_contract_panel_names_no_ranking_before_the_declarer_chooses_one(tmp_path):
    app, scene = _declarer_choosing_no_trump(tmp_path)
    for _ in range(5):
        step(app)
    assert top_name(app) == "ContractChooser"
    lines, _ = scene.view._contract_indicator(scene.model, scene.names)
    texts = [text for _, text in lines]
    # "4 no trump" and who is choosing (Ann, at the screen, is told in her own words);
    # no ranking named before it is chosen.
    assert texts[1:] == [t("table.contract_nt_pending", n=4), t("table.you_choose_direction")]
    assert t("mode.0.sentence") not in texts[1] and t("mode.1.sentence") not in texts[1]
    # Chosen: now the panel says which.
    chooser = top(app, ContractChooser)
    choice = [a for a in match_of(scene).legal_actions() if a.value == 1][0]
    chooser.finish(chooser.on_action, choice)
    for _ in range(5):
        step(app)
    texts = [text for _, text in scene.view._contract_indicator(scene.model, scene.names)[0]]
    assert t("table.contract_nt", n=4, direction=t("mode.1.sentence")) in texts


# --------------------------------------------------------------------------
# Flow: the turn glow, the score pop-ups


def test_the_turn_glow_leaves_the_last_player_while_the_trick_is_collected(tmp_path):
    app = make_app(tmp_path, speed="normal")
    scene = start(app, "bidwhist", ["ai:medium"] * 4, seed=21)
    held = 0
    for _ in range(6000):
        step(app, dt=1 / 30)
        if scene.model.trick_winner >= 0:
            held += 1
            assert scene.model.turn == -1, "the last player's plate still glows while the trick is collected"
        if len(match_of(scene).view(PUBLIC_SEAT).tricks) >= 4:
            break
    assert held > 10


@pytest.mark.parametrize(
    "game, players, size",
    [("wizard", 6, (800, 600)), ("wizard", 5, (1280, 720)), ("wizard", 4, (800, 600)), ("bidwhist", 4, (800, 600))],
)
def test_score_pop_ups_never_rise_over_the_scores_panel(tmp_path, game, players, size):
    app = make_app(tmp_path, speed="fast", size=size)
    overrides = {"rounds": 3} if game == "wizard" else {"target_score": 3}
    scene = start(app, game, ["ai:random"] * players, seed=7, **overrides)
    score_rect = scene.layout.score_rect
    seen = 0
    for _ in range(20000):
        step(app, dt=1 / 20)
        for floater in scene.model.floaters:
            seen += 1
            image = scene.view.text.render(floater.text, floater.size, floater.colour, bold=True)
            rect = image.get_rect(center=(round(floater.x), round(floater.y)))
            assert not rect.colliderect(score_rect), (floater.text, rect, score_rect)
            assert not rect.colliderect(scene.layout.pad_button)
        if top_name(app) == "EndScene" or match_of(scene).is_over and not scene.model.floaters and seen:
            break
    assert seen > 0
    assert FLOATER_RISE > 0


# --------------------------------------------------------------------------
# The hand log


def test_the_hand_log_tells_the_hand_from_the_seats_own_events(tmp_path):
    app = make_app(tmp_path, size=(800, 600))
    scene = start(app, "bidwhist", ["human", "ai:medium", "ai:medium", "ai:medium"], seed=21)
    pilot = Pilot(scene)
    pilot.until(human_to_play_after(scene, 3))
    lines = [line.text for line in scene.hand_log_lines()]
    view = match_of(scene).view(0)
    assert isinstance(view, BidWhistView)
    dealer = scene.names[view.dealer]
    assert lines[0] == t("log.dealt", deal=t("game.deal.hand"), n=view.deal_number, name=dealer)
    for number, record in enumerate(view.tricks, start=1):
        card = card_words(dict(record.plays)[record.winner])
        assert t("log.trick", name=scene.names[record.winner], n=number, card=card) in lines
    assert any(t("log.contract", name=scene.names[view.declarer], contract="").rstrip() in line for line in lines)
    # The discards are counted, never named.
    declarer = scene.names[view.declarer]
    assert t("log.discarded", name=declarer, count=6) in lines or view.declarer == 0
    click(app, scene.log_button.rect.center)
    dialog = top(app, HandLogDialog)
    assert pygame.Rect(0, 0, 800, 600).contains(dialog.panel_rect)
    assert dialog.visible_lines()[-1].text == lines[-1], "the log opens at its latest line"
    if dialog.last_first > 0:
        step(app, [pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=3, flipped=False)])
        assert dialog.first < dialog.last_first, "the wheel scrolls the log back"
    step(app, [key(pygame.K_ESCAPE)])
    assert app.scenes[-1] is scene


def test_the_hand_log_ends_a_wizard_round_with_each_players_score(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:medium", "ai:medium"], seed=9, rounds=3)
    pilot = Pilot(scene)
    pilot.until(lambda: top_name(app) == "ScorePad" and match_of(scene).deal_number == 2)
    deal = match_of(scene).history()["deals"][-1]
    lines = [line.text for line in scene.hand_log_lines()]
    bids = {entry["seat"]: entry["bid"] for entry in deal["bids"]}
    for seat in range(3):
        assert (
            t(
                "log.prediction_scored",
                name=scene.names[seat],
                bid=bids[seat],
                took=deal["tricks_won"][seat],
                change=f"{deal['score_change'][seat]:+d}",
            )
            in lines
        )


def test_the_hand_log_never_tells_a_hidden_bid(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "human", "ai:random"], seed=13, bidding="hidden", rounds=3)
    pilot = Pilot(scene)
    checked = 0
    for _ in range(20000):
        if match_of(scene).deal_number > 2 or match_of(scene).is_over:
            break
        pilot.play_on()
        if match_of(scene).phase != Phase.PREDICT:
            continue
        lines = [line.text for line in scene.hand_log_lines()]
        for seat, action in match_of(scene).view(PUBLIC_SEAT).actions:
            if seat == scene.viewer or (action is not None and action.kind != ActionKind.PREDICT):
                continue
            assert t("log.bid_placed", name=scene.names[seat]) in lines
            assert not any(line.startswith(t("log.bid", name=scene.names[seat], bid="")) for line in lines)
            checked += 1
    assert checked > 0


def test_the_log_button_and_last_trick_button_stay_clear_of_plates_and_the_hand():
    from game.ui.table.layout import compute_layout, hand_positions

    for players in (3, 4, 5, 6):
        for size in ((800, 600), (1280, 720), (1920, 1080), (1024, 1366), (3000, 700)):
            layout = compute_layout(size, players, 0)
            screen = pygame.Rect(0, 0, layout.width, layout.height)
            buttons = (layout.last_trick_button, layout.log_button)
            hand_top = min(rect.top for rect, _ in hand_positions(layout, 18, set(range(18))))
            for button in buttons:
                assert screen.contains(button)
                assert button.bottom < hand_top
                assert not button.colliderect(layout.score_rect)
                for seat in range(players):
                    assert not button.colliderect(layout.place(seat).plate), (players, size, seat)
            assert not layout.progress_rect.colliderect(layout.indicator_rect)
            for seat in range(players):
                assert not layout.place(seat).plate.colliderect(layout.progress_rect), (players, size, seat)


def test_the_undo_button_under_the_kitty_dialog_is_neither_drawn_nor_clicked(tmp_path, monkeypatch):
    # At 1280x720 the kitty dialog's panel reaches over the Undo button: the
    # button must not be drawn over the dialog, and a click there is the dialog's.
    app = make_app(tmp_path, size=(1280, 720))
    scene = at_the_humans_kitty(app)
    dialog = top(app, KittyDialog)
    assert scene.undo_button.visible
    assert dialog.panel_rect.colliderect(scene.undo_button.rect)
    drawn = []
    monkeypatch.setattr(scene.undo_button, "draw", lambda surface: drawn.append(surface))
    step(app, [])
    assert drawn == [], "the Undo button is drawn over the kitty dialog"
    actions = list(match_of(scene).actions)
    click(app, scene.undo_button.rect.center)
    assert app.scenes[-1] is dialog and list(match_of(scene).actions) == actions
