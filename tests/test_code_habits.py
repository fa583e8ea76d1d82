"""Every `# noqa` left in the code names the rules it silences and says why
(ruff's RUF100 reports one that silences nothing; this reports one without a
reason)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
# A reasoned one: "noqa:", its codes (E402, F401), then the reason in brackets.
JUSTIFIED = re.compile(r"#\s*noqa:\s*[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*\s+\(\S[^)]*\)")
NOQA = re.compile(r"#\s*noqa\b", re.IGNORECASE)


def _python_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "*.py", "*.spec"], cwd=REPO_ROOT, capture_output=True, text=True)
    if listed.returncode == 0 and listed.stdout.strip():
        return [REPO_ROOT / name for name in listed.stdout.split()]
    return sorted(path for path in REPO_ROOT.rglob("*.py") if ".venv" not in path.parts)


def unjustified_noqa(text: str) -> list[int]:
    """The numbers of the lines whose `# noqa` lacks its codes or its reason."""
    return [
        number for number, line in enumerate(text.splitlines(), 1) if NOQA.search(line) and not JUSTIFIED.search(line)
    ]


def test_the_pattern_tells_a_reasoned_noqa_from_a_bare_one() -> None:
    assert unjustified_noqa("import x  # noqa: F401  (imported for its registration)") == []
    assert unjustified_noqa("import x  # noqa: E402,F401  (after sys.path)") == []
    assert unjustified_noqa("import x  # noqa: F401") == [1]
    assert unjustified_noqa("import x  # noqa") == [1]
    assert unjustified_noqa("a = 1\nimport x  # NOQA: E402 ()") == [2]


def test_every_noqa_in_the_code_says_why() -> None:
    this_file = Path(__file__).resolve()  # its examples above are bare on purpose
    bare = [
        f"{path.relative_to(REPO_ROOT)}:{number}"
        for path in _python_files()
        if path.is_file() and path.resolve() != this_file
        for number in unjustified_noqa(path.read_text(encoding="utf-8"))
    ]
    assert bare == []
