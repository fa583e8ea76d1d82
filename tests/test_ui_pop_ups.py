"""The score pop-ups at a round's end, watched in whole games.

Each side's "+20" rises from its seats' plates. With six Wizard players at
800x600 the two seats on one side are stacked close, the upper plate pushed
below the corner panels, so its pop-up started below it and rose through
the pop-up rising over the plate beneath: the two numbers were drawn over
each other. In Bid Whist the far seat's pop-up rose off the top of the
window. Every pop-up shown must be on screen, clear of every other pop-up
shown with it and of the other seats' name plates.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from game.session.local import LocalSession
from test_ui_table import make_app, start, step, top_name


@pytest.mark.parametrize(
    "game, players, size",
    [("wizard", 6, (800, 600)), ("wizard", 5, (800, 600)), ("wizard", 6, (1280, 720)), ("bidwhist", 4, (800, 600))],
)
def test_score_pop_ups_stay_on_screen_and_clear_of_each_other_and_the_plates(tmp_path, game, players, size):
    app = make_app(tmp_path, speed="fast", size=size)
    overrides = {"rounds": 2} if game == "wizard" else {"target_score": 3}
    scene = start(app, game, ["ai:random"] * players, seed=7, **overrides)
    screen = pygame.Rect((0, 0), size)
    seen = 0
    problems: list[tuple[object, ...]] = []
    for _ in range(20000):
        step(app, dt=1 / 20)
        shown = []
        for floater in scene.model.floaters:
            image = scene.view.text.render(floater.text, floater.size, floater.colour, bold=True)
            shown.append(image.get_rect(center=(round(floater.x), round(floater.y))))
        seen += len(shown)
        plates = [place.plate for place in scene.layout.seats]
        for index, rect in enumerate(shown):
            if not screen.contains(rect):
                problems.append(("off screen", rect))
            if rect.collidelist(shown[index + 1 :]) >= 0:
                problems.append(("on another pop-up", rect, shown[index + 1 + rect.collidelist(shown[index + 1 :])]))
            # Its own plate may lie under the start of its rise; no other plate may.
            touched = [plate for plate in plates if rect.colliderect(plate)]
            if len(touched) > 1:
                problems.append(("on a plate", rect, touched))
        over = isinstance(scene.session, LocalSession) and scene.session.match.is_over
        if top_name(app) == "EndScene" or over and not scene.model.floaters and seen:
            break
    assert seen > 0, "no score pop-up seen"
    assert not problems, f"{game} with {players} at {size}: {problems[:4]} ({len(problems)} frames' findings)"
