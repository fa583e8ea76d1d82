"""Measure how long Trick Table takes from launch to its first frame."""

from __future__ import annotations

# Usage::
#
#     python tools/measure_startup.py [--runs N] [--exe dist/TrickTable/TrickTable]
#                                     [--onefile dist/onefile/TrickTable] [--xvfb]
#
# Each run starts the program as a player would (``python main.py`` from the
# source tree, then the one-folder build) with ``TRICKTABLE_STARTUP_PROBE`` set
# to a file name. The app writes ``time.time()`` to that file in its data
# folder (never anywhere else, see ``game.program.startup_probe``) right after its
# first ``pygame.display.flip()`` and exits; the time taken is that stamp minus
# the ``time.time()`` taken just before ``subprocess.Popen``. So the figure
# covers interpreter (or bootloader) start, imports, opening the window and
# drawing the start screen once.
#
# The window goes to the X display in ``DISPLAY`` when there is one (with
# ``--xvfb`` the script starts its own virtual screen, and stops only that
# server when done); without a display SDL's dummy driver is used, which skips
# the cost of talking to an X server. The report says which. Every run uses
# one temporary ``--data-dir``, so the user's own settings and logs are
# neither read nor written. It also prints the size on disk of the one-folder
# build and of the one-file build when it exists.

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_EXE = PROJECT_ROOT / "dist" / "TrickTable" / "TrickTable"
ONEFILE_CANDIDATES = (PROJECT_ROOT / "dist" / "onefile" / "TrickTable", PROJECT_ROOT / "dist" / "TrickTable")
RUN_TIMEOUT = 60.0
GOALS = {"from source": 0.6, "one-folder build": 1.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Launch-to-first-frame time of Trick Table.")
    parser.add_argument("--runs", type=int, default=10, help="runs per program (default 10)")
    parser.add_argument("--exe", type=Path, default=DEFAULT_EXE, help="the one-folder build's executable")
    parser.add_argument("--onefile", type=Path, help="also time this one-file build (default: size only, if found)")
    parser.add_argument("--xvfb", action="store_true", help="start a virtual X screen (Xvfb) for the runs")
    parser.add_argument("--skip-source", action="store_true", help="time only the built program(s)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    xvfb = _start_xvfb() if args.xvfb else None
    try:
        env, screen = _display_env(xvfb)
        print(f"window: {screen}; {args.runs} runs each")
        programs: list[tuple[str, list[str]]] = []
        if not args.skip_source:
            programs.append(("from source", [sys.executable, str(PROJECT_ROOT / "main.py")]))
        if args.exe.is_file():
            programs.append(("one-folder build", [str(args.exe)]))
        else:
            print(f"one-folder build: not found at {args.exe} (build it: pyinstaller --noconfirm pyinstaller.spec)")
        if args.onefile is not None:
            programs.append(("one-file build", [str(args.onefile)]))
        failed = False
        with tempfile.TemporaryDirectory(prefix="tricktable-startup-") as scratch:
            for label, command in programs:
                try:
                    times = [_time_first_frame(command, Path(scratch), env) for _ in range(args.runs)]
                except RuntimeError as exc:
                    print(f"{label}: FAILED: {exc}")
                    failed = True
                    continue
                print(_report(label, times))
        _print_sizes(args.exe, args.onefile)
        return 1 if failed else 0
    finally:
        if xvfb is not None:
            xvfb.terminate()
            xvfb.wait(timeout=10)


def _time_first_frame(command: list[str], scratch: Path, env: dict[str, str]) -> float:
    # The program writes the probe only as a new file in its data folder.
    data_dir = scratch / "data"
    probe = data_dir / "first-frame.txt"
    probe.unlink(missing_ok=True)
    run_env = dict(env, TRICKTABLE_STARTUP_PROBE=probe.name)
    full = command + ["--data-dir", str(data_dir)]
    launched = time.time()
    process = subprocess.Popen(
        full, cwd=PROJECT_ROOT, env=run_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        _, errors = process.communicate(timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise RuntimeError(f"{command[-1]} showed no first frame within {RUN_TIMEOUT:.0f} s") from None
    if process.returncode != 0 or not probe.is_file():
        last = (errors.strip().splitlines() or ["no message"])[-1]
        raise RuntimeError(f"{command[-1]} exited with status {process.returncode}: {last}")
    return float(probe.read_text(encoding="utf-8")) - launched


def _report(label: str, times: list[float]) -> str:
    median = statistics.median(times)
    goal = GOALS.get(label)
    verdict = "" if goal is None else f"  (goal {goal:.1f} s: {'met' if median <= goal else 'MISSED'})"
    return (
        f"{label:17s} median {median:.3f} s, min {min(times):.3f} s, max {max(times):.3f} s"
        f" over {len(times)} runs{verdict}"
    )


def _display_env(xvfb: subprocess.Popen | None) -> tuple[dict[str, str], str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("SDL_")}
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    if xvfb is not None:
        env["DISPLAY"] = xvfb.display  # type: ignore[attr-defined]
        return env, f"virtual X screen (Xvfb {env['DISPLAY']}, started by this script)"
    if env.get("DISPLAY"):
        return env, f"X display {env['DISPLAY']}"
    env["SDL_VIDEODRIVER"] = "dummy"
    return env, "SDL dummy video driver (no DISPLAY; use --xvfb for a virtual X screen)"


def _start_xvfb() -> subprocess.Popen:
    if shutil.which("Xvfb") is None:
        raise SystemExit("--xvfb: Xvfb is not installed")
    for number in range(99, 120):
        if Path(f"/tmp/.X{number}-lock").exists():
            continue  # some other server's display: leave it alone
        display = f":{number}"
        server = subprocess.Popen(
            ["Xvfb", display, "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        socket = Path(f"/tmp/.X11-unix/X{number}")
        for _ in range(100):
            if socket.exists() or server.poll() is not None:
                break
            time.sleep(0.05)
        if server.poll() is None and socket.exists():
            server.display = display  # type: ignore[attr-defined]
            return server
        server.terminate()
        server.wait(timeout=10)
    raise SystemExit("--xvfb: could not start Xvfb on displays :99 to :119")


def _print_sizes(exe: Path, onefile: Path | None) -> None:
    folder = exe.parent
    if folder.is_dir():
        print(f"one-folder build size: {_size(folder) / 1e6:.1f} MB ({folder})")
    candidates = [onefile] if onefile is not None else list(ONEFILE_CANDIDATES)
    for path in candidates:
        if path is not None and path.is_file():
            print(f"one-file build size:   {path.stat().st_size / 1e6:.1f} MB ({path})")
            break


def _size(folder: Path) -> int:
    """Bytes on disk of every file under ``folder`` (what ``du -s`` adds up, in whole blocks)."""
    total = 0
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            stat = path.stat()
            total += getattr(stat, "st_blocks", 0) * 512 or stat.st_size
    return total


if __name__ == "__main__":
    sys.exit(main())
