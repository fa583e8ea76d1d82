"""Write the table's sound effects to ``assets/sounds/*.wav``, synthesised from nothing."""

from __future__ import annotations

# Usage::
#
#     python tools/make_sounds.py [SOUNDS_DIR]
#
# Every effect is computed here from sine waves and seeded noise, with the
# standard library only (``math``, ``random``, ``array``, ``wave``), so the
# sounds are the project's own and the same bytes come out on every run: the
# noise generators are seeded with the effect's name, and nothing depends on
# the clock. ``tests/test_audio.py`` rebuilds them and compares with the
# committed files, so a change to a recipe shows up as a changed WAV in the
# same commit.
#
# The files are mono, 16-bit PCM. The rustling effects (a card, a deal, the
# shuffle, a trick swept in) are written at 22,050 samples a second for their
# crisp top end; the tuned ones (a bid, the turn chime, the win and loss
# figures) need less and are written at 11,025, which keeps all eight under
# 100 KB together. pygame's mixer converts each to its own rate on loading.
#
# The aim is short, soft and pleasant: the noises are filtered down to a
# paper-like rustle, the notes are bell-like (a fundamental with two quiet
# overtones and a gentle exponential decay), every sound starts and ends at
# silence (no click at either edge), and peaks stay well below full scale so
# several effects at once never clip.

import math
import random
import sys
import wave
from array import array
from collections.abc import Callable
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT_ROOT))

from game.ui.audio import EFFECTS, SOUNDS_FOLDER  # noqa: E402  (sys.path must name the project first)

RUSTLE_RATE = 22050  # noises: their brightness lives above 5 kHz
TONE_RATE = 11025  # tuned notes: fundamentals and overtones stay below 4 kHz
EDGE_SECONDS = 0.004  # every sound fades in and out over this long, so neither edge clicks

Samples = list[float]

# Equal-tempered pitches (A4 = 440 Hz) of the notes the chimes use.
C4, E_FLAT4, G4, C5, E5, G5, A5, C6 = 261.63, 311.13, 392.00, 523.25, 659.26, 783.99, 880.00, 1046.50


# ---------------------------------------------------------------------------- building blocks


def silence(rate: int, seconds: float) -> Samples:
    return [0.0] * round(rate * seconds)


def white_noise(rng: random.Random, count: int) -> Samples:
    return [rng.uniform(-1.0, 1.0) for _ in range(count)]


def low_pass(samples: Samples, cutoff: float, rate: int) -> Samples:
    """A one-pole low-pass filter: soft, with no ringing."""
    alpha = 1.0 - math.exp(-2.0 * math.pi * cutoff / rate)
    out: Samples = []
    level = 0.0
    for value in samples:
        level += alpha * (value - level)
        out.append(level)
    return out


def high_pass(samples: Samples, cutoff: float, rate: int) -> Samples:
    """What the low-pass at ``cutoff`` takes away: the rumble goes, the hiss stays."""
    return [value - low for value, low in zip(samples, low_pass(samples, cutoff, rate))]


def band(samples: Samples, low: float, high: float, rate: int) -> Samples:
    return low_pass(high_pass(samples, low, rate), high, rate)


def decay(count: int, rate: int, attack: float, tau: float) -> Samples:
    """An envelope: a linear rise over ``attack`` seconds, then an exponential fall (time constant ``tau``)."""
    rise = max(1, round(attack * rate))
    return [i / rise if i < rise else math.exp(-(i - rise) / (tau * rate)) for i in range(count)]


def swell(count: int, peak_at: float) -> Samples:
    """A smooth rise to 1 at ``peak_at`` (a fraction of the length) and back to 0 (a skewed sine arch)."""
    out: Samples = []
    for i in range(count):
        x = i / max(1, count - 1)
        phase = x / peak_at * 0.5 if x < peak_at else 0.5 + (x - peak_at) / (1.0 - peak_at) * 0.5
        out.append(math.sin(math.pi * phase))
    return out


def shaped(samples: Samples, envelope: Samples, gain: float = 1.0) -> Samples:
    return [value * level * gain for value, level in zip(samples, envelope)]


def bell(frequency: float, rate: int, seconds: float, tau: float, brightness: float = 1.0) -> Samples:
    """A soft bell-like note: the fundamental with a quiet octave and twelfth, a quick attack
    and an exponential ring-out (the overtones die away faster than the fundamental)."""
    count = round(rate * seconds)
    step = 2.0 * math.pi * frequency / rate
    attack = round(0.005 * rate)
    out: Samples = []
    for i in range(count):
        rise = min(1.0, i / attack)
        t = i / rate
        value = (
            math.sin(step * i) * math.exp(-t / tau)
            + 0.28 * brightness * math.sin(2.0 * step * i) * math.exp(-t / (tau * 0.5))
            + 0.09 * brightness * math.sin(3.0 * step * i) * math.exp(-t / (tau * 0.3))
        )
        out.append(rise * value)
    return out


def mix_into(target: Samples, sound: Samples, at_seconds: float, rate: int, gain: float = 1.0) -> None:
    """Add ``sound`` to ``target`` from ``at_seconds`` on (whatever would overrun the end is cut)."""
    start = round(at_seconds * rate)
    for i, value in enumerate(sound[: max(0, len(target) - start)]):
        target[start + i] += value * gain


def finished(samples: Samples, rate: int, peak: float) -> Samples:
    """Scaled to ``peak`` (a fraction of full scale) and faded at both edges."""
    loudest = max((abs(value) for value in samples), default=0.0) or 1.0
    out = [value * peak / loudest for value in samples]
    edge = max(1, round(EDGE_SECONDS * rate))
    for i in range(min(edge, len(out))):
        fade = i / edge
        out[i] *= fade
        out[-1 - i] *= fade
    return out


def card_snap(rng: random.Random, rate: int, tau: float, low: float, high: float) -> Samples:
    """One card meeting another: a short band of noise with a quick attack and a fast fall."""
    count = round(rate * (tau * 6 + 0.002))
    return shaped(band(white_noise(rng, count), low, high, rate), decay(count, rate, 0.0015, tau))


# ---------------------------------------------------------------------------- the effects


def card_played(rng: random.Random) -> tuple[int, Samples]:
    """A card slid off the hand and laid on the felt: a short rising swish, then a soft snap."""
    rate = RUSTLE_RATE
    out = silence(rate, 0.11)
    swish_count = round(rate * 0.05)
    swish = shaped(band(white_noise(rng, swish_count), 1200, 5000, rate), swell(swish_count, 0.85), 0.35)
    mix_into(out, swish, 0.0, rate)
    mix_into(out, card_snap(rng, rate, 0.011, 700, 3800), 0.042, rate)
    return rate, finished(out, rate, 0.5)


def deal(rng: random.Random) -> tuple[int, Samples]:
    """One card of the deal landing: a light flick, quieter and shorter than a card played."""
    rate = RUSTLE_RATE
    out = silence(rate, 0.05)
    mix_into(out, card_snap(rng, rate, 0.006, 1500, 6000), 0.001, rate)
    return rate, finished(out, rate, 0.3)


def shuffle(rng: random.Random) -> tuple[int, Samples]:
    """A riffle shuffle: a ripple of flicks that quickens and softens over a quiet rustle,
    closed by the low pat of the halves squared together."""
    rate = RUSTLE_RATE
    seconds = 0.42
    out = silence(rate, seconds)
    bed_count = round(rate * 0.34)
    bed = shaped(band(white_noise(rng, bed_count), 600, 2500, rate), swell(bed_count, 0.3), 0.18)
    mix_into(out, bed, 0.0, rate)
    at, gap = 0.01, 0.026
    while at < 0.33:
        level = rng.uniform(0.55, 1.0) * (1.0 - at * 1.2)
        mix_into(out, card_snap(rng, rate, 0.004, 1800, 6500), at, rate, level)
        at += gap * rng.uniform(0.8, 1.2)
        gap = max(0.011, gap * 0.93)
    pat_count = round(rate * 0.06)
    pat = shaped(low_pass(white_noise(rng, pat_count), 500, rate), decay(pat_count, rate, 0.002, 0.012), 1.3)
    mix_into(out, pat, 0.345, rate)
    return rate, finished(out, rate, 0.45)


def trick_won(rng: random.Random) -> tuple[int, Samples]:
    """The trick swept to its winner: a soft swish of cards, then one low, round note."""
    rate = RUSTLE_RATE
    out = silence(rate, 0.34)
    swish_count = round(rate * 0.2)
    swish = shaped(band(white_noise(rng, swish_count), 700, 3500, rate), swell(swish_count, 0.35), 0.5)
    mix_into(out, swish, 0.0, rate)
    mix_into(out, bell(G4, rate, 0.2, 0.06, brightness=0.5), 0.13, rate, 0.45)
    return rate, finished(out, rate, 0.42)


def bid(rng: random.Random) -> tuple[int, Samples]:
    """A bid placed: a short wooden tock (a damped note with a tick of noise on top)."""
    rate = TONE_RATE
    out = silence(rate, 0.12)
    mix_into(out, bell(A5, rate, 0.12, 0.025, brightness=0.6), 0.0, rate)
    tick_count = round(rate * 0.01)
    tick = shaped(high_pass(white_noise(rng, tick_count), 1500, rate), decay(tick_count, rate, 0.0005, 0.002), 0.5)
    mix_into(out, tick, 0.0, rate)
    return rate, finished(out, rate, 0.4)


def your_turn(rng: random.Random) -> tuple[int, Samples]:
    """Your turn: a gentle two-note chime rising a fourth."""
    rate = TONE_RATE
    out = silence(rate, 0.5)
    mix_into(out, bell(E5, rate, 0.5, 0.16), 0.0, rate, 0.8)
    mix_into(out, bell(A5, rate, 0.38, 0.16), 0.12, rate)
    return rate, finished(out, rate, 0.42)


def game_won(rng: random.Random) -> tuple[int, Samples]:
    """The game won: a bright rising arpeggio that rings out on a chord."""
    rate = TONE_RATE
    out = silence(rate, 0.85)
    notes = (C5, E5, G5, C6)
    for index, pitch in enumerate(notes):
        at = index * 0.09
        ring = 0.3 if index == len(notes) - 1 else 0.12
        mix_into(out, bell(pitch, rate, 0.85 - at, ring), at, rate, 0.8 if index < 3 else 1.0)
    # The chord under the last note: the lower notes struck again, softly.
    for pitch in (E5, G5):
        mix_into(out, bell(pitch, rate, 0.55, 0.25, brightness=0.5), 0.3, rate, 0.35)
    return rate, finished(out, rate, 0.45)


def game_lost(rng: random.Random) -> tuple[int, Samples]:
    """The game lost: a gentle falling figure in minor, mellow and unhurried."""
    rate = TONE_RATE
    out = silence(rate, 0.9)
    for index, pitch in enumerate((G4, E_FLAT4, C4)):
        at = index * 0.19
        mix_into(out, bell(pitch, rate, 0.9 - at, 0.16 if index < 2 else 0.28, brightness=0.4), at, rate)
    return rate, finished(out, rate, 0.4)


RECIPES: dict[str, Callable[[random.Random], tuple[int, Samples]]] = {
    "shuffle": shuffle,
    "deal": deal,
    "card_played": card_played,
    "trick_won": trick_won,
    "your_turn": your_turn,
    "bid": bid,
    "game_won": game_won,
    "game_lost": game_lost,
}


# ---------------------------------------------------------------------------- writing


def render(name: str) -> tuple[int, array]:
    """The effect ``name`` as (sample rate, 16-bit samples), from its recipe and a generator seeded by its name."""
    rate, samples = RECIPES[name](random.Random(f"tricktable-sound:{name}"))
    pcm = array("h", (max(-32767, min(32767, round(value * 32767))) for value in samples))
    return rate, pcm


def wav_path(folder: Path, name: str) -> Path:
    return folder / f"{name}.wav"


def write_wav(path: Path, rate: int, pcm: array) -> None:
    data = array("h", pcm)
    if sys.byteorder == "big":
        data.byteswap()  # WAV samples are little-endian
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(data.tobytes())


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else PROJECT_ROOT.joinpath(*SOUNDS_FOLDER)
    missing = set(EFFECTS) - set(RECIPES)
    if missing:
        raise SystemExit(f"make_sounds: no recipe for {', '.join(sorted(missing))}")
    folder.mkdir(parents=True, exist_ok=True)
    total = 0
    for name in EFFECTS:
        rate, pcm = render(name)
        path = wav_path(folder, name)
        write_wav(path, rate, pcm)
        size = path.stat().st_size
        total += size
        print(f"{path.name:16} {len(pcm) / rate:5.2f} s  {size / 1024:5.1f} KB")
    print(f"wrote {len(EFFECTS)} sounds to {folder} ({total / 1024:.1f} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
