"""Claims and forced cards at the table (issue 24, item 7).

A human on lead whose every card is sure to win (the rules decide,
``GameDef.claimable``) is offered **Claim the rest** (or C); the claim is told
to the whole table (a banner, the hand log) and the tricks left are played out
quickly as ordinary plays, so the hand history replays and checks as any other.
A human who may play only one card has it played for them after a short
pause when the setting ``auto_play`` is on (the default), and never before a
hot-seat player has passed their cover.

The tables are real ``App`` frames on SDL's dummy driver (see ``test_ui_table``);
the games are taken to the wanted position headlessly first, with random
computer players and the human playing its first legal card.
"""

from __future__ import annotations

import io
import json
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from typing import Any
from collections.abc import Callable

import pygame
import pytest

from game.persistence import replay_check
from game.settings.app_settings import Settings, load_settings
from game.persistence.history_files import write_history
from game.session.match import Match, Seat
from game.rules import IllegalActionError, Phase, make_rules
from game.rules.events import ClaimMade
from game.ui.app import App
from game.ui.dialogs.cover_scene import CoverScene
from game.ui.scenes.settings_scene import SettingsScene
from game.session.ai_worker import InlineAiRunner
from game.session.local import local_session
from game.ui.table.scene import TableScene
from game.ui.text import explain, t
from test_ui_table import click, key, run_until, step, top_name
from test_undo import take_one_step

NAMES = ["Ann", "Ben", "Cy", "Dee"]


def make_app(tmp_path, **settings: Any) -> App:
    return App(
        data_dir=str(tmp_path),
        size=(1280, 720),
        settings=Settings(animation_speed="instant", ai_pause_seconds=0.0, **settings),
    )


def drive_to(
    game: str, humans: int, wanted: Callable[[Match], bool], seeds: range = range(1, 60), humans_only: bool = True
) -> Match:
    """A match (seats 0 .. humans-1 human, the rest random computers) taken by first legal
    human moves and computer moves to the first position where ``wanted`` holds (on a
    human's turn, unless not ``humans_only``)."""
    for seed in seeds:
        controllers = ["human"] * humans + ["ai:random"] * (4 - humans)
        rules = make_rules(game, {"rounds": 4} if game == "wizard" else {}, players=4)
        match = Match(rules, [Seat(n, c) for n, c in zip(NAMES, controllers)], seed)
        while not match.is_over:
            if (
                match.phase not in (Phase.HAND_OVER, Phase.GAME_OVER)
                and (match.is_human_turn() or not humans_only)
                and wanted(match)
            ):
                return match
            take_one_step(match)
    raise AssertionError("no seed reached the wanted position")


def table(app: App, match: Match) -> TableScene:
    scene = TableScene(app, local_session(match, app, ai_runner=InlineAiRunner()))
    app.replace(scene)
    step(app)
    return scene


def claim_position(match: Match) -> bool:
    seat = match.current_player
    return match.phase == Phase.PLAY and len(match.view(seat).hand) > 1 and match.can_claim(seat)


def forced_position(match: Match) -> bool:
    return match.phase == Phase.PLAY and len(match.legal_actions()) == 1


def plain_position(match: Match) -> bool:
    """The human to play, with a choice of cards and no claim."""
    return match.phase == Phase.PLAY and len(match.legal_actions()) > 1 and not match.can_claim(match.current_player)


# ---------------------------------------------------------------------------- claims


def test_a_claim_is_offered_told_to_the_table_and_played_out(tmp_path):
    app = make_app(tmp_path)
    match = drive_to("bidwhist", 1, claim_position)
    scene = table(app, match)
    assert scene.claim_allowed() and scene.claim_button.visible
    left = len(match.view(0).hand)
    won_before = match.view(0).tricks_won[0]
    actions_before = len(match.actions)
    click(app, scene.claim_button.rect.center)
    # Told to everyone: the claim is public (every seat's events hold it) and in the hand log.
    claim = [event for event in match.events if isinstance(event, ClaimMade)]
    assert claim == [ClaimMade(0, left)]
    assert match.events_for(claim, 1) == claim
    # Played out as ordinary plays: the claimant took every trick left, and the hand is over.
    assert match.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    assert match.view(0).tricks_won[0] == won_before + left
    assert len(match.actions) == actions_before + 4 * left
    assert any(line.text == t("log.claim", name="Ann", n=left) for line in scene.hand_log_lines())
    assert run_until(app, lambda: scene.director.idle)
    assert scene.model.banner is None, "the banner comes down with the hand's score"
    # The save and the hand history hold nothing new: they replay and check as any game.
    assert Match.from_save(json.loads(json.dumps(match.to_save()))).actions == match.actions
    path = tmp_path / "claimed.jsonl"
    write_history(path, [match.history()])
    out = io.StringIO()
    assert replay_check.run_check([str(path)], out, io.StringIO()) == 0, out.getvalue()


def test_c_claims_and_the_claim_goes_at_a_quick_pace(tmp_path):
    app = make_app(tmp_path)
    app.settings.animation_speed = "normal"
    match = drive_to("wizard", 1, claim_position)
    scene = table(app, match)
    assert run_until(app, lambda: scene.director.idle)
    left = len(match.view(0).hand)
    step(app, [key(pygame.K_c, "c")])
    assert match.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    # The claim is said over the table while its tricks are played out...
    assert scene.model.banner == t("table.claim_banner", name="Ann", n=left)
    run_until(app, lambda: bool(scene.model.trick), frames=50, dt=0.1)
    assert scene.model.banner == t("table.claim_banner", name="Ann", n=left)
    seconds = 0.0
    while not scene.director.idle:
        step(app, dt=0.1)
        seconds += 0.1
    # A normal trick takes its flights (4 x 0.34 s), its hold (0.75 s) and its sweep (0.45 s);
    # the claimed ones go at about a third of that, after the banner's 1.2 s.
    usual = left * (4 * 0.34 + 0.75 + 0.45)
    assert seconds < 0.5 * usual + 2.5, (seconds, usual)
    assert scene.model.banner is None, "...and comes down with the round's score"


def test_no_claim_is_offered_when_a_card_may_lose(tmp_path):
    app = make_app(tmp_path)
    match = drive_to("bidwhist", 1, plain_position)
    scene = table(app, match)
    assert scene.input_enabled()
    assert not scene.claim_allowed() and not scene.claim_button.visible
    actions = list(match.actions)
    step(app, [key(pygame.K_c, "c")])
    scene.request_claim()
    assert match.actions == actions
    assert not any(isinstance(event, ClaimMade) for event in match.events)


def test_the_match_refuses_a_claim_the_rules_do_not_allow():
    match = drive_to("bidwhist", 1, plain_position)
    actions = list(match.actions)
    with pytest.raises(IllegalActionError) as refused:
        match.claim(0)
    assert refused.value.code == "claim_refused" and match.actions == actions
    assert explain(refused.value) == t("error.claim_refused")


def test_hot_seat_offers_the_claim_only_behind_the_claimants_cover(tmp_path):
    app = make_app(tmp_path)
    match = drive_to("bidwhist", 2, lambda m: claim_position(m) and m.current_player == 0)
    scene = table(app, match)
    assert top_name(app) == "CoverScene"
    assert not scene.claim_allowed()
    _pass_cover(app)
    assert scene.viewer == 0 and scene.claim_allowed()
    scene.request_claim()
    assert match.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    # The claimant has acted: the screen is nobody's again.
    assert scene.viewer not in scene.humans


def _pass_cover(app: App) -> None:
    """The player at the screen passes the "Pass to ..." cover (its button, pressed on purpose)."""
    cover = app.scenes[-1]
    assert isinstance(cover, CoverScene)
    cover.reveal()
    step(app)


# ---------------------------------------------------------------------------- forced cards


def test_a_forced_card_plays_itself_after_a_visible_pause(tmp_path):
    app = make_app(tmp_path)
    match = drive_to("bidwhist", 1, forced_position)
    scene = table(app, match)
    (only,) = {action.value for action in match.legal_actions()}
    assert scene.input_enabled()
    played = len(match.actions)
    run_until(app, lambda: False, frames=12)  # 0.2 s: still in the hand, to be seen
    assert len(match.actions) == played and only in match.view(0).hand
    assert scene.wake_in() == 0.0, "the table keeps its frames while the card waits to go"
    run_until(app, lambda: len(match.actions) > played, frames=30)
    assert match.actions[played] == (0, match.actions[played][1]) and match.actions[played][1].value == only


def test_with_auto_play_off_a_forced_card_waits_for_the_player(tmp_path):
    app = make_app(tmp_path, auto_play=False)
    match = drive_to("bidwhist", 1, forced_position)
    scene = table(app, match)
    played = len(match.actions)
    run_until(app, lambda: False, frames=20, dt=0.1)
    assert len(match.actions) == played and scene.input_enabled()


def test_a_forced_card_never_plays_behind_a_hot_seat_cover(tmp_path):
    app = make_app(tmp_path)
    match = drive_to("wizard", 2, lambda m: forced_position(m) and m.current_player == 0)
    scene = table(app, match)
    assert top_name(app) == "CoverScene"
    played = len(match.actions)
    run_until(app, lambda: False, frames=20, dt=0.1)
    assert len(match.actions) == played, "nobody has passed the cover: the card waits"
    _pass_cover(app)
    assert scene.viewer == 0
    assert run_until(app, lambda: len(match.actions) > played, frames=60)
    assert match.actions[played][0] == 0


def test_auto_play_is_a_setting_on_the_settings_screen_and_in_the_file(tmp_path):
    app = make_app(tmp_path)
    assert app.settings.auto_play and Settings().auto_play is True, "on unless turned off"
    app.push(SettingsScene(app))
    settings = app.scenes[-1]
    assert isinstance(settings, SettingsScene)
    settings.auto_play.activate()  # the toggle pressed (by click, or Enter when focused)
    click(app, settings.save_button.rect.center)
    assert app.settings.auto_play is False
    loaded, warning = load_settings(app.user_paths)
    assert warning is None and loaded.auto_play is False


def test_a_computer_claims_when_the_rules_allow_and_the_table_is_told(tmp_path):
    app = make_app(tmp_path)
    match = drive_to("bidwhist", 1, lambda m: claim_position(m) and not m.is_human_turn(), humans_only=False)
    seat, left = match.current_player, len(match.view(match.current_player).hand)
    scene = table(app, match)
    assert run_until(app, lambda: match.phase != Phase.PLAY, frames=60)
    assert [event for event in match.events if isinstance(event, ClaimMade)] == [ClaimMade(seat, left)]
    assert t("log.claim", name=NAMES[seat], n=left) in [line.text for line in scene.hand_log_lines()]


def test_undo_goes_back_past_a_forced_card_that_played_itself(tmp_path):
    app = make_app(tmp_path)
    match = drive_to("bidwhist", 1, forced_position)
    scene = table(app, match)
    forced_at = len(match.actions)
    assert run_until(app, lambda: len(match.actions) > forced_at, frames=60)
    assert run_until(app, lambda: scene.input_enabled() or match.phase != Phase.PLAY, frames=600)
    step(app, [key(pygame.K_u, "u")])
    assert len(match.actions) == forced_at, "back before the forced card"
    run_until(app, lambda: False, frames=20, dt=0.1)
    assert len(match.actions) == forced_at, "which waits for the player this time"
    step(app, [key(pygame.K_u, "u")])
    assert len(match.actions) < forced_at, "so undo can go further back"
