"""Looking back over a hand at the table (issue 24, item 7), driven headless through the real app.

* between hands, the score pad offers "Review hands" (its button, or R) at a
  table where one person plays against the computers, and it shows every
  seat's true hand as dealt, the kitty and the declarer's discards; hot seat
  never offers it;
* the Last trick view pages back through every trick of the hand (Left and
  Right, Home and End, its Previous and Next buttons).
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import random

import pygame

from game.session.match import Match, Seat
from game.rules import Phase, make_rules
from game.rules.events import Dealt, Discarded
from game.rules.view import WizardView
from game.ui.text import t
from game.session.ai_worker import InlineAiRunner
from game.session.local import local_session
from game.ui.dialogs.end_scene import EndScene
from game.ui.dialogs.hands_review import HandsReviewDialog
from game.ui.dialogs.score_pad import ScorePad
from game.ui.table.review import LastTrickDialog
from game.ui.table.scene import TableScene
from scene_checks import match_of, top
from test_ui_table import click, key, make_app, start, step, top_name
from test_ui_table_review import Pilot, human_to_play_after


def _table_at_hand_end(app, game: str, controllers: list[str], seed: int, **rules) -> TableScene:
    """A table opened on a game whose first hand was played out (random legal moves) just now."""
    names = ["Ann", "Ben", "Cy", "Dee"][: len(controllers)]
    match = Match(
        make_rules(game, rules, players=len(controllers)),
        [Seat(name, kind) for name, kind in zip(names, controllers)],
        seed,
    )
    rng = random.Random(seed)
    while match.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        legal = match.legal_actions()
        # The lowest bid (or a pass), so the first hand does not end the game; any card.
        match.apply(legal[0] if match.phase in (Phase.BID, Phase.PREDICT) else rng.choice(legal))
    assert match.phase == Phase.HAND_OVER, "the seed must not end the game in its first hand"
    scene = TableScene(app, local_session(match, app, ai_runner=InlineAiRunner()))
    app.replace(scene)
    return scene


def _deal_events(match) -> list:
    begin = max(index for index, event in enumerate(match.events) if isinstance(event, Dealt))
    return match.events[begin:]


def test_review_hands_opens_from_the_score_pad_and_shows_the_true_hands(tmp_path):
    app = make_app(tmp_path, size=(800, 600))
    scene = _table_at_hand_end(app, "bidwhist", ["human", "ai:medium", "ai:medium", "ai:medium"], seed=22)
    Pilot(scene).until(lambda: top_name(app) == "ScorePad")
    pad = top(app, ScorePad)
    assert pad.review_button.visible and pad.review_button in pad.focus.widgets
    step(app, [key(pygame.K_r, "r")])
    dialog = top(app, HandsReviewDialog)
    events = _deal_events(match_of(scene))
    dealt = events[0]
    assert [sorted(dialog.hand.hands[seat]) for seat in range(4)] == [sorted(hand) for hand in dealt.hands]
    assert dialog.hand.kitty == dealt.kitty
    assert dialog.hand.discards == tuple(e.card for e in events if isinstance(e, Discarded))
    # Every card of every hand is laid out inside the panel, apart from the others' rows.
    for seat in range(4):
        assert sorted(dialog.sorted_hands[seat]) == sorted(dealt.hands[seat])
        assert len(dialog.card_rects[seat]) == 12
        assert all(dialog.panel_rect.contains(rect) for rect in dialog.card_rects[seat])
    placed = [card for _, _, cards in dialog.apart_rects for card, _ in cards]
    assert sorted(placed) == sorted(dealt.kitty + dialog.hand.discards)
    assert all(dialog.panel_rect.contains(rect) for _, _, cards in dialog.apart_rects for _, rect in cards)
    assert dialog.seats[0] == 0, "the player's own hand comes first"
    step(app, [key(pygame.K_ESCAPE)])
    assert app.scenes[-1] is pad, "Esc goes back to the score pad, which still deals the next hand"
    click(app, pad.review_button.rect.center)
    click(app, top(app, HandsReviewDialog).close_button.rect.center)
    assert app.scenes[-1] is pad
    step(app, [key(pygame.K_ESCAPE)])
    assert app.scenes[-1] is scene, "Esc puts the pad away without dealing"
    step(app, [key(pygame.K_s, "s")])
    assert top(app, ScorePad).review_button.visible, "S brings it back with Review"
    step(app, [key(pygame.K_ESCAPE)])
    step(app)
    step(app, [key(pygame.K_SPACE, " ")])
    assert match_of(scene).deal_number == 2
    step(app, [key(pygame.K_s, "s")])
    assert not top(app, ScorePad).review_button.visible, "not while a hand is played"


def test_review_hands_in_wizard_shows_the_turned_up_card(tmp_path):
    app = make_app(tmp_path)
    scene = _table_at_hand_end(app, "wizard", ["human", "ai:random", "ai:random"], seed=4, rounds=3)
    Pilot(scene).until(lambda: top_name(app) == "ScorePad")
    top(app, ScorePad).review_button.activate()
    dialog = top(app, HandsReviewDialog)
    dealt = _deal_events(match_of(scene))[0]
    assert [sorted(hand) for hand in dialog.hand.hands] == [sorted(hand) for hand in dealt.hands]
    yours = match_of(scene).view(0)
    assert isinstance(yours, WizardView)
    turn_up = yours.turn_up
    groups = [[card for card, _ in cards] for _, _, cards in dialog.apart_rects]
    assert groups == ([[turn_up]] if turn_up >= 0 else [])


def test_hot_seat_never_offers_the_hands_review(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "human"], seed=11, rounds=3)
    pilot = Pilot(scene)
    pilot.until(lambda: top_name(app) == "ScorePad")
    pad = top(app, ScorePad)
    assert not pad.review_button.visible and match_of(scene).finished_hand() is not None
    step(app, [key(pygame.K_r, "r")])
    assert app.scenes[-1] is pad
    scene.open_hand_review()
    assert app.scenes[-1] is pad, "the table itself refuses it in hot seat"


def test_the_last_trick_pages_through_every_trick_of_the_hand(tmp_path):
    app = make_app(tmp_path, size=(800, 600))
    scene = start(app, "bidwhist", ["human", "ai:medium", "ai:medium", "ai:medium"], seed=21)
    pilot = Pilot(scene)
    pilot.until(human_to_play_after(scene, 3))
    tricks = match_of(scene).view(0).tricks
    count = len(tricks)
    step(app, [key(pygame.K_l, "l")])
    dialog = top(app, LastTrickDialog)
    assert dialog.record == tricks[-1] and dialog.title == t("review.last_trick_title", n=count)
    assert not dialog.next_button.enabled and dialog.previous_button.enabled
    step(app, [key(pygame.K_LEFT)])
    assert dialog.record == tricks[-2] and dialog.number == count - 1
    assert dialog.title == t("review.trick_title", n=count - 1, total=count)
    assert scene.names[tricks[-2].winner] in dialog.summary
    step(app, [key(pygame.K_HOME)])
    assert dialog.record == tricks[0] and not dialog.previous_button.enabled
    step(app, [key(pygame.K_LEFT)])
    assert dialog.record == tricks[0], "the first trick is as far back as it goes"
    click(app, dialog.next_button.rect.center)
    assert dialog.record == tricks[1]
    click(app, dialog.previous_button.rect.center)
    assert dialog.record == tricks[0]
    step(app, [key(pygame.K_END)])
    assert dialog.record == tricks[-1]
    step(app, [key(pygame.K_RIGHT)])
    assert dialog.record == tricks[-1]
    for button in (dialog.previous_button, dialog.close_button, dialog.next_button):
        assert dialog.panel_rect.contains(button.rect)
    assert not dialog.previous_button.rect.colliderect(dialog.close_button.rect)
    assert not dialog.next_button.rect.colliderect(dialog.close_button.rect)
    step(app, [key(pygame.K_ESCAPE)])
    assert app.scenes[-1] is scene and scene.input_enabled()


def test_the_end_screens_score_pad_reviews_the_last_hand(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], seed=3, rounds=1)
    Pilot(scene).until(lambda: top_name(app) == "EndScene")
    click(app, top(app, EndScene).pad.rect.center)
    pad = top(app, ScorePad)
    assert pad.review_button.visible
    step(app, [key(pygame.K_r, "r")])
    dealt = _deal_events(match_of(scene))[0]
    assert [sorted(hand) for hand in top(app, HandsReviewDialog).hand.hands] == [sorted(hand) for hand in dealt.hands]
