"""The expert level where a player meets it (issue 29 item 5): the start screen, the
statistics, the stand-in, ``simulate --ai expert``, the hints, and the thinking time
("Automatic" lets each level think its own default time).

Expert is only asked to decide with small budgets here (``SMALL``), so no test waits
on its 0.9 s a decision; the budgets of whole matches are read, never timed.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import random

import pytest

from game.ai.budget import DEFAULT_BUDGET, SearchBudget
from game.ai.budget import EXPERT_BUDGET
from game.ai.hard import BidWhistHardPlayer, WizardHardPlayer
from game.ai.hints import REASON_KEYS, hint_for
from game.net.table_host import _stand_in_level
from game.persistence.savegame import encode_save, save_path, snapshot_of
from game.persistence.stats import HUMAN
from game.program.cli import main
from game.rules import ActionKind, Phase, make_rules, new_game
from game.rules.registry import all_games, get_game
from game.session.hints import think_budget
from game.session.match import Match, Seat
from game.settings.app_settings import Settings
from game.settings.paths import UserPaths
from game.ui.app import App
from game.ui.scenes.start_scene import StartScene
from game.ui.scenes.stats_scene import LEVEL_ORDER, level_label
from game.ui.table.hints import hint_text
from game.ui.text import set_language, t

SMALL = SearchBudget(20, 60.0)  # Expert's decisions in these tests: the time cap never binds


def make_app(tmp_path, think: float | None = None) -> App:
    settings = Settings(animation_speed="instant", ai_pause_seconds=0.0, ai_think_seconds=think)
    return App(data_dir=str(tmp_path), size=(1280, 720), settings=settings)


def budgets(match: Match) -> dict[str, SearchBudget]:
    """Each searching computer seat's budget, by its level."""
    found = {}
    for index, seat in enumerate(match.seats):
        player = match._ai_players.get(index)
        if isinstance(player, (WizardHardPlayer, BidWhistHardPlayer)):  # expert's players are hard's kind
            found[str(seat.ai_level)] = player.budget
    return found


# ---------------------------------------------------------------------------- the level in every place


@pytest.mark.parametrize("game", ["wizard", "bidwhist"])
def test_the_start_screen_offers_expert_after_hard_in_every_game(tmp_path, game):
    app = make_app(tmp_path)
    try:
        start = app.scenes[-1]
        assert isinstance(start, StartScene)
        start.set_game(game)
        cycler = start.level_cyclers[1]
        assert cycler.choices == ["easy", "medium", "hard", "expert"], "the registry's levels, the yardstick left out"
        assert cycler.labels[-1] == t("level.expert") == "Expert"
        start.kinds[1] = "computer"
        while cycler.can_step(1):
            cycler.step(1)
        assert start.build_seats()[1].controller == "ai:expert"
    finally:
        app.close(quit_pygame=False)


def test_a_last_setup_with_an_expert_seat_comes_back_with_it(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    paths.last_setup_file.parent.mkdir(parents=True, exist_ok=True)
    paths.last_setup_file.write_text(
        "game: wizard\nplayers: 3\nnames: [Ann, Bo, Cy]\n"
        "kinds: [human, computer, computer]\nlevels: [medium, expert, hard]\npreset: standard\n",
        encoding="utf-8",
    )
    app = make_app(tmp_path)
    try:
        start = app.scenes[-1]
        assert isinstance(start, StartScene)
        assert [seat.controller for seat in start.build_seats()] == ["human", "ai:expert", "ai:hard"]
        assert start.level_cyclers[1].value == "expert"
    finally:
        app.close(quit_pygame=False)


def test_expert_has_its_name_in_every_language_and_its_place_in_the_statistics():
    try:
        for language, name in (("en", "Expert"), ("nl", "Expert"), ("tr", "Uzman")):
            set_language(language)
            assert level_label("expert") == name
    finally:
        set_language("en")
    for game in all_games():
        offered = [level for level in game.ai_levels if level != "random"]
        assert [level for level in LEVEL_ORDER if level in offered] == offered, "weakest opponent first"
    assert LEVEL_ORDER[-1] == HUMAN


def test_a_computer_standing_in_for_an_absent_player_stays_medium():
    """The middle of the levels a player chooses from, not the search players: a server runs many tables."""
    for game, players in (("wizard", 3), ("bidwhist", 4)):
        match = Match(make_rules(game, {}, players=players), [Seat(f"P{i}", "human") for i in range(players)], 1)
        assert _stand_in_level(match) == "medium"


def test_simulate_offers_and_plays_expert(capsys, monkeypatch):
    import game.ai.expert

    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    assert "expert" in capsys.readouterr().out
    monkeypatch.setattr(game.ai.expert, "EXPERT_BUDGET", SMALL)  # its own default, made small for the test
    args = ["--game", "wizard", "--players", "3", "--games", "1", "--seed", "2", "--set", "rounds=1"]
    assert main(["simulate", *args, "--ai", "expert,medium,medium"]) == 0
    out = capsys.readouterr().out
    assert "computer levels expert,medium,medium" in out and "seat 0 (expert)" in out


# ---------------------------------------------------------------------------- the thinking time


def test_automatic_thinking_time_is_no_budget_and_a_chosen_time_buys_simulations():
    assert think_budget(None) is None
    assert think_budget(0.3) == DEFAULT_BUDGET, "0.3 s stays exactly the calibrated 400 simulations"
    assert think_budget(0.9) == SearchBudget(1200, 0.9)
    assert think_budget(2.0) == SearchBudget(2667, 2.0)
    assert think_budget(0.1) == SearchBudget(133, 0.1)


def test_a_new_game_on_automatic_gives_each_level_its_own_time(tmp_path):
    app = make_app(tmp_path, think=None)
    try:
        seats = [Seat("Ann", "human"), Seat("Bo", "ai:expert"), Seat("Cy", "ai:hard")]
        session = app.start_match(make_rules("wizard", {}, players=3), seats, seed=7)
        assert budgets(session.match) == {"expert": EXPERT_BUDGET, "hard": DEFAULT_BUDGET}
    finally:
        app.close(quit_pygame=False)


def test_a_chosen_thinking_time_limits_every_searching_level(tmp_path):
    app = make_app(tmp_path, think=1.5)
    try:
        seats = [Seat("Ann", "human"), Seat("Bo", "ai:expert"), Seat("Cy", "ai:hard")]
        session = app.start_match(make_rules("wizard", {}, players=3), seats, seed=7)
        held = SearchBudget(2000, 1.5)  # 400 simulations a 0.3 s: the longer time buys more of them
        assert budgets(session.match) == {"expert": held, "hard": held}
    finally:
        app.close(quit_pygame=False)


@pytest.mark.parametrize("think", [None, 0.5])
def test_a_continued_game_thinks_as_the_settings_say(tmp_path, think):
    seats = [Seat("Ann", "human"), Seat("Bo", "ai:expert"), Seat("Cy", "ai:hard"), Seat("Di", "ai:medium")]
    match = Match(make_rules("bidwhist", {}, players=4), seats, 11)
    app = make_app(tmp_path, think=think)
    try:
        path = save_path(app.user_paths)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(encode_save(snapshot_of(match)))
        saved, problem = app.load_saved_game()
        assert problem is None and saved is not None
        if think is None:
            assert budgets(saved.match) == {"expert": EXPERT_BUDGET, "hard": DEFAULT_BUDGET}
        else:
            held = SearchBudget(667, 0.5)
            assert budgets(saved.match) == {"expert": held, "hard": held}
    finally:
        app.close(quit_pygame=False)


# ---------------------------------------------------------------------------- the hints


def test_the_hints_come_from_expert_in_every_game():
    assert [game.hint_player_level() for game in (get_game("wizard"), get_game("bidwhist"))] == ["expert", "expert"]


def first_bid_and_first_choice_of_card(game: str, players: int):
    """A fresh game's first bid, then (random moves on) the first card play with a choice."""
    state, _ = new_game(make_rules(game, {}, players=players), players, 17)
    yield state.copy()
    rng = random.Random(17)
    while not (state.phase == Phase.PLAY and len(state.legal_actions()) > 1):
        state.apply_in_place(rng.choice(state.legal_actions()), None, check=False)
    yield state


@pytest.mark.parametrize(("game", "players"), [("wizard", 4), ("bidwhist", 4)])
def test_an_expert_hint_is_a_legal_action_with_its_reason_in_words(game, players):
    game_def = get_game(game)
    kinds = []
    for index, state in enumerate(first_bid_and_first_choice_of_card(game, players)):
        view = state.view(state.current)
        hint = hint_for(game_def, view, random.Random(index), SMALL)
        assert hint.action in view.legal_actions and hint.reason_key in REASON_KEYS
        words = hint_text(hint)
        assert words and "{" not in words and not words.startswith("hint."), words
        if hint.action.kind in (ActionKind.PREDICT, ActionKind.BID):
            expected = hint.params.get("n", hint.params.get("books"))
            assert isinstance(expected, int) and 0 <= expected <= 13, hint
        kinds.append(hint.action.kind)
    assert kinds[0] in (ActionKind.PREDICT, ActionKind.BID, ActionKind.PASS) and kinds[1] == ActionKind.PLAY
