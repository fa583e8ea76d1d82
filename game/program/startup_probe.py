"""The start-up probe of ``tools/measure_startup.py``: the time of the first frame."""

from __future__ import annotations

# With ``TRICKTABLE_STARTUP_PROBE`` set, the window writes ``time.time()`` to
# a file right after its first frame and closes, so the tool can time a launch.
# The variable could be set by anyone who can set a player's environment, so
# it may only ever name a new file inside the program's own data folder: its
# value must be a plain file name (letters, digits, ``-``, ``_``, ``.``, not
# starting with a dot), the file is created in the data folder and never
# written over. Any other value (a path, ``../x``, an existing file's name) is
# ignored, and the program runs as usual.

import os
import re
import time
from collections.abc import Mapping
from pathlib import Path

PROBE_VARIABLE = "TRICKTABLE_STARTUP_PROBE"
_PLAIN_FILE_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}")


def probe_file(data_dir: Path, environ: Mapping[str, str] | None = None) -> Path | None:
    """Where to write the first frame's time, or None when no (acceptable) probe was asked for."""
    name = (os.environ if environ is None else environ).get(PROBE_VARIABLE, "")
    if not _PLAIN_FILE_NAME.fullmatch(name):
        return None
    return data_dir / name


def write_first_frame_time(path: Path) -> bool:
    """Write the time now to ``path``, a file that must not exist yet; whether it was written."""
    try:
        with open(path, "x", encoding="utf-8") as handle:
            handle.write(repr(time.time()))
    except OSError:
        return False
    return True
