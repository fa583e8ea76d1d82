"""Regression tests for problems found by playing the real window.

Each test names the problem it guards against: dialogs stacking on the menu,
a stale warning colour on the turn prompt, hidden Wizard bids reaching the
other players, the hot-seat cover swallowing Esc, singular/plural wording,
and the removed fallback scenes.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import importlib.util

import pygame

from game.rules import PUBLIC_SEAT, Phase, events_for, get_game
from game.rules.actions import predict
from game.rules.events import BidMade, BidsRevealed
from game.settings.house_rule_files import default_rule_file, load_rule_file
from game.ui.table.animations import Director
from game.ui.table.model import TableModel
from game.ui.text import t
from scene_checks import match_of
from test_ui_table import key, make_app, run_until, start, step, top_name


def test_no_dialog_is_pushed_over_an_open_menu(tmp_path):
    """The human's bidding panel used to open on top of the menu and trap it underneath."""
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=5)
    step(app)
    step(app, [key(pygame.K_ESCAPE)])
    assert top_name(app) == "TableMenu"
    actions_before = len(match_of(scene).actions)
    for _ in range(120):
        step(app)
    # Nothing happens behind the menu: no dialog on top of it, no computer move.
    assert top_name(app) == "TableMenu"
    assert len(match_of(scene).actions) == actions_before
    step(app, [key(pygame.K_ESCAPE)])
    assert run_until(app, lambda: top_name(app) == "BiddingPanel" or len(match_of(scene).actions) > actions_before)


def test_prompt_is_not_shown_as_a_warning_after_a_refusal_expires(tmp_path, monkeypatch):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=5)
    scene.show_message("You must follow clubs.", warning=True, seconds=0.05)
    for _ in range(10):
        step(app)
    assert scene.message is None
    drawn = {}
    original = scene.view.draw

    def spy(surface, model, layout, names, hand, overlay, viewer=-1, covered=None):
        drawn["overlay"] = overlay
        return original(surface, model, layout, names, hand, overlay, viewer, covered)

    monkeypatch.setattr(scene.view, "draw", spy)
    step(app)
    assert drawn["overlay"].message_warning is False


def _table_fed_for(scene, seat: int, events) -> tuple[TableModel, Director]:
    """A Wizard table model fed ``events`` as ``seat`` may learn them (``PUBLIC_SEAT``: the public stream)."""
    wizard = get_game("wizard")
    model = TableModel.empty(wizard, 3)
    director = Director(model, lambda: scene.layout, lambda: 0.0, lambda s: f"P{s}", wizard)
    director.enqueue(events_for(events, seat), 2)
    director.update(0.0)
    return model, director


def test_hidden_wizard_bid_is_never_put_on_another_players_plate(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], rounds=2, bidding="hidden")
    secret_bid = [BidMade(1, predict(2), hidden=True)]
    view = scene.view
    # Another seat's table (and the public one) never even receives the value.
    for watcher in (0, PUBLIC_SEAT):
        model, _ = _table_fed_for(scene, watcher, secret_bid)
        assert model.bid_labels[1] == t("table.bid_hidden")
        assert model.predictions[1] == -1 and 1 not in model.known_bids()
        view.viewer = -1 if watcher is None else watcher
        assert "2" not in view._plate_line(model, 1)
    # Its own player (at the bottom, cards showing) may see it; nobody else looking at that table does.
    model, director = _table_fed_for(scene, 1, secret_bid)
    assert model.known_bids() == {1: 2}
    view.viewer = 1
    assert view._plate_line(model, 1) == t("table.plate_bid_secret", n=2)
    view.viewer = 0
    assert "2" not in view._plate_line(model, 1)
    # Once revealed, everyone sees it and the secret is forgotten.
    director.enqueue([BidsRevealed((0, 2, 1))], 0)
    director.update(0.0)
    assert model.bid_labels[1] == t("table.plate_bid", n=2)
    assert model.own_hidden_bid is None and model.known_bids() == {0: 0, 1: 2, 2: 1}


def test_hidden_bids_in_a_real_round_stay_hidden_until_revealed(tmp_path):
    app = make_app(tmp_path)
    scene = start(
        app, "wizard", ["human", "ai:random", "ai:random", "ai:random"], rounds=3, bidding="delayed_reveal", seed=4
    )
    assert run_until(app, lambda: top_name(app) == "BiddingPanel")
    for seat, label in scene.model.bid_labels.items():
        if seat != scene.bottom:
            assert label == t("table.bid_hidden")
    assert set(scene.model.known_bids()) <= {scene.bottom}


def test_escape_on_the_hot_seat_cover_opens_the_menu(tmp_path):
    app = make_app(tmp_path)
    start(app, "wizard", ["human", "human", "ai:random"], rounds=1, seed=2)
    assert run_until(app, lambda: top_name(app) == "CoverScene")
    step(app, [key(pygame.K_ESCAPE)])
    assert top_name(app) == "TableMenu"
    step(app, [key(pygame.K_ESCAPE)])
    assert top_name(app) == "CoverScene"


def test_singular_wording_for_one_card():
    assert t("bid.question", cards=1).endswith("(1 card each)")
    assert t("bid.question", cards=3).endswith("(3 cards each)")
    assert "1 trick will" in t("bid.total", total=0, cards=1)
    assert "2 tricks will" in t("bid.total", total=0, cards=2)


def test_fallback_scenes_are_gone():
    assert importlib.util.find_spec("game.ui.quick_start") is None
    assert importlib.util.find_spec("game.ui.action_picker") is None


def test_preset_descriptions_read_well_on_the_start_screen():
    for game in ("bidwhist", "wizard"):
        for preset in load_rule_file(default_rule_file(game)).presets.values():
            text = preset.description.lower()
            assert "above" not in text and "unchanged" not in text, preset.description


def test_game_over_waits_for_the_table_to_be_on_top(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["ai:random", "ai:random", "ai:random"], rounds=1, seed=3)
    assert run_until(app, lambda: match_of(scene).phase == Phase.GAME_OVER and scene.director.idle)
    step(app)
    assert top_name(app) == "EndScene"
