"""The card table, driven headless through the app's own frame function.

Every test builds a real ``App`` on SDL's dummy video driver and moves it
one frame at a time with ``App.step(dt, events)``, feeding synthesized mouse
and keyboard events, exactly as the window loop would. The helpers at the
top are shared with ``test_ui_full_game.py``.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import time  # noqa: E402
from typing import Callable  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.config import Settings  # noqa: E402
from game.match import Seat  # noqa: E402
from game.rules import Phase, make_rules  # noqa: E402
from game.rules.actions import play  # noqa: E402
from game.ui.app import App  # noqa: E402
from game.ui.table.layout import compute_layout, hand_positions  # noqa: E402
from game.ui.table.scene import TableScene  # noqa: E402
from game.ui.text import explain  # noqa: E402
from game.ui.tween import SPEED_FACTORS, Tween, ease_in_out_cubic, ease_out_back, ease_out_cubic, linear  # noqa: E402

FRAME = 1 / 60


# --------------------------------------------------------------------------
# Helpers (also used by test_ui_full_game.py)

def make_app(tmp_path, speed: str = "instant", size=(1280, 720)) -> App:
    settings = Settings(animation_speed=speed, ai_pause_seconds=0.0)
    return App(data_dir=str(tmp_path), size=size, settings=settings)


def start(app: App, game: str, controllers: list[str], seed: int = 3, **overrides) -> TableScene:
    players = len(controllers)
    rules = make_rules(game, overrides, players=players if game == "wizard" else None)
    names = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"][:players]
    app.start_match(rules, [Seat(n, c) for n, c in zip(names, controllers)], seed=seed)
    scene = app.scenes[0]
    assert isinstance(scene, TableScene)
    return scene


def step(app: App, events=(), dt: float = FRAME) -> None:
    app.step(dt, list(events))


def run_until(app: App, condition: Callable[[], bool], frames: int = 4000, dt: float = FRAME,
              real_sleep: float = 0.0005) -> bool:
    """Step frames until ``condition`` holds; computer moves run on a thread, so yield a little."""
    for _ in range(frames):
        if condition():
            return True
        step(app, dt=dt)
        if real_sleep:
            time.sleep(real_sleep)
    return condition()


def mouse(kind: int, pos, button: int = 1) -> pygame.event.Event:
    if kind == pygame.MOUSEMOTION:
        return pygame.event.Event(kind, pos=pos, rel=(0, 0), buttons=(1, 0, 0))
    return pygame.event.Event(kind, pos=pos, button=button)


def key(code: int, unicode: str = "") -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode=unicode, scancode=0)


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


# --------------------------------------------------------------------------
# Tweens

def test_easings_start_at_zero_and_end_at_one():
    for easing in (linear, ease_in_out_cubic, ease_out_cubic, ease_out_back):
        assert easing(0.0) == pytest.approx(0.0, abs=1e-9)
        assert easing(1.0) == pytest.approx(1.0, abs=1e-9)


def test_tween_is_frame_rate_independent_and_finishes_once():
    finished = []
    slow, fast = Tween(0, 100, 1.0, easing=linear), Tween(0, 100, 1.0, easing=linear,
                                                           on_finish=lambda: finished.append(1))
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
def test_layout_keeps_everything_on_screen_and_apart(players, size):
    layout = compute_layout(size, players, 0)
    screen = pygame.Rect(0, 0, layout.width, layout.height)
    plates = [layout.place(s).plate for s in range(players)]
    for plate in plates:
        assert screen.contains(plate), (plate, screen)
        assert not plate.colliderect(layout.indicator_rect)
        assert not plate.colliderect(layout.score_rect)
    for i, a in enumerate(plates):
        for b in plates[i + 1:]:
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


def test_scene_exception_is_logged_not_raised(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], rounds=1)

    def broken(_dt):
        raise RuntimeError("boom")
    scene.update = broken  # type: ignore[assignment]
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
    from game.rules import ActionKind

    def ready() -> bool:
        if top_name(app) in ("BiddingPanel", "ContractChooser"):
            legal = scene.match.state.legal_actions()
            choice = next((a for a in legal if a.kind != ActionKind.PASS), legal[0])
            dialog = app.scenes[-1]
            dialog.finish(dialog.on_action, choice)
        elif top_name(app) == "KittyDialog":
            dialog = app.scenes[-1]
            dialog.finish(dialog.on_confirm, list(scene.match.state.view(scene.bottom).hand)[:6])
        elif top_name(app) == "ScorePad":
            app.scenes[-1].cancel()
        if not human_can_play(scene):
            return False
        if need_illegal:
            legal = set(scene.match.state.legal_cards())
            if all(c in legal for c in scene.hand_cards()):
                scene.apply_action(play(next(iter(legal))))
                return False
        return True
    assert run_until(app, ready), "the human never got to play"


def test_drag_legal_card_to_trick_plays_it(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random", "ai:random"], rounds=3)
    _to_human_play(app, scene)
    before = len(scene.match.actions)
    card = sorted(scene.match.state.legal_cards())[0]
    drag(app, card_centre(scene, card), scene.layout.trick_rect.center)
    assert len(scene.match.actions) == before + 1
    assert scene.match.actions[-1][1] == play(card)
    run_until(app, lambda: scene.director.idle)
    assert any(c == card for _, c in scene.match.state.view(0).trick) or \
        any(c == card for r in scene.match.state.view(0).tricks for _, c in r.plays)


def test_drag_illegal_card_returns_with_reason(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=8)
    _to_human_play(app, scene, need_illegal=True)
    state = scene.match.state
    legal = set(state.legal_cards())
    illegal = next(c for c in scene.hand_cards() if c not in legal)
    before = len(scene.match.actions)
    app.settings.animation_speed = "normal"  # so the slide back takes visible time
    drag(app, card_centre(scene, illegal), scene.layout.trick_rect.center)
    assert len(scene.match.actions) == before, "an illegal card is never played"
    assert scene.message == explain(state.explain_illegal(play(illegal)))
    assert "follow" in scene.message
    assert scene.drag.returning, "the card slides back"
    run_until(app, lambda: not scene.drag.returning, frames=60)
    assert illegal in scene.hand_cards()


def test_drop_outside_trick_area_slides_back(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], rounds=4)
    _to_human_play(app, scene)
    before = len(scene.match.actions)
    card = sorted(scene.match.state.legal_cards())[0]
    corner = (scene.layout.width - 20, scene.layout.height // 2)
    drag(app, card_centre(scene, card), corner)
    assert len(scene.match.actions) == before
    assert scene.message and "Drop" in scene.message


def test_click_and_keyboard_play(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], rounds=3)
    _to_human_play(app, scene)
    before = len(scene.match.actions)
    card = sorted(scene.match.state.legal_cards())[0]
    click(app, card_centre(scene, card))
    assert len(scene.match.actions) == before + 1
    _to_human_play(app, scene)
    before = len(scene.match.actions)
    legal = set(scene.match.state.legal_cards())
    step(app, [key(pygame.K_RIGHT)])
    selected = scene.hand_cards()[scene.drag.selected]
    while selected not in legal:
        step(app, [key(pygame.K_RIGHT)])
        selected = scene.hand_cards()[scene.drag.selected]
    step(app, [key(pygame.K_RETURN)])
    assert len(scene.match.actions) == before + 1
    assert scene.match.actions[-1][1] == play(selected)


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
    click(app, scene.layout.pad_button.center)
    assert top_name(app) == "ScorePad"


# --------------------------------------------------------------------------
# Animations at normal speed

def test_normal_speed_animations_finish_and_match_state(tmp_path):
    app = make_app(tmp_path, speed="normal")
    scene = start(app, "bidwhist", ["ai:random"] * 4, seed=4)
    saw_flying = False
    for _ in range(60 * 30):
        step(app)
        saw_flying = saw_flying or bool(scene.model.flying)
        if scene.match.state.phase == Phase.PLAY and scene.director.idle:
            break
        time.sleep(0.0002)
    assert saw_flying, "cards flew during the deal"
    assert scene.director.idle
    state = scene.match.state
    assert [sorted(h) for h in scene.model.hands] == [sorted(state.view(s).hand) for s in range(4)]
    assert not scene.model.flying


def test_deal_animation_follows_the_sequence(tmp_path):
    app = make_app(tmp_path, speed="normal")
    scene = start(app, "bidwhist", ["ai:random"] * 4, seed=9)
    deal = next(e for e in scene.match.events if e.kind.value == "deal")
    sequence = list(deal.data["sequence"])
    landed: list[tuple[int, int]] = []
    previous = [list(h) for h in scene.model.hands]
    previous_kitty: list[int] = []
    for _ in range(60 * 10):
        step(app)
        for seat, hand in enumerate(scene.model.hands):
            for card in hand[len(previous[seat]):]:
                landed.append((card, seat))
        for card in scene.model.kitty[len(previous_kitty):]:
            landed.append((card, -1))
        previous = [list(h) for h in scene.model.hands]
        previous_kitty = list(scene.model.kitty)
        if len(landed) >= len(sequence):
            break
    assert landed[:len(sequence)] == [tuple(x) for x in sequence]


# --------------------------------------------------------------------------
# Hot seat

def test_hot_seat_cover_between_two_humans(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "human", "ai:random"], rounds=1, seed=2)
    assert run_until(app, lambda: top_name(app) == "CoverScene")
    cover = app.scenes[-1]
    first = scene.match.state.current_player
    assert cover.name == scene.names[first]
    assert cover.opaque
    step(app, [key(pygame.K_RETURN)])
    assert scene.bottom == first and scene.revealed == first
    assert run_until(app, lambda: top_name(app) == "BiddingPanel")
    panel = app.scenes[-1]
    panel.finish(panel.on_action, scene.match.state.legal_actions()[0])
    # The next human gets a cover of their own before any of their cards show.
    assert run_until(app, lambda: top_name(app) == "CoverScene" or scene.match.state.phase == Phase.PLAY)
    if top_name(app) == "CoverScene":
        assert app.scenes[-1].name != scene.names[first]
