"""The table's sound effects: which there are, and the one object that plays them."""

from __future__ import annotations

# The effects are short WAV files under ``assets/sounds/``, synthesised by
# ``tools/make_sounds.py`` (the project makes its own sounds; nothing is
# recorded or downloaded) and bundled with the program like the other assets.
# ``EFFECTS`` names them all; the table plays them by these names, and a name
# that is not here is a programming error (``ValueError``).
#
# The app owns one ``SoundBoard``. It does nothing until the first sound is
# asked for: only then does it open pygame's mixer and load the files, so a
# program that stays muted never touches the audio device, and starting the
# program costs nothing. The settings screen, opened with the sound on, asks
# ``find_device`` at once, so it can say next to the volume that no device was
# found. Every failure is quiet. A machine without an audio
# device, an SDL audio driver that cannot start, or a mixer that raises on
# ``init`` leaves the board silent for the rest of the run, with one line in
# the log; a sound file that is missing or unreadable silences that effect
# alone, also with one log line. Nothing here raises into a scene.
#
# Each sound plays at the volume of the settings of the moment (``volume``,
# 0 to 100 %, and ``mute``), read when it starts, so a change on the settings
# screen counts from the next sound on. The volume is set on the ``Sound``
# object, since pygame-ce resets a channel's own volume whenever a sound
# starts on it. The same effect asked for again within ``REPEAT_GAP`` seconds
# is not started twice: at the ``instant`` animation speed a whole deal lands
# in one frame, and fifty-two clicks at once would be one loud crack.
#
# The board does no work per frame; it is called only when something happens
# at the table.

import contextlib
import logging
import os
import sys
import time
import wave
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

import pygame

from game.settings.app_settings import MAX_VOLUME
from game.settings.paths import resource_path

log = logging.getLogger("tricktable.audio")

SHUFFLE = "shuffle"
DEAL = "deal"
CARD_PLAYED = "card_played"
TRICK_WON = "trick_won"
YOUR_TURN = "your_turn"
BID = "bid"
GAME_WON = "game_won"
GAME_LOST = "game_lost"
EFFECTS = (SHUFFLE, DEAL, CARD_PLAYED, TRICK_WON, YOUR_TURN, BID, GAME_WON, GAME_LOST)

SOUNDS_FOLDER = ("assets", "sounds")
# The mixer's own format: every file is converted to it once, on loading.
MIXER_FREQUENCY = 44100
MIXER_CHANNELS = 2
MIXER_BUFFER = 512  # samples: short enough that a card's click keeps up with its flight
MIXER_VOICES = 16  # effects that may sound at once (a deal overlaps its clicks)
REPEAT_GAP = 0.03  # seconds within which the same effect is not started again


class SoundSettings(Protocol):
    """What the board reads from the app's settings."""

    volume: int
    mute: bool


def sound_file(name: str) -> Path:
    """The bundled WAV file of effect ``name``."""
    return resource_path(*SOUNDS_FOLDER, f"{name}.wav")


def sound_file_problems() -> list[str]:
    """What is wrong with the bundled sound files: empty when every effect's file is a readable,
    non-empty WAV (the self-test asks this of a built program)."""
    problems: list[str] = []
    for name in EFFECTS:
        path = sound_file(name)
        try:
            with wave.open(str(path), "rb") as wav:
                if wav.getnframes() == 0:
                    problems.append(f"{path.name} holds no sound")
        except (OSError, EOFError, wave.Error) as exc:
            problems.append(f"{path.name}: {exc}")
    return problems


@contextlib.contextmanager
def native_stderr_silenced() -> Iterator[None]:
    """Hide what native libraries print to the process's standard error meanwhile.

    Opening the mixer on a machine without a sound card makes ALSA print a
    screenful of its own errors straight to file descriptor 2, bypassing
    Python; the board logs one line of its own instead. Where there is no
    descriptor 2 to redirect (a windowed build on Windows) nothing is done.
    """
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):
        yield
        return
    try:
        quiet = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(quiet, 2)
        finally:
            os.close(quiet)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def loudness(volume: int, mute: bool) -> float:
    """The mixer volume (0.0 to 1.0) for a setting of ``volume`` percent, or 0.0 when muted.

    The percentage is squared: the ear hears loudness roughly logarithmically,
    so a linear scale would crowd every audible change into the low steps.
    """
    if mute:
        return 0.0
    share = max(0, min(MAX_VOLUME, int(volume))) / MAX_VOLUME
    return share * share


class SoundBoard:
    """Plays the named effects at the settings' volume; silent, never failing, without a device.

    ``settings`` returns the app's settings when a sound starts (the app's
    object is changed in place by the settings screen). ``clock`` is
    replaceable so a test can step time.
    """

    def __init__(self, settings: Callable[[], SoundSettings], clock: Callable[[], float] = time.monotonic) -> None:
        self._settings = settings
        self._clock = clock
        self._sounds: dict[str, pygame.mixer.Sound] = {}  # loaded pygame Sound objects, by effect
        self._unusable: set[str] = set()  # effects whose file could not be loaded (logged once)
        self._last_started: dict[str, float] = {}
        self._disabled = False  # the mixer could not be opened: silent from now on
        self._opened = False  # the board opened the mixer (and owns its Sounds)

    @property
    def available(self) -> bool:
        """False once the mixer has failed to open; until then sound is assumed to work."""
        return not self._disabled

    def play(self, name: str) -> bool:
        """Start effect ``name`` at the settings' volume; whether it started."""
        settings = self._settings()
        return self.play_at(name, settings.volume, settings.mute)

    def play_at(self, name: str, volume: int, mute: bool) -> bool:
        """Start effect ``name`` at ``volume`` percent (the settings screen's preview of a new volume)."""
        if name not in EFFECTS:
            raise ValueError(f"no sound effect named {name!r}; the effects are {', '.join(EFFECTS)}")
        level = loudness(volume, mute)
        if level <= 0.0 or self._disabled:
            return False
        now = self._clock()
        last = self._last_started.get(name)
        if last is not None and now - last < REPEAT_GAP:
            return False
        sound = self._sound(name)
        if sound is None:
            return False
        try:
            sound.set_volume(level)
            channel = sound.play()
        except Exception as exc:  # a mixer that fails mid-game: go quiet, never crash a scene
            self._give_up(f"playing {name} failed ({exc})")
            return False
        self._last_started[name] = now
        return channel is not None

    def find_device(self) -> bool:
        """Whether sound can play, opening the mixer now if it is not open yet: the settings
        screen asks, to tell a player without a sound device why the game is silent."""
        return self._ready()

    def sound(self, name: str) -> pygame.mixer.Sound | None:
        """The loaded ``pygame.mixer.Sound`` of ``name`` (opening the mixer if needed), or None."""
        return self._sound(name)

    # ------------------------------------------------------------------ the mixer
    def _ready(self) -> bool:
        """The mixer is open (opening it now if it is not); False when sound is off for this run."""
        if self._disabled:
            return False
        try:
            if pygame.mixer.get_init() is not None:
                return True
            if self._opened:
                # pygame was shut down and started again (tools, tests): the old
                # Sounds belonged to the closed mixer.
                self._sounds.clear()
            with native_stderr_silenced():
                pygame.mixer.init(frequency=MIXER_FREQUENCY, size=-16, channels=MIXER_CHANNELS, buffer=MIXER_BUFFER)
            pygame.mixer.set_num_channels(MIXER_VOICES)
        except Exception as exc:  # no device, no driver, no mixer module: all mean "no sound"
            self._give_up(f"the audio device could not be opened ({exc})")
            return False
        self._opened = True
        return True

    def _sound(self, name: str) -> pygame.mixer.Sound | None:
        if name in self._unusable or not self._ready():
            return None
        sound = self._sounds.get(name)
        if sound is not None:
            return sound
        path = sound_file(name)
        try:
            sound = pygame.mixer.Sound(str(path))
        except Exception as exc:  # missing or damaged file: this effect alone stays silent
            self._unusable.add(name)
            log.warning("the sound %s cannot be played: %s", path, exc)
            return None
        self._sounds[name] = sound
        return sound

    def _give_up(self, why: str) -> None:
        self._disabled = True
        self._sounds.clear()
        log.warning("sound is off for this session: %s", why)
