"""Tidying the user's folders when the program starts."""

from __future__ import annotations

# A program killed at the wrong moment (or a power cut, or a full disk) can
# leave two kinds of debris: the temporary file of an atomic write that never
# got renamed, and a history file whose last game was only partly written.
# Neither may linger: temporary files would pile up for ever, and a torn last
# line would swallow the next game appended after it. ``tidy_user_files``
# clears both once at start-up and logs what it did; nothing the player made
# is deleted (a torn history tail is set aside in a ".damaged" file).

import logging

from game.persistence.history_files import repair_history_folder
from game.settings.paths import UserPaths, remove_stale_temp_files

log = logging.getLogger("tricktable.housekeeping")


def tidy_user_files(user_paths: UserPaths) -> None:
    """Remove stale temporary files and repair torn history tails in ``user_paths``' folders."""
    for path in remove_stale_temp_files(user_paths.all_dirs()):
        log.info("removed %s, left over from a write that was cut short", path)
    repair_history_folder(user_paths.histories_dir)  # logs each repair itself
