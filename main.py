"""Trick Table: start the window, or run a headless command (see ``--help``)."""

import sys

from game.program.entry import run

if __name__ == "__main__":
    sys.exit(run())
