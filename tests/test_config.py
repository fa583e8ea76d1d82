"""Tests for game.settings (house_rule_files, app_settings, last_setup): house-rule
files, presets, --set options and app settings."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from game.settings.house_rule_files import (
    ConfigError,
    check_rule_value,
    default_rule_file,
    game_title,
    load_rule_file,
    load_rules_or_defaults,
    parse_set_option,
    resolve_rules,
)
from game.settings.app_settings import Settings, load_settings, save_settings
from game.settings.paths import UserPaths, resource_path
from game.rules.errors import RuleConfigError
from game.rules.house_rules import BidWhistRules, WizardRules, make_rules
from game.rules.registry import game_names, get_game


def write(tmp_path: Path, text: str, name: str = "rules.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def error_of(path: Path) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        load_rule_file(path)
    return info.value


# --------------------------------------------------------------------------
# The bundled files


@pytest.mark.parametrize("game", game_names())
def test_bundled_file_loads_and_its_rules_are_the_defaults(game: str) -> None:
    rule_file = load_rule_file(default_rule_file(game))
    assert rule_file.game == game
    assert default_rule_file(game) == resource_path("config", f"{get_game(game).config_name}.yaml")
    assert default_rule_file(game).name == f"{game}.yaml"
    assert resolve_rules(game) == make_rules(game)


@pytest.mark.parametrize("game", game_names())
def test_every_bundled_preset_resolves_for_every_player_count(game: str) -> None:
    rule_file = load_rule_file(default_rule_file(game))
    assert rule_file.presets
    for name, preset in rule_file.presets.items():
        assert preset.description.strip(), name
        for players in get_game(game).player_counts():
            rules = resolve_rules(game, preset=name, players=players)
            assert rules.game == game


def test_bundled_bidwhist_presets_cover_the_common_tables() -> None:
    def rules(preset: str) -> BidWhistRules:
        result = resolve_rules("bidwhist", preset=preset)
        assert isinstance(result, BidWhistRules)
        return result

    assert rules("standard") == BidWhistRules()
    assert rules("from_one").min_bid == 1
    assert rules("downtown_over_uptown").downtown_outranks_uptown is True
    assert rules("left_lead").first_lead == "left_of_dealer"
    kitchen = rules("kitchen_table")
    assert (kitchen.renege, kitchen.all_pass) == ("penalized", "redeal")
    assert rules("short").target_score == 5


def test_bundled_wizard_presets_cover_the_common_tables() -> None:
    def rules(preset: str) -> WizardRules:
        result = resolve_rules("wizard", preset=preset, players=6)
        assert isinstance(result, WizardRules)
        return result

    assert rules("standard") == WizardRules()
    assert rules("uneven").uneven_bids == "always"
    assert rules("uneven_leader").uneven_bids == "leader_only"
    assert (rules("hidden").bidding, rules("hidden").uneven_bids) == ("hidden", "off")
    assert rules("short").rounds == 5
    assert rules("quick").rounds == 3


# --------------------------------------------------------------------------
# Every kind of bad file gives a message naming the file, the key and what is allowed

BAD_FILES = [
    pytest.param(
        "- just\n- a list\n",
        "",
        ["must be a mapping of rule keys to values, or with the keys game, rules and presets, not a list"],
        id="top-level-not-mapping",
    ),
    pytest.param(
        "game: wizard\nrules: {}\nrulez: {}\n",
        "rulez",
        ["unknown key; did you mean rules? Allowed keys: game, rules, presets"],
        id="unknown-top-level-key",
    ),
    pytest.param("rules: {}\n", "game", ["missing", "bidwhist, wizard"], id="missing-game"),
    pytest.param("game: poker\n", "game", ["must be one of bidwhist, wizard, not 'poker'"], id="unknown-game"),
    pytest.param(
        "game: bidwhist\nrules: [min_bid, 3]\n",
        "rules",
        ["must be a mapping of rule keys to values"],
        id="rules-not-mapping",
    ),
    pytest.param(
        "game: bidwhist\nrules: {min_bids: 3}\n",
        "rules.min_bids",
        ["unknown key; did you mean min_bid? Allowed keys for Bid Whist: min_bid, "],
        id="unknown-rule-key",
    ),
    pytest.param(
        "game: bidwhist\nrules: {min_bid: three}\n",
        "rules.min_bid",
        ["must be a whole number from 1 to 7, not 'three'"],
        id="wrong-type",
    ),
    pytest.param(
        "game: bidwhist\nrules: {min_bid: true}\n",
        "rules.min_bid",
        ["must be a whole number from 1 to 7, not True"],
        id="bool-for-number",
    ),
    pytest.param(
        "game: bidwhist\nrules: {min_bid: 8}\n",
        "rules.min_bid",
        ["must be a whole number from 1 to 7, not 8"],
        id="out-of-range",
    ),
    pytest.param(
        "game: bidwhist\nrules: {notrump_multiplier: 5}\n",
        "rules.notrump_multiplier",
        ["from 1 to 4"],
        id="multiplier-out-of-range",
    ),
    pytest.param(
        "game: bidwhist\nrules: {target_score: 100}\n", "rules.target_score", ["from 1 to 99"], id="target-out-of-range"
    ),
    pytest.param(
        "game: bidwhist\nrules: {downtown_outranks_uptown: yes please}\n",
        "rules.downtown_outranks_uptown",
        ["must be true or false"],
        id="not-a-bool",
    ),
    pytest.param(
        "game: bidwhist\nrules: {renege: ignored}\n",
        "rules.renege",
        ["must be one of prevented, penalized, not 'ignored'"],
        id="bad-choice",
    ),
    pytest.param(
        "game: wizard\nrules: {rounds: 21}\n",
        "rules.rounds",
        ["must be full or a whole number from 1 to 20, not 21"],
        id="rounds-above-20",
    ),
    pytest.param(
        "game: wizard\nrules: {rounds: 0}\n", "rules.rounds", ["full or a whole number from 1 to 20"], id="rounds-zero"
    ),
    pytest.param(
        "game: wizard\nrules: {bidding: hidden, uneven_bids: always}\n",
        "rules.uneven_bids",
        ["must be off unless bidding is open"],
        id="uneven-with-hidden-bidding",
    ),
    pytest.param(
        "game: wizard\npresets: [short]\n",
        "presets",
        ["must be a mapping of preset names to presets"],
        id="presets-not-mapping",
    ),
    pytest.param(
        "game: wizard\npresets: {short: 5}\n",
        "presets.short",
        ["must be a mapping with description and rules"],
        id="preset-not-mapping",
    ),
    pytest.param(
        "game: wizard\npresets: {short: {rulez: {}}}\n",
        "presets.short.rulez",
        ["unknown key; did you mean rules? Allowed keys: description, rules"],
        id="preset-unknown-key",
    ),
    pytest.param(
        "game: wizard\npresets: {short: {description: [a]}}\n",
        "presets.short.description",
        ["must be text"],
        id="preset-description-not-text",
    ),
    pytest.param(
        "game: wizard\npresets: {short: {rules: [rounds]}}\n",
        "presets.short.rules",
        ["must be a mapping of rule keys to values"],
        id="preset-rules-not-mapping",
    ),
    pytest.param(
        "game: wizard\npresets: {short: {rules: {rounds: 30}}}\n",
        "presets.short.rules.rounds",
        ["from 1 to 20, not 30"],
        id="preset-value-out-of-range",
    ),
    pytest.param(
        "game: wizard\npresets: {short: {rules: {roundz: 3}}}\n",
        "presets.short.rules.roundz",
        ["unknown key; did you mean rounds? Allowed keys for Wizard: rounds, bidding, uneven_bids"],
        id="preset-unknown-rule-key",
    ),
    pytest.param(
        "game: wizard\nrules: {uneven_bids: always}\npresets: {h: {rules: {bidding: hidden}}}\n",
        "presets.h.rules",
        ["must be off unless bidding is open"],
        id="preset-combination-with-base",
    ),
]


@pytest.mark.parametrize(("text", "key", "fragments"), BAD_FILES)
def test_bad_file_message_names_file_key_and_allowed_values(
    tmp_path: Path, text: str, key: str, fragments: list[str]
) -> None:
    path = write(tmp_path, text)
    error = error_of(path)
    message = str(error)
    assert message.startswith(f"{path}: ")
    assert error.source == str(path)
    assert error.key == key
    if key:
        assert f"{path}: {key}: " in message
    for fragment in fragments:
        assert fragment in message


def test_the_documented_example_message(tmp_path: Path) -> None:
    path = write(tmp_path, "game: wizard\nrules:\n  uneven_bids: sometimes\n", name="wizard.yaml")
    assert str(error_of(path)) == (
        f"{path}: rules.uneven_bids: must be one of off, always, leader_only, not 'sometimes'"
    )


def test_config_error_is_a_rule_config_error_with_its_fields(tmp_path: Path) -> None:
    error = error_of(write(tmp_path, "game: bidwhist\nrules: {min_bid: 9}\n"))
    assert isinstance(error, RuleConfigError)
    assert isinstance(error, ValueError)
    assert error.reason == "must be a whole number from 1 to 7, not 9"


def test_yaml_syntax_error_gives_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "game: wizard\nrules:\n  rounds: [3\n  bidding: open\n")
    message = str(error_of(path))
    assert message.startswith(f"{path}: YAML syntax error at line ")
    assert "column" in message


def test_tab_indentation_is_a_syntax_error_with_position(tmp_path: Path) -> None:
    path = write(tmp_path, "game: wizard\nrules:\n\trounds: 3\n")
    assert "line 3, column 1" in str(error_of(path))


def test_missing_file_is_reported_not_raised_as_oserror(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.yaml"
    message = str(error_of(path))
    assert message.startswith(f"{path}: cannot read the file")


def test_directory_instead_of_file_is_reported(tmp_path: Path) -> None:
    assert "cannot read the file" in str(error_of(tmp_path))


def test_non_utf8_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("game: wizard\n# caf\xe9\n".encode("latin-1"))
    assert "not UTF-8" in str(error_of(path))


def test_empty_file_is_reported(tmp_path: Path) -> None:
    assert "the file is empty" in str(error_of(write(tmp_path, "# nothing but a comment\n")))


def test_unbuildable_yaml_value_is_reported(tmp_path: Path) -> None:
    # safe_load raises ValueError (not YAMLError) for an impossible date.
    path = write(tmp_path, "game: wizard\nwhen: 2024-13-45\n")
    assert str(error_of(path)).startswith(f"{path}: ")


def test_python_tags_are_refused_by_safe_load(tmp_path: Path) -> None:
    path = write(tmp_path, "game: !!python/object/apply:os.system ['echo hi']\n")
    assert str(error_of(path)).startswith(f"{path}: unsupported YAML value at line 1, column 7")


def test_bare_off_and_empty_sections_are_accepted(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
        game: wizard
        rules:
          uneven_bids: off
        presets:
          plain:
            description: all commented out
            rules:
        """,
    )
    rule_file = load_rule_file(path)
    assert rule_file.base_rules == {"uneven_bids": "off"}
    assert rule_file.presets["plain"].rules == {}


# --------------------------------------------------------------------------
# Resolving: defaults <- file rules <- preset <- --set

LAYERED_FILE = """\
    game: bidwhist
    rules:
      min_bid: 2
      renege: penalized
    presets:
      four:
        description: bids from four
        rules: {min_bid: 4}
    """


def bidwhist_rules(*args: Any, **kwargs: Any) -> BidWhistRules:
    """``resolve_rules("bidwhist", ...)``, typed as the game's own rules."""
    rules = resolve_rules("bidwhist", *args, **kwargs)
    assert isinstance(rules, BidWhistRules)
    return rules


def wizard_rules(*args: Any, **kwargs: Any) -> WizardRules:
    """``resolve_rules("wizard", ...)``, typed as the game's own rules."""
    rules = resolve_rules("wizard", *args, **kwargs)
    assert isinstance(rules, WizardRules)
    return rules


def test_layers_override_in_order(tmp_path: Path) -> None:
    path = write(tmp_path, LAYERED_FILE)
    assert bidwhist_rules().min_bid == 3
    assert bidwhist_rules(path).min_bid == 2
    from_preset = bidwhist_rules(path, preset="four")
    assert (from_preset.min_bid, from_preset.renege) == (4, "penalized")
    from_set = bidwhist_rules(path, preset="four", overrides=["min_bid=5"])
    assert (from_set.min_bid, from_set.renege) == (5, "penalized")
    assert bidwhist_rules(path, overrides=["min_bid=5", "min_bid=6"]).min_bid == 6


def test_unknown_preset_lists_the_available_ones(tmp_path: Path) -> None:
    path = write(tmp_path, LAYERED_FILE)
    with pytest.raises(ConfigError) as info:
        resolve_rules("bidwhist", path, preset="fuor")
    assert str(info.value) == (f"{path}: presets: no preset named 'fuor' (did you mean four?); available presets: four")


def test_file_of_another_game_is_refused() -> None:
    with pytest.raises(ConfigError) as info:
        resolve_rules("bidwhist", default_rule_file("wizard"))
    assert "game: this file is for wizard, but the game being set up is bidwhist" in str(info.value)


# --------------------------------------------------------------------------
# A rules file written the natural way: just the rule keys (issue 11, item 3)


def test_a_flat_file_of_rule_keys_gives_the_rules_of_the_game_named_by_the_caller(tmp_path: Path) -> None:
    assert resolve_rules("bidwhist", write(tmp_path, "target_score: 5\n")) == BidWhistRules(target_score=5)
    assert resolve_rules("wizard", write(tmp_path, "uneven_bids: always\n")) == WizardRules(uneven_bids="always")


def test_a_flat_file_may_name_its_game(tmp_path: Path) -> None:
    path = write(tmp_path, "game: wizard\nrounds: 3\nbidding: hidden\n")
    rule_file = load_rule_file(path)
    assert (rule_file.game, rule_file.base_rules, rule_file.presets) == (
        "wizard",
        {"rounds": 3, "bidding": "hidden"},
        {},
    )
    assert resolve_rules("wizard", path, overrides=["rounds=4"]) == WizardRules(rounds=4, bidding="hidden")
    with pytest.raises(ConfigError, match="game: this file is for wizard, but the game being set up is bidwhist"):
        resolve_rules("bidwhist", path)


def test_a_flat_file_without_a_game_needs_one_from_the_caller(tmp_path: Path) -> None:
    path = write(tmp_path, "target_score: 5\n")
    assert str(error_of(path)) == (
        f"{path}: game: missing; name the game in the file (game: one of bidwhist, wizard) or with --game"
    )
    assert load_rule_file(path, "bidwhist").base_rules == {"target_score": 5}


def test_a_misspelt_key_is_named_with_the_nearest_valid_key_and_the_allowed_ones(tmp_path: Path) -> None:
    path = write(tmp_path, "min_bid: 4\ntargt_score: 5\n")
    with pytest.raises(ConfigError) as info:
        resolve_rules("bidwhist", path)
    allowed = ", ".join(["game"] + [spec.key for spec in get_game("bidwhist").rule_specs])
    assert str(info.value) == (f"{path}: targt_score: unknown key; did you mean target_score? Allowed keys: {allowed}")
    assert info.value.key == "targt_score"


def test_a_key_of_another_game_is_unknown_with_no_guess(tmp_path: Path) -> None:
    path = write(tmp_path, "uneven_bids: always\n")
    message = str(pytest.raises(ConfigError, resolve_rules, "bidwhist", path).value)
    assert message.startswith(f"{path}: uneven_bids: unknown key; Allowed keys: game, min_bid, ")


def test_a_flat_value_error_names_the_key_without_a_section(tmp_path: Path) -> None:
    path = write(tmp_path, "target_score: 500\n")
    message = str(pytest.raises(ConfigError, resolve_rules, "bidwhist", path).value)
    assert message == f"{path}: target_score: must be a whole number from 1 to 99, not 500"
    combination = write(tmp_path, "bidding: hidden\nuneven_bids: always\n", name="combo.yaml")
    message = str(pytest.raises(ConfigError, resolve_rules, "wizard", combination).value)
    assert message.startswith(f"{combination}: uneven_bids: must be off unless bidding is open")


def test_a_rule_key_beside_the_sections_is_told_where_it_belongs(tmp_path: Path) -> None:
    path = write(tmp_path, "game: bidwhist\nrules: {min_bid: 4}\ntarget_score: 5\n")
    assert str(error_of(path)) == (
        f"{path}: target_score: a rule key belongs under rules: in a file that has "
        "rules: or presets: (allowed keys here: game, rules, presets)"
    )


def test_a_flat_file_has_no_presets(tmp_path: Path) -> None:
    path = write(tmp_path, "target_score: 5\n")
    with pytest.raises(ConfigError, match="no preset named 'short'; available presets: \\(this file has none\\)"):
        resolve_rules("bidwhist", path, preset="short")


def test_make_rules_names_the_unknown_key_and_the_nearest_one() -> None:
    with pytest.raises(RuleConfigError) as info:
        make_rules("bidwhist", {"targt_score": 5})
    assert info.value.key == "targt_score"
    assert info.value.reason.startswith("unknown key; did you mean target_score? Allowed keys for bidwhist: min_bid")


def test_simulate_plays_with_a_flat_rules_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from game.program.cli import main

    path = write(tmp_path, "target_score: 1\n")
    assert main(["simulate", "--game", "bidwhist", "--games", "1", "--seed", "3", "--rules", str(path)]) == 0
    assert "bidwhist: 1 games" in capsys.readouterr().out


def test_rounds_above_sixty_over_players_is_checked_when_players_are_known(tmp_path: Path) -> None:
    path = write(tmp_path, "game: wizard\nrules: {rounds: 12}\n")
    assert wizard_rules(path, players=5).rounds == 12
    with pytest.raises(ConfigError) as info:
        resolve_rules("wizard", path, players=6)
    assert str(info.value) == (
        f"{path}: rules.rounds: must be full or at most 10 with 6 players (60 cards / 6), not 12"
    )


def test_set_that_breaks_a_combination_is_blamed(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        resolve_rules("wizard", preset="uneven", overrides=["bidding=hidden"])
    assert info.value.source == "--set"
    assert "must be off unless bidding is open" in str(info.value)


def test_bad_player_count_is_refused() -> None:
    with pytest.raises(ConfigError, match="Wizard is played by 3 to 6 players, not 7"):
        resolve_rules("wizard", players=7)
    with pytest.raises(ConfigError, match="Bid Whist is played by 4 players, not 3"):
        resolve_rules("bidwhist", players=3)


def test_messages_name_a_game_by_its_registry_entry(oh_hell) -> None:
    """The English title comes from the game's adapter, so a game the settings
    have never heard of (the test-only Oh Hell) is named as it names itself."""
    with pytest.raises(ConfigError) as info:
        check_rule_value("ohhell", "hoook", True, "--set", "")
    assert info.value.problem is not None and info.value.problem.params["game_title"] == "Oh Hell"
    assert game_title("ohhell") == "Oh Hell" and game_title("wizard") == "Wizard"
    assert game_title("poker") == "poker"  # no such game: its name as given


def test_unknown_game_is_refused() -> None:
    with pytest.raises(ConfigError, match="must be one of bidwhist, wizard, not 'poker'"):
        resolve_rules("poker")


# --------------------------------------------------------------------------
# --set KEY=VALUE


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("min_bid=1", ("min_bid", 1)),
        (" target_score = 5 ", ("target_score", 5)),
        ("downtown_outranks_uptown=true", ("downtown_outranks_uptown", True)),
        ("rounds=full", ("rounds", "full")),
        ("renege=penalized", ("renege", "penalized")),
        ("bidding=delayed_reveal", ("bidding", "delayed_reveal")),
    ],
)
def test_parse_set_option(text: str, expected: tuple[str, object]) -> None:
    assert parse_set_option(text) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("min_bid", "--set: min_bid: expected KEY=VALUE"),
        ("=3", "--set: '': missing the key"),
        ("min_bid=", "--set: min_bid: missing the value"),
        ("rounds=[3", "--set: rounds: YAML syntax error"),
    ],
)
def test_malformed_set_option_names_set(text: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_set_option(text)
    assert str(info.value).startswith(fragment)


def test_set_values_are_validated_like_file_values() -> None:
    with pytest.raises(ConfigError) as info:
        resolve_rules("bidwhist", overrides=["min_bid=9"])
    assert str(info.value) == "--set: min_bid: must be a whole number from 1 to 7, not 9"
    with pytest.raises(
        ConfigError, match="--set: min_bids: unknown key; did you mean min_bid\\? Allowed keys for Bid Whist"
    ):
        resolve_rules("bidwhist", overrides=["min_bids=2"])
    assert wizard_rules(overrides=["uneven_bids=off"]).uneven_bids == "off"


# --------------------------------------------------------------------------
# The forgiving front door for the window


def test_load_rules_or_defaults_keeps_defaults_and_says_so(tmp_path: Path) -> None:
    path = write(tmp_path, "game: wizard\nrules: {uneven_bids: sometimes}\n")
    rules, warning = load_rules_or_defaults("wizard", path)
    assert rules == make_rules("wizard")
    assert warning is not None
    assert str(path) in warning and "rules.uneven_bids" in warning
    assert "default Wizard rules" in warning


def test_load_rules_or_defaults_without_problem_has_no_warning() -> None:
    rules, warning = load_rules_or_defaults("bidwhist", preset="short")
    assert warning is None
    assert isinstance(rules, BidWhistRules) and rules.target_score == 5


# --------------------------------------------------------------------------
# App settings


def test_bundled_settings_file_matches_the_dataclass_defaults() -> None:
    data = yaml.safe_load(resource_path("config", "settings.yaml").read_text(encoding="utf-8"))
    assert data == Settings().to_dict()


def test_no_user_settings_file_gives_defaults(tmp_path: Path) -> None:
    settings, warning = load_settings(UserPaths.from_data_dir(tmp_path))
    assert settings == Settings()
    assert warning is None
    assert not (tmp_path / "config").exists()  # reading creates nothing


def test_partial_user_settings_override_defaults(tmp_path: Path) -> None:
    paths = UserPaths.from_data_dir(tmp_path).ensure()
    paths.settings_file.write_text("language: nl\nwindow_size: [1024, 768]\nai_pause_seconds: 2\n", encoding="utf-8")
    settings, warning = load_settings(paths)
    assert warning is None
    assert settings == Settings(language="nl", window_size=(1024, 768), ai_pause_seconds=2.0)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("language: [en\n", "YAML syntax error at line"),
        ("- a list\n", "must be a mapping of setting names to values"),
        ("langauge: nl\n", "langauge: unknown key; did you mean language? Allowed keys: animation_speed, "),
        ("animation_speed: warp\n", "animation_speed: must be one of slow, normal, fast, instant, not 'warp'"),
        ("ai_pause_seconds: 9\n", "ai_pause_seconds: must be a number of seconds from 0 to 5"),
        ("ai_pause_seconds: .nan\n", "ai_pause_seconds: must be a number of seconds from 0 to 5"),
        ("fullscreen: maybe\n", "fullscreen: must be true or false"),
        ("ai_think_seconds: 0\n", "ai_think_seconds: must be null (automatic) or a number of seconds from 0.1 to 2"),
        ("ai_think_seconds: 2.5\n", "ai_think_seconds: must be null (automatic) or a number of seconds from 0.1 to 2"),
        ("ai_think_seconds: true\n", "ai_think_seconds: must be null (automatic) or a number of seconds from 0.1 to 2"),
        ("hints: yes please\n", "hints: must be true or false"),
        ("language: de\n", "language: must be one of en, nl, tr, not 'de'"),
        ("window_size: [640, 480]\n", "window_size: must be [width, height] in whole pixels, at least [800, 600]"),
        ("window_size: 1280x720\n", "window_size: must be [width, height]"),
    ],
)
def test_broken_settings_fall_back_and_leave_the_file_alone(tmp_path: Path, text: str, fragment: str) -> None:
    paths = UserPaths.from_data_dir(tmp_path).ensure()
    paths.settings_file.write_text(text, encoding="utf-8")
    before = paths.settings_file.read_bytes()
    settings, warning = load_settings(paths)
    assert settings == Settings()
    assert warning is not None
    assert warning.startswith(f"{paths.settings_file}: ")
    assert fragment in warning
    assert "left unchanged" in warning
    assert paths.settings_file.read_bytes() == before


def test_unreadable_settings_file_falls_back(tmp_path: Path) -> None:
    paths = UserPaths.from_data_dir(tmp_path).ensure()
    paths.settings_file.mkdir()  # a folder where the file should be
    settings, warning = load_settings(paths)
    assert settings == Settings()
    assert warning is not None and "cannot read the file" in warning
    assert paths.settings_file.is_dir()


def test_save_then_load_round_trips(tmp_path: Path) -> None:
    paths = UserPaths.from_data_dir(tmp_path)
    wanted = Settings(
        animation_speed="fast",
        ai_pause_seconds=0.0,
        ai_think_seconds=1.5,
        hints=False,
        four_colour_deck=True,
        language="tr",
        fullscreen=True,
        window_size=(1920, 1080),
    )
    written = save_settings(wanted, paths)
    assert written == paths.settings_file
    assert load_settings(paths) == (wanted, None)
    assert sorted(p.name for p in paths.config_dir.iterdir()) == ["settings.yaml"]


def test_the_thinking_time_is_automatic_by_default_and_saved_as_null(tmp_path: Path) -> None:
    """Automatic (None, null in the file): each computer level thinks its own default time."""
    paths = UserPaths.from_data_dir(tmp_path)
    assert Settings().ai_think_seconds is None
    assert load_settings(paths)[0].ai_think_seconds is None, "the bundled default is Automatic"
    save_settings(Settings(ai_think_seconds=None), paths)
    assert yaml.safe_load(paths.settings_file.read_text(encoding="utf-8"))["ai_think_seconds"] is None
    assert load_settings(paths) == (Settings(ai_think_seconds=None), None)


@pytest.mark.parametrize("text", ["ai_think_seconds: null\n", "ai_think_seconds: ~\n", "ai_think_seconds:\n"])
def test_a_null_thinking_time_in_the_file_loads_as_automatic(tmp_path: Path, text: str) -> None:
    paths = UserPaths.from_data_dir(tmp_path).ensure()
    paths.settings_file.write_text(text, encoding="utf-8")
    assert load_settings(paths) == (Settings(ai_think_seconds=None), None)


def test_an_old_file_with_a_thinking_time_keeps_it_and_is_not_rewritten(tmp_path: Path) -> None:
    paths = UserPaths.from_data_dir(tmp_path).ensure()
    paths.settings_file.write_text("ai_think_seconds: 0.3\nhints: false\n", encoding="utf-8")
    before = paths.settings_file.read_bytes()
    settings, warning = load_settings(paths)
    assert warning is None and settings.ai_think_seconds == 0.3 and settings.hints is False
    assert paths.settings_file.read_bytes() == before


@pytest.mark.parametrize("value", ["auto", "0.05", "3", "[1]", "yes"])
def test_a_bad_thinking_time_is_refused_naming_both_kinds_of_value(tmp_path: Path, value: str) -> None:
    paths = UserPaths.from_data_dir(tmp_path).ensure()
    paths.settings_file.write_text(f"ai_think_seconds: {value}\n", encoding="utf-8")
    before = paths.settings_file.read_bytes()
    settings, warning = load_settings(paths)
    assert settings.ai_think_seconds is None, "a bad value falls back to Automatic"
    assert warning is not None
    assert "ai_think_seconds: must be null (automatic) or a number of seconds from 0.1 to 2, not " in warning
    assert paths.settings_file.read_bytes() == before


def test_save_refuses_invalid_settings(tmp_path: Path) -> None:
    paths = UserPaths.from_data_dir(tmp_path)
    with pytest.raises(ConfigError, match="language: must be one of en, nl, tr"):
        save_settings(Settings(language="xx"), paths)
    assert not paths.settings_file.exists()
