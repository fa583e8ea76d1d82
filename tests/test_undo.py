"""Undo (issue 10, item 2): one human against computers takes back moves.

The human's last card or bid of the hand goes back together with the
computers' replies after it, again and again back to the start of the hand
and never past the deal; the position after an undo is exactly the one
before the move (every seat's view and the record are equal). The table
offers it with a button, U and Ctrl+Z, only with one human and while the
setting is on; a game where undo was used says so in its save and its hand
history.
"""

from __future__ import annotations

import json
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from typing import Any

import pygame

from game.persistence.history_files import write_history
from game.persistence.history_reader import read_history
from game.rules import ActionKind, Phase, make_rules
from game.rules.tricks import PUBLIC_SEAT
from game.session.local import LocalSession
from game.session.match import Match, Seat
from game.settings.app_settings import Settings, load_settings
from game.ui.app import App
from game.ui.scenes.settings_scene import SettingsScene
from game.ui.table.scene import TableScene
from game.ui.text import t
from scene_checks import autosaver, match_of
from test_ui_table import (
    _to_human_play,
    click,
    human_can_play,
    key,
    legal_cards,
    run_until,
    start,
    step,
    top_name,
)

COMPUTERS = ["ai:medium", "ai:medium", "ai:medium"]


def position(match: Match) -> tuple[Any, ...]:
    """Everything a position is: what every seat and an onlooker see, the record, the actions."""
    history = json.loads(json.dumps({k: v for k, v in match.history().items() if k != "undo_used"}))
    return (tuple(match.view(seat) for seat in [PUBLIC_SEAT, *range(match.num_players)]), history, list(match.actions))


def computers_reply(match: Match) -> None:
    """Computers act until the human is to act or the hand is over."""
    while match.phase not in (Phase.HAND_OVER, Phase.GAME_OVER) and not match.is_human_turn():
        match.apply(match.choose_ai_action())


def take_one_step(match: Match) -> None:
    """The next move, as a quick test plays it: the next deal after a hand, the human's first
    legal move, else the computer's choice."""
    if match.phase == Phase.HAND_OVER:
        match.next_deal()
    elif match.is_human_turn():
        match.apply(match.legal_actions()[0])
    else:
        match.apply(match.choose_ai_action())


def wizard_match(seed: int = 11) -> Match:
    match = Match(
        make_rules("wizard", players=4),
        [Seat("You"), *(Seat(n, c) for n, c in zip(("Ada", "Bruno", "Cleo"), COMPUTERS))],
        seed,
    )
    # On to the third round (three cards each), the human to act.
    while match.deal_number < 3 or match.phase == Phase.HAND_OVER:
        take_one_step(match)
    computers_reply(match)
    return match


# ---------------------------------------------------------------------------- the match


def test_undo_restores_each_earlier_position_of_the_hand_and_stops_at_the_deal():
    match = wizard_match()
    hand_start = match.hand_start()
    assert match.undo_point(0) is None, "nothing of this hand is the human's yet"
    before = []
    for _ in range(3):  # the bid and two cards
        assert match.is_human_turn()
        before.append(position(match))
        match.apply(match.legal_actions()[-1], 0)
        computers_reply(match)
    assert match.phase not in (Phase.HAND_OVER, Phase.GAME_OVER)
    for earlier in reversed(before):
        assert match.undo(0)
        assert position(match) == earlier
    # Back at the human's first decision of the hand: no further, the deal stays.
    assert not match.undo(0) and match.undo_point(0) is None
    assert match.hand_start() == hand_start and match.deal_number == 3 and len(match.actions) >= hand_start


def test_after_an_undo_the_computers_reply_as_they_did():
    match = wizard_match(seed=12)
    match.apply(match.legal_actions()[0], 0)
    computers_reply(match)
    once = position(match)
    match.undo(0)
    match.apply(match.legal_actions()[0], 0)
    computers_reply(match)
    assert position(match) == once


def test_a_finished_hand_is_not_taken_back():
    match = wizard_match(seed=13)
    while match.phase != Phase.HAND_OVER:
        match.apply(match.legal_actions()[0] if match.is_human_turn() else match.choose_ai_action())
    assert match.undo_point(0) is None and not match.undo(0)
    match.next_deal()
    computers_reply(match)
    assert match.undo_point(0) is None, "the new hand has no decision of the human yet"


def test_the_kitty_is_taken_back_as_a_whole_then_the_trump():
    for seed in range(60):
        match = Match(
            make_rules("bidwhist", players=4),
            [Seat("You"), *(Seat(n, c) for n, c in zip(("Ada", "Bruno", "Cleo"), COMPUTERS))],
            seed,
        )
        computers_reply(match)
        if not match.is_human_turn():
            continue
        bids = [a for a in match.legal_actions() if a.kind == ActionKind.BID]
        match.apply(max(bids, key=lambda a: (a.value, a.mode)), 0)
        computers_reply(match)
        if match.is_human_turn() and match.phase in (Phase.CONTRACT, Phase.TRUMP_CHOICE):
            break
    else:
        raise AssertionError("no seed made the human the declarer")
    before_trump = position(match)
    match.apply(match.legal_actions()[0], 0)
    assert match.phase == Phase.DISCARD
    before_kitty = position(match)
    for _ in range(6):
        match.apply(match.legal_actions()[0], 0)
    assert match.phase != Phase.DISCARD
    assert match.undo(0) and position(match) == before_kitty
    assert match.undo(0) and position(match) == before_trump


def test_undo_marks_the_game_in_its_save_and_its_history(tmp_path):
    match = wizard_match(seed=14)
    assert "undo_used" not in match.history() and match.to_save()["undo_used"] is False
    match.apply(match.legal_actions()[0], 0)
    match.undo(0)
    assert match.history()["undo_used"] is True and match.to_save()["undo_used"] is True
    resumed = Match.from_save(match.to_save())
    assert resumed.undo_used and resumed.history()["undo_used"] is True
    while not resumed.is_over:
        if resumed.phase == Phase.HAND_OVER:
            resumed.next_deal()
        else:
            resumed.apply(resumed.legal_actions()[0] if resumed.is_human_turn() else resumed.choose_ai_action())
    path = tmp_path / "wizard.jsonl"
    write_history(path, [resumed.history()])
    (record,) = read_history(path)
    assert record["undo_used"] is True and record["complete"] is True


# ---------------------------------------------------------------------------- the table


def make_app(tmp_path, **settings: Any) -> App:
    return App(
        data_dir=str(tmp_path),
        size=(1280, 720),
        settings=Settings(animation_speed="instant", ai_pause_seconds=0.0, **settings),
    )


def one_human_table(app: App) -> TableScene:
    scene = start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=5)
    _to_human_play(app, scene)
    return scene


def play_and_wait(app: App, scene: TableScene) -> None:
    """The human plays a card; the computers answer until the human may play again."""
    scene.play_card(min(legal_cards(scene)), None)
    assert run_until(app, lambda: human_can_play(scene))


def assert_shows_position(scene: TableScene, view) -> None:
    """The match is back at ``view`` and the table shows it at once (nothing left to animate)."""
    session = scene.session
    assert isinstance(session, LocalSession)
    assert session.match.view(0) == view
    assert scene.director.idle
    assert sorted(scene.model.hands[0]) == sorted(view.hand)
    assert scene.model.trick == list(view.trick)


def test_the_undo_button_takes_back_the_card_and_the_replies(tmp_path):
    app = make_app(tmp_path)
    scene = one_human_table(app)
    assert scene.undo_button.visible
    view, actions = match_of(scene).view(0), len(match_of(scene).actions)
    play_and_wait(app, scene)
    assert len(match_of(scene).actions) > actions
    click(app, scene.undo_button.rect.center)
    assert_shows_position(scene, view)
    assert len(match_of(scene).actions) == actions and top_name(app) == "TableScene"
    assert scene.message == t("undo.done")
    step(app)
    assert human_can_play(scene), "the human plays again"
    saves = autosaver(app)
    assert saves.flush()
    assert saves.path.exists() and '"undo_used":true' in saves.path.read_text("utf-8")


def test_u_and_ctrl_z_undo_again_and_again_within_the_hand(tmp_path):
    app = make_app(tmp_path)
    scene = one_human_table(app)
    first = match_of(scene).view(0)
    play_and_wait(app, scene)
    second = match_of(scene).view(0)
    play_and_wait(app, scene)
    step(app, [key(pygame.K_u, "u")])
    assert_shows_position(scene, second)
    step(app, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=pygame.KMOD_LCTRL, unicode="\x1a", scancode=0)])
    assert_shows_position(scene, first)
    assert match_of(scene).history()["undo_used"] is True


def test_undo_with_nothing_to_take_back_says_so(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], seed=4, rounds=2)
    run_until(app, lambda: top_name(app) == "BiddingPanel")
    actions = len(match_of(scene).actions)
    assert not scene.undo_allowed()
    step(app, [key(pygame.K_u, "u")])
    assert len(match_of(scene).actions) == actions
    assert scene.message == t("undo.nothing")


def test_hot_seat_has_no_undo(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "human", "ai:random", "ai:random"], seed=5)
    step(app)
    assert not scene.undo_offered and not scene.undo_button.visible
    # A human's decision is on the record; still nothing can take it back.
    while not match_of(scene).actions or match_of(scene).actions[-1][0] not in scene.humans:
        match_of(scene).apply(match_of(scene).legal_actions()[0])
    actions = list(match_of(scene).actions)
    scene.request_undo()
    step(app, [key(pygame.K_u, "u")])
    step(app, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=pygame.KMOD_CTRL, unicode="", scancode=0)])
    assert match_of(scene).actions == actions and not match_of(scene).undo_used


def test_the_setting_turns_undo_off(tmp_path):
    app = make_app(tmp_path, undo=False)
    scene = one_human_table(app)
    assert not scene.undo_offered and not scene.undo_button.visible
    play_and_wait(app, scene)
    actions = list(match_of(scene).actions)
    step(app, [key(pygame.K_u, "u")])
    click(app, scene.undo_button.rect.center)
    assert match_of(scene).actions == actions and not match_of(scene).undo_used


def test_undo_is_a_setting_on_the_settings_screen_and_in_the_file(tmp_path):
    app = make_app(tmp_path)
    scene = one_human_table(app)
    assert app.settings.undo and scene.undo_button.visible
    app.push(SettingsScene(app))
    settings = app.scenes[-1]
    assert isinstance(settings, SettingsScene)
    click(app, settings.undo.rect.center)
    click(app, settings.save_button.rect.center)
    assert app.settings.undo is False and not scene.undo_button.visible
    loaded, warning = load_settings(app.user_paths)
    assert warning is None and loaded.undo is False
    assert Settings().undo is True, "on unless turned off"
