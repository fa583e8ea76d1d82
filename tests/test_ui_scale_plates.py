"""A larger UI scale never hides a player: the name plates a dialog on the felt
leaves in sight at 100% stay in sight when the table grows.

A dialog opened over the table (the bidding panel, the trump chooser) hides
the plates it covers (``TableView.draw``'s ``covered``). The grown table's
plates may therefore grow only outward: a side player's plate grown under the
bidding panel would vanish from the table while everyone bids. The real
table opens the real bidding panel for the human at several window sizes and
player counts, and the plates drawn are compared with those drawn at 100%.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest

from game.settings.app_settings import Settings
from game.ui.app import App
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.table.scene import TableScene
from game.ui.widgets.geometry import set_display_choices
from test_ui_table import run_until, start


@pytest.fixture(autouse=True)
def usual_scale_after():
    yield
    set_display_choices(100, False)


def plates_in_sight(tmp_path, size: tuple[int, int], game: str, players: int, percent: int) -> tuple[set[int], float]:
    """The seats whose plates the human's open bidding panel leaves uncovered, and the table's growth."""
    settings = Settings(animation_speed="instant", ai_pause_seconds=0.0, ui_scale_percent=percent)
    app = App(data_dir=str(tmp_path), size=size, settings=settings)
    try:
        scene = start(app, game, ["human"] + ["ai:medium"] * (players - 1))
        assert run_until(app, lambda: isinstance(app.scenes[-1], BiddingPanel))
        assert isinstance(scene, TableScene)
        cover = scene._dialog_cover()
        assert cover is not None
        layout = scene.layout
        return {seat for seat, place in enumerate(layout.seats) if not cover.colliderect(place.plate)}, layout.grow
    finally:
        app.close(quit_pygame=False)


@pytest.mark.parametrize("game,players", [("bidwhist", 4), ("wizard", 4), ("wizard", 6)])
@pytest.mark.parametrize("size", [(1280, 720), (1280, 1024), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_grown_table_keeps_every_plate_the_bidding_panel_leaves_in_sight(tmp_path, size, game, players):
    usual, _ = plates_in_sight(tmp_path / "usual", size, game, players, 100)
    assert len(usual) >= 2  # the human's own plate and at least one opponent's
    for percent in (150, 200):
        grown, growth = plates_in_sight(tmp_path / f"at{percent}", size, game, players, percent)
        assert usual <= grown, f"at {percent}% the plates of seats {sorted(usual - grown)} vanish under the panel"
        if players == 4:
            assert growth > 1.0  # and the plates still grow where they can
