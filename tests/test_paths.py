"""Tests for game.settings.paths: bundled resources, user folders and atomic writes."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs
import pytest

from game.settings.paths import UserPaths, atomic_write_bytes, atomic_write_text, resource_path

REPO_ROOT = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------
# resource_path


def test_resource_path_from_source_is_the_repository_root() -> None:
    assert resource_path() == REPO_ROOT
    assert resource_path("config", "bidwhist.yaml") == REPO_ROOT / "config" / "bidwhist.yaml"
    assert resource_path("config", "wizard.yaml").is_file()
    assert resource_path("config", "settings.yaml").is_file()


def test_resource_path_when_frozen_uses_meipass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert resource_path("config", "wizard.yaml") == tmp_path / "config" / "wizard.yaml"


def test_resource_path_frozen_without_meipass_uses_executable_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.delattr(sys, "_MEIPASS", raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "TrickTable.exe"))
    assert resource_path("assets") == tmp_path.resolve() / "assets"


def test_meipass_is_ignored_when_not_frozen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert resource_path("config") == REPO_ROOT / "config"


# --------------------------------------------------------------------------
# UserPaths


def test_data_dir_redirects_every_user_path(tmp_path: Path) -> None:
    user = UserPaths.from_data_dir(str(tmp_path))
    root = tmp_path.resolve()
    assert user.config_dir == root / "config"
    assert user.histories_dir == root / "histories"
    assert user.saves_dir == root / "saves"
    assert user.log_dir == root / "logs"
    assert user.data_dir == root
    assert user.settings_file == root / "config" / "settings.yaml"
    for folder in user.all_dirs():
        assert folder == root or root in folder.parents


def test_folders_are_created_only_on_ensure(tmp_path: Path) -> None:
    user = UserPaths.from_data_dir(tmp_path / "portable")
    assert not (tmp_path / "portable").exists()
    assert user.ensure() is user
    for folder in user.all_dirs():
        assert folder.is_dir()
    user.ensure()  # a second call is harmless


def test_without_data_dir_platformdirs_locations_are_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str, object]] = []

    def fake(kind: str):
        def location(appname: str, appauthor: object = None) -> str:
            calls.append((kind, appname, appauthor))
            return str(tmp_path / kind)

        return location

    for kind in ("user_config_dir", "user_data_dir", "user_log_dir"):
        monkeypatch.setattr(platformdirs, kind, fake(kind))  # the module game.settings.paths reads
    user = UserPaths.from_data_dir(None)
    assert user.config_dir == tmp_path / "user_config_dir"
    assert user.data_dir == tmp_path / "user_data_dir"
    assert user.log_dir == tmp_path / "user_log_dir"
    assert user.saves_dir == tmp_path / "user_data_dir" / "saves"
    assert user.histories_dir == tmp_path / "user_data_dir" / "histories"
    assert {(app, author) for _, app, author in calls} == {("TrickTable", False)}
    assert list(tmp_path.iterdir()) == []  # nothing created just by asking


# --------------------------------------------------------------------------
# Atomic writes


def test_atomic_write_text_creates_parent_and_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "new" / "folder" / "settings.yaml"
    atomic_write_text(target, "language: nl\n")
    assert target.read_text(encoding="utf-8") == "language: nl\n"
    assert os.listdir(target.parent) == ["settings.yaml"]


def test_atomic_write_replaces_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "save.json"
    atomic_write_text(target, "old")
    atomic_write_bytes(target, b"\x00new\xff")
    assert target.read_bytes() == b"\x00new\xff"
    assert os.listdir(tmp_path) == ["save.json"]


def test_atomic_write_keeps_text_exactly(tmp_path: Path) -> None:
    target = tmp_path / "history.txt"
    text = "line one\r\nline two\nçğış\n"
    atomic_write_text(target, text)
    assert target.read_bytes() == text.encode("utf-8")


def test_failed_write_keeps_old_file_and_no_temp_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "settings.yaml"
    target.write_text("old contents", encoding="utf-8")

    def broken_replace(src: str, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)  # the os.replace game.settings.paths calls
    with pytest.raises(OSError, match="disk full"):
        atomic_write_text(target, "new contents")
    assert target.read_text(encoding="utf-8") == "old contents"
    assert os.listdir(tmp_path) == ["settings.yaml"]


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_atomic_write_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path) -> None:
    target = tmp_path / "shared.yaml"
    target.write_text("x", encoding="utf-8")
    target.chmod(0o644)
    atomic_write_text(target, "y")
    assert target.stat().st_mode & 0o777 == 0o644
