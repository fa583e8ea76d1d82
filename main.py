"""Trick Table: start the window, or run a headless command (see ``--help``)."""

import os
import sys

# pygame prints a greeting on import; a desktop program (and a CLI) should not.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from game.program.entry import run  # noqa: E402

if __name__ == "__main__":
    sys.exit(run())
