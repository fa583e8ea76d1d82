"""What a UI test expects to find in the app, named for the type checker.

``app.scenes[-1]`` is only a base ``Scene``, a table's session only the
``TableSession`` protocol and the app's autosaver None in a window that leaves
the saves to another; a test that goes on to use what its dialog, the local
game behind a table or the autosaver has says which one it expects here, and
fails plainly when something else is there.
"""

from __future__ import annotations

from typing import TypeVar

from game.persistence.savegame import Autosaver
from game.session.local import LocalSession
from game.session.match import Match
from game.ui.app import App
from game.ui.scene import Scene
from game.ui.table.scene import TableScene

SceneT = TypeVar("SceneT", bound=Scene)


def top(app: App, kind: type[SceneT]) -> SceneT:
    """The scene on top of ``app``, which must be a ``kind``."""
    scene = app.top_scene()
    assert isinstance(scene, kind), f"expected {kind.__name__} on top, found {type(scene).__name__}"
    return scene


def local_session_of(table: TableScene) -> LocalSession:
    """The session of a table played on this computer."""
    session = table.session
    assert isinstance(session, LocalSession), f"expected a local session, found {type(session).__name__}"
    return session


def match_of(table: TableScene) -> Match:
    """The match a table on this computer is played on."""
    return local_session_of(table).match


def autosaver(app: App) -> Autosaver:
    """The autosaver of ``app``, which must hold the saves of its data folder."""
    assert app.autosaver is not None, "this window does not hold the saves"
    return app.autosaver
