"""The program's entry point: the command line, ended quietly however it ends."""

from __future__ import annotations

# ``main.py`` (and so the built program) runs ``run()``. Whatever stops the
# program, the person at the terminal sees one short line, never a traceback:
#
# - Ctrl-C (``KeyboardInterrupt``), in the window or in a headless command,
#   ends it with "stopped" and exit status 130, as a shell reports a program
#   stopped by Ctrl-C. The window closes its scenes and writes its last
#   autosave first (``App.run``).
# - SIGTERM, SIGHUP (or SIGBREAK on Windows) in the window closes it without
#   asking, after the last autosave, with exit status 128 plus the signal's
#   number (143 for SIGTERM; ``game.ui.app``). A headless command keeps the
#   signals' usual meaning.
# - A closed pipe (``simulate ... | head``): the reader has all it wanted, so
#   nothing is said; standard output is pointed at the null device, so the
#   interpreter's own last flush cannot complain, and the exit status is 141,
#   a shell's status for a program ended by SIGPIPE.
# - Any other exception that reached this far is a fault of the program: its
#   traceback goes to the log file (``game.program.log_setup``), and the line names
#   that file when it exists. Exit status 70 (EX_SOFTWARE in sysexits.h).
#   An exception that ends a worker thread, or one raised where Python can
#   only ignore it, is logged the same way and the program carries on.

import os
import sys
import threading
from collections.abc import Sequence

EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
EXIT_SOFTWARE_FAULT = 70


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line (``sys.argv`` by default); the exit status."""
    # pygame prints a greeting on import; a desktop program (and a CLI) should
    # not. Set here, before anything imports pygame, so that main.py and the
    # installed ``tricktable`` command both start quietly.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    # An exception that ends a worker thread, or one Python can only ignore
    # (in a finaliser), would print a traceback: it goes to the log instead.
    threading.excepthook = _thread_fault
    sys.unraisablehook = _ignored_fault
    try:
        # Imported here, inside the guard: a Ctrl-C during the imports
        # (pygame takes a moment) is quiet too.
        from game.program.cli import main

        status = main(argv, log_to_user_folder=True)
        if sys.stdout is not None:  # a windowed build has no standard output
            sys.stdout.flush()  # a pipe closed by now is reported here, not at exit
        return status
    except KeyboardInterrupt:
        _say("\nTrick Table: stopped (Ctrl-C)")  # on its own line, after the terminal's ^C
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except Exception as exc:
        return _fault(exc)


def _fault(exc: Exception) -> int:
    """Log an unexpected exception's traceback to the log file; tell the terminal in one line."""
    from game.persistence.history_schema import short_repr
    from game.program.log_setup import write_to_log_file

    path = write_to_log_file("Trick Table stopped on an unexpected error", exc)
    where = f"the details are in {path}" if path is not None else "no log file could be written"
    _say(f"Trick Table stopped on an unexpected error ({type(exc).__name__}: {short_repr(str(exc))}); {where}")
    return EXIT_SOFTWARE_FAULT


def _thread_fault(args: threading.ExceptHookArgs) -> None:
    if args.exc_value is None or isinstance(args.exc_value, SystemExit):
        return
    _log_only(f"the thread {args.thread.name if args.thread else '?'} stopped on an unexpected error", args.exc_value)


def _ignored_fault(args: sys.UnraisableHookArgs) -> None:
    if args.exc_value is not None:
        _log_only(f"an error Python had to ignore ({args.err_msg or 'in a finaliser'})", args.exc_value)


def _log_only(message: str, exc: BaseException) -> None:
    """A fault the program carries on after: its traceback to the log file, one line to the terminal."""
    from game.program.log_setup import write_to_log_file

    path = write_to_log_file(message, exc)
    _say(f"Trick Table: {message} ({type(exc).__name__})" + (f"; the details are in {path}" if path else ""))


def _say(line: str) -> None:
    """One line on standard error, if there is one to write to (a windowed build has none)."""
    try:
        if sys.stderr is not None:
            sys.stderr.write(f"{line}\n")
            sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _silence_stdout() -> None:
    """Point standard output at the null device, so nothing more (not even the
    interpreter's flush at exit) writes to the closed pipe."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
