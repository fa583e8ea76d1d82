"""No YAML file can exhaust or crash the program (issue 11, item 1).

Every YAML text the program reads goes through ``game.settings.yaml_files``: an alias
bomb, a key given twice, a file over 256 KB, nesting a thousand levels deep
and a value of hundreds of kilobytes each get one short message naming the
file and the line, in rules files (``simulate --rules``), ``settings.yaml``
(the window still starts, on the default settings), ``last_setup.yaml`` and
``--set`` values.

The tests that feed a bomb or a huge file run under ``memory_ceiling``: the
process may grow by ``HEADROOM`` bytes at most, so a loader that starts
expanding fails the test with a MemoryError in seconds instead of taking the
machine's memory (the code before this issue grew to 3.4 GB on the bomb).
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import resource
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from game.program.cli import EXIT_USAGE, main
from game.rules.house_rules import BidWhistRules
from game.settings.app_settings import Settings, load_settings, save_settings
from game.settings.house_rule_files import ConfigError, load_rule_file, parse_set_option, resolve_rules
from game.settings.last_setup import LastSetup, load_last_setup, save_last_setup
from game.settings.paths import UserPaths
from game.settings.yaml_files import MAX_YAML_BYTES, QUOTE_LIMIT, YamlFileError, parse_yaml_text, quote

HEADROOM = 768 * 1024 * 1024
# A refused file is refused at once: far below the 43 s a 50 MB file took.
PROMPT_SECONDS = 2.0
# The longest message a bad value may produce (the allowed values are listed in full).
MAX_MESSAGE = 400


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """A "billion laughs": each level a list of ``width`` aliases of the level before (9**9 strings)."""
    names = [chr(ord("a") + level) for level in range(levels)]
    lines = [f"{names[0]}: &{names[0]} [" + ",".join(['"lol"'] * width) + "]"]
    for before, name in zip(names, names[1:]):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{before}"] * width) + "]")
    return "\n".join(lines) + "\n"


def _address_space() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


@pytest.fixture
def memory_ceiling() -> Iterator[None]:
    """Let the test grow the process by ``HEADROOM`` at most (Linux), then lift the limit again."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    ceiling = _address_space() + HEADROOM
    if hard != resource.RLIM_INFINITY:
        ceiling = min(ceiling, hard)
    resource.setrlimit(resource.RLIMIT_AS, (ceiling, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def sparse_file(path: Path, size: int) -> Path:
    """A file of ``size`` bytes that takes no room on the disk (all zero bytes)."""
    with open(path, "wb") as handle:
        handle.truncate(size)
    return path


# ---------------------------------------------------------------- the alias bomb


def test_the_bomb_is_the_small_file_of_the_issue() -> None:
    text = alias_bomb()
    assert len(text.encode()) < 440
    assert text.count("*") == 8 * 9


def test_an_alias_bomb_in_a_rules_file_is_refused_at_once_naming_the_line(tmp_path, memory_ceiling) -> None:
    path = write(tmp_path / "house.yaml", "game: wizard\n" + alias_bomb())
    began = time.perf_counter()
    with pytest.raises(ConfigError) as info:
        load_rule_file(path)
    assert time.perf_counter() - began < PROMPT_SECONDS
    message = str(info.value)
    assert message == (
        f"{path}: anchor &a at line 2: anchors and aliases (&name, *name) are not allowed in Trick Table files"
    )


def test_simulate_with_an_alias_bomb_exits_2_with_one_line_and_no_traceback(tmp_path, capsys, memory_ceiling) -> None:
    path = write(tmp_path / "bomb.yaml", alias_bomb())
    code = main(["simulate", "--game", "wizard", "--games", "1", "--rules", str(path)])
    out, err = capsys.readouterr()
    assert code == EXIT_USAGE
    assert out == ""
    assert err.strip() == (
        f"error: {path}: anchor &a at line 1: anchors and aliases (&name, *name) are not allowed in Trick Table files"
    )


def test_an_alias_alone_is_refused_too() -> None:
    # Refused at the alias even where the anchor went unnoticed (one line, flow style).
    with pytest.raises(YamlFileError, match="alias \\*x at line 2"):
        parse_yaml_text("a: 1\nb: *x\n", "f.yaml")


def test_a_bomb_in_settings_falls_back_to_the_defaults_and_the_window_starts(tmp_path, memory_ceiling) -> None:
    from game.ui.app import App
    from game.ui.scenes.start_scene import StartScene

    user = UserPaths.from_data_dir(tmp_path).ensure()
    bomb = "language: nl\n" + alias_bomb()
    write(user.settings_file, bomb)
    settings, warning = load_settings(user)
    assert settings.language == "nl", "the readable line still counts"
    assert warning is not None and f"{user.settings_file}: anchor &a at line 2" in warning
    assert len(warning) < MAX_MESSAGE

    app = App(data_dir=str(tmp_path), size=(800, 600))
    try:
        assert isinstance(app.top_scene(), StartScene)
        assert app.toast.active, "the player is told the settings could not all be read"
        assert app.settings.language == "nl"
        app.settings.hints = False
        app.save_settings()
    finally:
        app.close(quit_pygame=False)
    [backup] = sorted(user.config_dir.glob("settings.yaml.bad-*"))
    assert backup.read_text(encoding="utf-8") == bomb, "the bad file is kept, byte for byte"
    saved = yaml.safe_load(user.settings_file.read_text(encoding="utf-8"))
    assert (saved["hints"], saved["language"]) == (False, "nl")


def test_a_bomb_in_the_last_setup_is_ignored(tmp_path, memory_ceiling) -> None:
    user = UserPaths.from_data_dir(tmp_path).ensure()
    write(user.last_setup_file, alias_bomb())
    assert load_last_setup(user) is None
    save_last_setup(LastSetup("wizard", 4, ["A"], ["human"], ["medium"], "standard"), user)
    assert len(list(user.config_dir.glob("last_setup.yaml.bad-*"))) == 1


def test_a_set_value_cannot_hold_an_alias(memory_ceiling) -> None:
    with pytest.raises(ConfigError, match="--set: rounds: anchor &a at line 1"):
        parse_set_option("rounds=[&a [1, 2], *a]")


# ---------------------------------------------------------------- duplicate keys


def test_a_key_given_twice_in_a_rules_file_is_refused(tmp_path) -> None:
    path = write(tmp_path / "house.yaml", "game: wizard\nrules:\n  rounds: 3\n  bidding: open\n  rounds: 5\n")
    with pytest.raises(ConfigError) as info:
        load_rule_file(path)
    assert str(info.value) == f"{path}: duplicate key rounds at line 5 (already given at line 3)"


def test_a_duplicate_in_a_flat_rules_file_is_refused(tmp_path) -> None:
    path = write(tmp_path / "house.yaml", "target_score: 5\ntarget_score: 9\n")
    with pytest.raises(ConfigError, match="duplicate key target_score at line 2 \\(already given at line 1\\)"):
        resolve_rules("bidwhist", path)


def test_a_setting_given_twice_falls_back_and_the_others_count(tmp_path) -> None:
    user = UserPaths.from_data_dir(tmp_path).ensure()
    write(user.settings_file, "language: nl\nhints: false\nlanguage: tr\n")
    settings, warning = load_settings(user)
    assert settings.language == Settings().language, "neither of two values is trusted"
    assert settings.hints is False
    assert warning is not None and "duplicate key language at line 3 (already given at line 1)" in warning
    assert "Using the default language" in warning


def test_duplicate_keys_in_the_last_setup_make_it_unusable(tmp_path) -> None:
    user = UserPaths.from_data_dir(tmp_path).ensure()
    save_last_setup(LastSetup("wizard", 4, ["A"], ["human"], ["medium"], "standard"), user)
    text = user.last_setup_file.read_text(encoding="utf-8")
    write(user.last_setup_file, text + "players: 5\n")
    assert load_last_setup(user) is None


# ---------------------------------------------------------------- size and depth


def test_a_rules_file_over_the_limit_is_refused_without_reading_it(tmp_path, memory_ceiling) -> None:
    path = sparse_file(tmp_path / "huge.yaml", 2 * HEADROOM)
    began = time.perf_counter()
    with pytest.raises(ConfigError) as info:
        load_rule_file(path)
    assert time.perf_counter() - began < PROMPT_SECONDS
    assert str(info.value) == f"{path}: the file is larger than 256 KB; it cannot be a Trick Table file"


def test_a_comment_just_over_the_limit_is_refused_and_one_just_under_is_read(tmp_path) -> None:
    head = "target_score: 5\n# "
    under = write(tmp_path / "under.yaml", head + "x" * (MAX_YAML_BYTES - len(head) - 1) + "\n")
    assert under.stat().st_size == MAX_YAML_BYTES
    rules = resolve_rules("bidwhist", under)
    assert isinstance(rules, BidWhistRules) and rules.target_score == 5
    over = write(tmp_path / "over.yaml", head + "x" * (MAX_YAML_BYTES - len(head)) + "\n")
    with pytest.raises(ConfigError, match="larger than 256 KB"):
        resolve_rules("bidwhist", over)


def test_a_huge_settings_file_falls_back_to_the_defaults_without_being_read(tmp_path, memory_ceiling) -> None:
    user = UserPaths.from_data_dir(tmp_path).ensure()
    sparse_file(user.settings_file, 2 * HEADROOM)
    began = time.perf_counter()
    settings, warning = load_settings(user)
    assert time.perf_counter() - began < PROMPT_SECONDS
    assert settings == Settings()
    assert warning is not None and "larger than 256 KB" in warning and "Using the default settings" in warning


def test_a_settings_file_over_the_limit_is_backed_up_whole_before_a_save(tmp_path) -> None:
    user = UserPaths.from_data_dir(tmp_path).ensure()
    text = "language: nl\n# " + "x" * MAX_YAML_BYTES + "\n"
    write(user.settings_file, text)
    settings, warning = load_settings(user)
    assert settings == Settings() and warning is not None
    save_settings(settings, user)
    [backup] = sorted(user.config_dir.glob("settings.yaml.bad-*"))
    assert backup.read_text(encoding="utf-8") == text
    assert load_settings(user) == (settings, None)


def test_deep_nesting_is_refused_with_its_line(tmp_path) -> None:
    path = write(tmp_path / "deep.yaml", "game: wizard\nrules: " + "[" * 1000 + "]" * 1000 + "\n")
    with pytest.raises(ConfigError) as info:
        load_rule_file(path)
    assert str(info.value) == f"{path}: nesting deeper than 32 levels at line 2"


def test_nesting_as_deep_as_our_files_go_is_read() -> None:
    text = "presets:\n  short:\n    rules:\n      rounds: [[[[[1]]]]]\n"
    assert parse_yaml_text(text, "f.yaml")["presets"]["short"]["rules"]["rounds"] == [[[[[1]]]]]


# ---------------------------------------------------------------- a long bad value is quoted short


def test_a_long_bad_value_is_quoted_by_a_short_prefix(tmp_path) -> None:
    long_word = "sometimes" * 20_000
    path = write(tmp_path / "house.yaml", f"game: wizard\nrules:\n  uneven_bids: {long_word}\n")
    message = str(pytest.raises(ConfigError, load_rule_file, path).value)
    assert len(message) < MAX_MESSAGE
    assert message.startswith(
        f"{path}: rules.uneven_bids: must be one of off, always, leader_only, not '{long_word[:20]}"
    )


def test_a_long_unknown_key_is_named_by_a_short_prefix(tmp_path) -> None:
    key = "k" * 100_000
    path = write(tmp_path / "house.yaml", f"? {key}\n: 1\n")  # a key over 1,024 characters is written so
    message = str(pytest.raises(ConfigError, resolve_rules, "wizard", path).value)
    assert len(message) < MAX_MESSAGE
    assert f"{path}: {'k' * QUOTE_LIMIT}... (100,000 characters): unknown key;" in message


def test_a_long_bad_setting_is_quoted_by_a_short_prefix(tmp_path) -> None:
    user = UserPaths.from_data_dir(tmp_path).ensure()
    write(user.settings_file, f"language: {'x' * 200_000}\nhints: false\n")
    settings, warning = load_settings(user)
    assert settings.hints is False and settings.language == Settings().language
    assert warning is not None and len(warning) < MAX_MESSAGE + len(str(user.settings_file))


@pytest.mark.parametrize("text", ["x" * 100_000, "x" * 100_000 + "=", "x" * 100_000 + "=[1"])
def test_a_long_set_option_is_quoted_by_a_short_prefix(text) -> None:
    message = str(pytest.raises(ConfigError, parse_set_option, text).value)
    assert len(message) < MAX_MESSAGE


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("short", "'short'"),
        ("y" * 70, f"{'y' * QUOTE_LIMIT!r}... (70 characters)"),
        (7, "7"),
        (True, "True"),
        (10**1000, "a number of about 1,000 digits"),
        (list(range(100)), "a list of 100 entries"),
        ([1, 2], "[1, 2]"),
    ],
)
def test_quote_keeps_a_value_short(value, shown) -> None:
    assert quote(value) == shown


def test_only_the_guarded_loader_reads_yaml() -> None:
    """Every YAML text goes through game.settings.yaml_files: no other module of the program loads YAML itself."""
    root = Path(__file__).resolve().parent.parent / "game"
    loaders = ("safe_load", "yaml.load", "full_load", "unsafe_load", "yaml.compose", "yaml.parse")
    offenders = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if path.name != "yaml_files.py" and any(name in path.read_text(encoding="utf-8") for name in loaders)
    ]
    assert offenders == []
