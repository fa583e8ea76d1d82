"""tools.behaviour_snapshot's comparison: a byte changed, or a file only on one side, is a difference."""

from __future__ import annotations

from pathlib import Path

from tools.behaviour_snapshot import differences, main


def test_a_changed_byte_and_a_file_on_one_side_only_are_reported(tmp_path: Path, capsys) -> None:
    before, after = tmp_path / "before", tmp_path / "after"
    for folder in (before, after):
        (folder / "screens").mkdir(parents=True)
        (folder / "same.jsonl").write_bytes(b'{"a": 1}\n')
    (before / "screens" / "start.png").write_bytes(b"\x89PNG one")
    (after / "screens" / "start.png").write_bytes(b"\x89PNG two")
    (before / "gone.txt").write_text("only before", encoding="utf-8")
    (after / "new.txt").write_text("only after", encoding="utf-8")
    assert differences(before, after) == ["gone.txt", "new.txt", "screens/start.png"]
    assert main(["--compare", str(before), str(after)]) == 1
    assert "differs: screens/start.png" in capsys.readouterr().out


def test_identical_snapshots_compare_clean(tmp_path: Path) -> None:
    for folder in ("before", "after"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "game.jsonl").write_bytes(b"same\n")
    assert differences(tmp_path / "before", tmp_path / "after") == []
    assert main(["--compare", str(tmp_path / "before"), str(tmp_path / "after")]) == 0
