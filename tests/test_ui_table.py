"""The card table, driven headless through the app's own frame function.

Every test builds a real ``App`` on SDL's dummy video driver and moves it
one frame at a time with ``App.step(dt, events)``, feeding synthesized mouse
and keyboard events, exactly as the window loop would. The table is given
the inline AI runner, so a computer's move is decided inside the frame that
asks for it and no test has to sleep or poll for a thread. The helpers at
the top are shared with the other UI test modules.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from collections.abc import Callable

import pygame
import pytest

from game.settings.app_settings import Settings
from game.session.match import Match, Seat
from game.rules import ActionKind, Phase, make_rules
from game.rules.actions import play
from game.rules.events import Dealt
from game.rules.tricks import PUBLIC_SEAT
from game.ui.app import App
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.contract_chooser import ContractChooser
from game.ui.dialogs.cover_scene import CoverScene
from game.ui.dialogs.kitty_dialog import KittyDialog
from game.ui.dialogs.score_pad import ScorePad
from game.ui.dialogs.cover_scene import GUARD_SECONDS as COVER_GUARD_SECONDS
from game.session.ai_worker import AiJob, InlineAiRunner
from game.ui.table.layout import compute_layout, hand_positions
from game.session.local import local_session
from game.ui.table.scene import TableScene
from game.ui.text import explain, t
from scene_checks import match_of, top
from game.ui.tween import SPEED_FACTORS, Tween, ease_in_out_cubic, ease_out_back, ease_out_cubic, linear

FRAME = 1 / 60


# --------------------------------------------------------------------------
# Helpers (also used by test_ui_full_game.py)


def make_app(tmp_path, speed: str = "instant", size=(1280, 720)) -> App:
    settings = Settings(animation_speed=speed, ai_pause_seconds=0.0)
    return App(data_dir=str(tmp_path), size=size, settings=settings)


def start(app: App, game: str, controllers: list[str], seed: int = 3, ai_runner=None, **overrides) -> TableScene:
    """A table for a new game, its computer players decided inline (or by ``ai_runner``)."""
    players = len(controllers)
    rules = make_rules(game, overrides, players=players)
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"][:players]
    match = Match(rules, [Seat(n, c) for n, c in zip(names, controllers)], seed)
    runner = ai_runner if ai_runner is not None else InlineAiRunner()
    scene = TableScene(app, local_session(match, app, ai_runner=runner))
    app.replace(scene)
    return scene


def step(app: App, events=(), dt: float = FRAME) -> None:
    app.step(dt, list(events))


def run_until(app: App, condition: Callable[[], bool], frames: int = 4000, dt: float = FRAME) -> bool:
    """Step frames until ``condition`` holds (at most ``frames`` of them)."""
    for _ in range(frames):
        if condition():
            return True
        step(app, dt=dt)
    return condition()


def mouse(kind: int, pos, button: int = 1) -> pygame.event.Event:
    if kind == pygame.MOUSEMOTION:
        return pygame.event.Event(kind, pos=pos, rel=(0, 0), buttons=(1, 0, 0))
    return pygame.event.Event(kind, pos=pos, button=button)


def key(code: int, unicode: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode=unicode, scancode=0)


def wait_past_cover_guard(app: App) -> None:
    """Let the hot-seat cover's guard time go by as the window loop does: it sleeps until the
    cover is ready to listen (``CoverScene.wake_in``), then runs one frame."""
    app.step(0.0, [], idle_time=COVER_GUARD_SECONDS)


def key_up(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYUP, key=code, mod=0, unicode="", scancode=0)


def pass_cover(app: App) -> None:
    """The named player passes the hot-seat cover: once it listens, Enter, pressed and let go."""
    wait_past_cover_guard(app)
    step(app, [key(pygame.K_RETURN), key_up(pygame.K_RETURN)])


def click(app: App, pos) -> None:
    pos = (round(pos[0]), round(pos[1]))
    step(app, [mouse(pygame.MOUSEMOTION, pos)])
    step(app, [mouse(pygame.MOUSEBUTTONDOWN, pos)])
    step(app, [mouse(pygame.MOUSEBUTTONUP, pos)])


def drag(app: App, start_pos, end_pos, steps: int = 6) -> None:
    sx, sy = start_pos
    ex, ey = end_pos
    step(app, [mouse(pygame.MOUSEMOTION, (sx, sy))])
    step(app, [mouse(pygame.MOUSEBUTTONDOWN, (sx, sy))])
    for i in range(1, steps + 1):
        f = i / steps
        step(app, [mouse(pygame.MOUSEMOTION, (round(sx + (ex - sx) * f), round(sy + (ey - sy) * f)))])
    step(app, [mouse(pygame.MOUSEBUTTONUP, (ex, ey))])


def card_centre(scene: TableScene, card: int) -> tuple[int, int]:
    cards = scene.hand_cards()
    index = cards.index(card)
    # Aim at the card's visible left strip: later cards overlap the right part.
    rect = scene.drag._positions()[index]
    return (rect.left + min(12, rect.width // 4), rect.centery)


def top_name(app: App) -> str:
    return type(app.scenes[-1]).__name__


def human_can_play(scene: TableScene) -> bool:
    return scene.app.scenes[-1] is scene and scene.input_enabled()


def legal_cards(scene: TableScene) -> set[int]:
    """The cards the seat to act may play now, as the match says."""
    return {action.value for action in match_of(scene).legal_actions() if action.kind == ActionKind.PLAY}


# --------------------------------------------------------------------------
# Tweens


def test_easings_start_at_zero_and_end_at_one():
    for easing in (linear, ease_in_out_cubic, ease_out_cubic, ease_out_back):
        assert easing(0.0) == pytest.approx(0.0, abs=1e-9)
        assert easing(1.0) == pytest.approx(1.0, abs=1e-9)


def test_tween_is_frame_rate_independent_and_finishes_once():
    finished = []
    slow, fast = (
        Tween(0, 100, 1.0, easing=linear),
        Tween(0, 100, 1.0, easing=linear, on_finish=lambda: finished.append(1)),
    )
    for _ in range(30):
        slow.update(1 / 30)
    for _ in range(144):
        fast.update(1 / 144)
    assert slow.done and fast.done
    assert slow.value == fast.value == 100
    fast.update(1.0)
    assert finished == [1]


def test_zero_duration_tween_finishes_on_first_update():
    tween = Tween(0, 1, 0.0 * SPEED_FACTORS["instant"])
    tween.update(0.0)
    assert tween.done and tween.value == 1


# --------------------------------------------------------------------------
# Layout


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("size", [(800, 600), (1280, 720), (1920, 1080), (1024, 1366), (3000, 700)])
@pytest.mark.parametrize("hint", [False, True])
def test_layout_keeps_everything_on_screen_and_apart(players, size, hint):
    layout = compute_layout(size, players, 0, hint_button=hint)
    screen = pygame.Rect(0, 0, layout.width, layout.height)
    plates = [layout.place(s).plate for s in range(players)]
    buttons = [layout.pad_button, layout.menu_button] + ([layout.hint_button] if hint else [])
    assert layout.hint_button.width > 0 if hint else layout.hint_button.width == 0
    for i, button in enumerate(buttons):
        assert screen.contains(button) and button.bottom < layout.score_rect.top
        assert all(not button.colliderect(other) for other in buttons[i + 1 :])
    for plate in plates:
        assert screen.contains(plate), (plate, screen)
        assert not plate.colliderect(layout.indicator_rect)
        assert not plate.colliderect(layout.score_rect)
        assert not plate.colliderect(layout.hint_button)
    for i, a in enumerate(plates):
        for b in plates[i + 1 :]:
            assert not a.colliderect(b), (a, b)
    # 18 cards (a Bid Whist declarer with the kitty) still fit the width.
    rects = [r for r, _ in hand_positions(layout, 18)]
    assert rects[0].left >= 0 and rects[-1].right <= layout.width
    assert layout.hand_card_w >= 58


def test_layout_below_minimum_is_laid_out_at_minimum():
    layout = compute_layout((120, 40), 4, 2)
    assert (layout.width, layout.height) == (800, 600)


def test_card_size_scales_with_window():
    small = compute_layout((800, 600), 4, 0)
    big = compute_layout((1920, 1080), 4, 0)
    assert big.hand_card_w > small.hand_card_w


# --------------------------------------------------------------------------
# App


def test_app_opens_start_screen_and_survives_sliver_resize(tmp_path):
    app = make_app(tmp_path)
    assert app.scenes, "a start screen is shown"
    start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"])
    for size in [(300, 40), (1, 1), (801, 599), (1600, 900)]:
        pygame.display.set_mode(size, pygame.RESIZABLE)
        step(app, [pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])])
        assert app.size[0] >= 800 and app.size[1] >= 600
        step(app)


def test_scene_exception_is_logged_not_raised(tmp_path, monkeypatch):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], rounds=1)

    def broken(_dt):
        raise RuntimeError("boom")

    monkeypatch.setattr(scene, "update", broken)
    step(app)
    assert app.toast.active
    log_file = tmp_path / "logs" / "tricktable.log"
    assert "boom" in log_file.read_text(encoding="utf-8")


def test_quit_event_stops_the_app(tmp_path):
    app = make_app(tmp_path)
    assert app.step(FRAME, [pygame.event.Event(pygame.QUIT)]) is False


# --------------------------------------------------------------------------
# Playing cards by drag, click and keyboard


def _to_human_play(app: App, scene: TableScene, need_illegal: bool = False) -> None:
    """Answer dialogs with the first legal choice until the human can play a card."""

    def ready() -> bool:
        dialog = app.top_scene()
        if isinstance(dialog, (BiddingPanel, ContractChooser)):
            legal = match_of(scene).legal_actions()
            choice = next((a for a in legal if a.kind != ActionKind.PASS), legal[0])
            dialog.finish(dialog.on_action, choice)
        elif isinstance(dialog, KittyDialog):
            dialog.finish(dialog.on_confirm, list(match_of(scene).view(scene.bottom).hand)[:6])
        elif isinstance(dialog, ScorePad):
            dialog.cancel()
        if not human_can_play(scene):
            return False
        if need_illegal:
            playable = legal_cards(scene)
            if all(c in playable for c in scene.hand_cards()):
                scene.apply_action(play(next(iter(playable))))
                return False
        return True

    assert run_until(app, ready), "the human never got to play"


def test_drag_legal_card_to_trick_plays_it(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random", "ai:random"], rounds=3)
    _to_human_play(app, scene)
    before = len(match_of(scene).actions)
    card = sorted(legal_cards(scene))[0]
    drag(app, card_centre(scene, card), scene.layout.trick_rect.center)
    assert len(match_of(scene).actions) == before + 1
    assert match_of(scene).actions[-1][1] == play(card)
    run_until(app, lambda: scene.director.idle)
    seen = match_of(scene).view(0)
    assert any(c == card for _, c in seen.trick) or any(c == card for r in seen.tricks for _, c in r.plays)


def test_drag_illegal_card_returns_with_reason(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=8)
    _to_human_play(app, scene, need_illegal=True)
    legal = legal_cards(scene)
    illegal = next(c for c in scene.hand_cards() if c not in legal)
    before = len(match_of(scene).actions)
    app.settings.animation_speed = "normal"  # so the slide back takes visible time
    drag(app, card_centre(scene, illegal), scene.layout.trick_rect.center)
    assert len(match_of(scene).actions) == before, "an illegal card is never played"
    reason = match_of(scene).explain(play(illegal))
    assert reason is not None and scene.message == explain(reason)
    assert "follow" in scene.message
    assert scene.drag.returning, "the card slides back"
    run_until(app, lambda: not scene.drag.returning, frames=60)
    assert illegal in scene.hand_cards()


def test_drop_outside_trick_area_slides_back(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], rounds=4)
    _to_human_play(app, scene)
    before = len(match_of(scene).actions)
    card = sorted(legal_cards(scene))[0]
    corner = (scene.layout.width - 20, scene.layout.height // 2)
    drag(app, card_centre(scene, card), corner)
    assert len(match_of(scene).actions) == before
    assert scene.message and "Drop" in scene.message


def test_click_and_keyboard_play(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], rounds=3)
    _to_human_play(app, scene)
    before = len(match_of(scene).actions)
    card = sorted(legal_cards(scene))[0]
    click(app, card_centre(scene, card))
    assert len(match_of(scene).actions) == before + 1
    _to_human_play(app, scene)
    before = len(match_of(scene).actions)
    legal = legal_cards(scene)
    step(app, [key(pygame.K_RIGHT)])
    selected = scene.hand_cards()[scene.drag.selected]
    while selected not in legal:
        step(app, [key(pygame.K_RIGHT)])
        selected = scene.hand_cards()[scene.drag.selected]
    step(app, [key(pygame.K_RETURN)])
    assert len(match_of(scene).actions) == before + 1
    assert match_of(scene).actions[-1][1] == play(selected)


def test_no_input_while_animating(tmp_path):
    app = make_app(tmp_path, speed="normal")
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], rounds=2)
    step(app)
    assert not scene.director.idle  # the deal is flying
    assert not scene.input_enabled()


def test_score_pad_and_menu_open_any_time(tmp_path):
    app = make_app(tmp_path, speed="normal")
    start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"])
    step(app)
    step(app, [key(pygame.K_s, "s")])
    assert top_name(app) == "ScorePad"
    step(app, [key(pygame.K_ESCAPE)])
    assert top_name(app) == "TableScene"
    step(app, [key(pygame.K_ESCAPE)])
    assert top_name(app) == "TableMenu"
    step(app, [key(pygame.K_ESCAPE)])
    assert top_name(app) == "TableScene"
    scene = app.scenes[0]
    assert isinstance(scene, TableScene)
    click(app, scene.layout.pad_button.center)
    assert top_name(app) == "ScorePad"


# --------------------------------------------------------------------------
# Animations at normal speed


def test_normal_speed_animations_finish_and_match_the_viewers_view(tmp_path):
    app = make_app(tmp_path, speed="normal")
    scene = start(app, "bidwhist", ["ai:random"] * 4, seed=4)
    assert scene.viewer == 0, "with no human the bottom seat's hand is shown"
    saw_flying = False
    for _ in range(60 * 30):
        step(app)
        saw_flying = saw_flying or bool(scene.model.flying)
        if match_of(scene).phase == Phase.PLAY and scene.director.idle:
            break
    assert saw_flying, "cards flew during the deal"
    assert scene.director.idle
    shown = match_of(scene).view(0)
    assert sorted(scene.model.hands[0]) == sorted(shown.hand)
    for seat in range(1, 4):
        assert scene.model.hands[seat] == [-1] * shown.hand_sizes[seat], "other hands are only known by size"
    assert not scene.model.flying


def test_deal_animation_follows_the_sequence(tmp_path):
    app = make_app(tmp_path, speed="normal")
    scene = start(app, "bidwhist", ["ai:random"] * 4, seed=9)
    deal = next(e for e in match_of(scene).events if isinstance(e, Dealt))
    # The order cards land in, as the bottom seat may know them (others face down).
    dealt_to_bottom = match_of(scene).events_for([deal], 0)[0]
    assert isinstance(dealt_to_bottom, Dealt)
    sequence = list(dealt_to_bottom.sequence)
    assert any(card >= 0 for card, _ in sequence) and any(card < 0 for card, _ in sequence)
    landed: list[tuple[int, int]] = []
    previous = [list(h) for h in scene.model.hands]
    previous_kitty: list[int] = []
    for _ in range(60 * 10):
        step(app)
        for seat, hand in enumerate(scene.model.hands):
            for card in hand[len(previous[seat]) :]:
                landed.append((card, seat))
        for card in scene.model.kitty[len(previous_kitty) :]:
            landed.append((card, -1))
        previous = [list(h) for h in scene.model.hands]
        previous_kitty = list(scene.model.kitty)
        if len(landed) >= len(sequence):
            break
    assert landed[: len(sequence)] == [tuple(x) for x in sequence]


# --------------------------------------------------------------------------
# Hot seat


def test_hot_seat_cover_between_two_humans(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "human", "ai:random"], rounds=1, seed=2)
    assert run_until(app, lambda: top_name(app) == "CoverScene")
    cover = top(app, CoverScene)
    first = match_of(scene).current_player
    assert cover.name == scene.names[first]
    assert cover.opaque
    assert scene.viewer == PUBLIC_SEAT and not scene.face_up
    pass_cover(app)
    assert scene.bottom == first and scene.viewer == first and scene.face_up
    assert sorted(scene.model.hands[first]) == sorted(match_of(scene).view(first).hand)
    assert run_until(app, lambda: top_name(app) == "BiddingPanel")
    panel = top(app, BiddingPanel)
    panel.finish(panel.on_action, match_of(scene).legal_actions()[0])
    # Acting hands the screen back: the cards turn face down at once.
    assert scene.viewer == PUBLIC_SEAT and not scene.face_up
    assert all(card == -1 for hand in scene.model.hands for card in hand)
    # The next human gets a cover of their own before any of their cards show.
    assert run_until(app, lambda: top_name(app) == "CoverScene" or match_of(scene).phase == Phase.PLAY)
    if top_name(app) == "CoverScene":
        assert top(app, CoverScene).name != scene.names[first]


def test_hot_seat_table_is_public_while_computers_play(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "human", "ai:random"], rounds=2, seed=6)
    thinking_seen = 0
    for _ in range(3000):
        top = app.scenes[-1]
        if top_name(app) == "CoverScene":
            step(app, [key(pygame.K_RETURN)])
        elif isinstance(top, (BiddingPanel, ContractChooser)):
            top.finish(top.on_action, match_of(scene).legal_actions()[0])
        elif top_name(app) == "ScorePad":
            break
        elif human_can_play(scene):
            scene.play_card(sorted(legal_cards(scene))[0], None)
        else:
            step(app)
        seat = match_of(scene).current_player
        if seat in (1, 3):
            thinking_seen += 1
            assert scene.viewer == PUBLIC_SEAT and not scene.face_up
            assert all(card == -1 for hand in scene.model.hands for card in hand)
    assert thinking_seen > 0 and top_name(app) == "ScorePad"


# --------------------------------------------------------------------------
# The turn flow and the computer players' runner


class ManualRunner:
    """Keeps every job unanswered until the test runs it."""

    def __init__(self) -> None:
        self.jobs: list[AiJob] = []
        self.stopped = False

    def submit(self, request) -> AiJob:
        job = AiJob(request)
        self.jobs.append(job)
        return job

    def stop(self) -> None:
        self.stopped = True


class FailingRequest:
    """A computer decision that raises, standing in for a broken computer player."""

    def __init__(self, request) -> None:
        self.seat, self.key = request.seat, request.key

    def decide(self):
        raise RuntimeError("the computer player fell over")


class FailingRunner(ManualRunner):
    """Answers every job at once with the computer player's failure."""

    def submit(self, request) -> AiJob:
        job = super().submit(FailingRequest(request))
        job.run()
        return job


def test_the_table_waits_for_the_runner_and_applies_its_answer(tmp_path):
    app = make_app(tmp_path)
    runner = ManualRunner()
    scene = start(app, "wizard", ["ai:random"] * 3, rounds=1, seed=2, ai_runner=runner)
    assert run_until(app, lambda: bool(runner.jobs))
    job = runner.jobs[0]
    assert (job.seat, job.key) == (match_of(scene).current_player, match_of(scene).position_key())
    for _ in range(30):
        step(app)
    assert match_of(scene).actions == [] and len(runner.jobs) == 1, "nothing is played until the answer is in"
    assert scene._prompt_text() == t("table.thinking", name=scene.names[job.seat])
    job.run()
    step(app)
    assert len(match_of(scene).actions) == 1 and match_of(scene).actions[0] == (job.seat, job.result)


def test_leaving_the_table_cancels_the_computer_job(tmp_path):
    app = make_app(tmp_path)
    runner = ManualRunner()
    scene = start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=5, ai_runner=runner)
    assert run_until(app, lambda: bool(runner.jobs))
    job = runner.jobs[0]
    app.show_start()
    assert runner.stopped and job.cancelled
    job.run()  # the answer comes in after the table was left
    assert not job.finished and job.result is None
    assert match_of(scene).actions == []


def test_a_failing_computer_player_is_logged_and_the_game_goes_on(tmp_path):
    app = make_app(tmp_path)
    runner = FailingRunner()
    scene = start(app, "wizard", ["ai:random"] * 3, rounds=1, seed=2, ai_runner=runner)
    assert run_until(app, lambda: scene.director.idle)
    seat, legal = match_of(scene).current_player, match_of(scene).legal_actions()
    assert run_until(app, lambda: bool(match_of(scene).actions))
    assert match_of(scene).actions[0] == (seat, legal[0]), "the first legal action is played instead"
    log_file = tmp_path / "logs" / "tricktable.log"
    assert "the computer player fell over" in log_file.read_text(encoding="utf-8")


def test_the_table_talks_to_the_match_only_through_its_facade():
    from pathlib import Path

    import game.ui.table.scene as module

    source = Path(module.__file__).read_text(encoding="utf-8")
    assert "match.state" not in source and "._state" not in source
    assert '"bidwhist"' not in source and '"wizard"' not in source


def test_a_third_game_plays_to_the_end_screen_through_the_table(tmp_path):
    """Oh Hell, registered for tests only, is played by a human from deal to end screen
    with no edit to the table: the score rows, deck, dialogs and deal noun come from its GameDef."""
    from ohhell import NAME, oh_hell_registered

    with oh_hell_registered() as game_def:
        app = make_app(tmp_path)
        scene = start(app, NAME, ["human", "ai:random", "ai:random"], seed=4)
        assert len(scene.model.scores) == game_def.score_sides(3)
        pads = []

        def advance() -> bool:
            top = app.scenes[-1]
            if top_name(app) == "EndScene":
                return True
            if isinstance(top, (BiddingPanel, ContractChooser)):
                top.finish(top.on_action, match_of(scene).legal_actions()[0])
            elif isinstance(top, ScorePad):
                pads.append(top.close_button.label)
                click(app, top.close_button.rect.center)
            elif human_can_play(scene):
                click(app, card_centre(scene, sorted(legal_cards(scene))[0]))
            return False

        assert run_until(app, advance, frames=20000), f"no end screen (top: {top_name(app)})"
        assert match_of(scene).is_over and pads
        assert all(label == t(game_def.text("next_deal")) for label in pads)
        assert (tmp_path / "histories" / f"{NAME}.jsonl").is_file()
