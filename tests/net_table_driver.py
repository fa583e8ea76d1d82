"""Plays a network table through its window, as a person would, for the network UI tests.

``decide(app, scene)`` makes the one decision the top of the window asks for (a
bid, a trump or contract, the kitty, a card dragged to the trick, the score pad's
button), from the legal actions of the seat's own view: the test never looks at
the server's game to play.
"""

from __future__ import annotations

import time

from game.rules import ActionKind
from game.ui.app import App
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.contract_chooser import ContractChooser
from game.ui.dialogs.cover_scene import CoverScene
from game.ui.dialogs.kitty_dialog import KittyDialog
from game.ui.dialogs.score_pad import ScorePad
from game.ui.table.scene import TableScene
from scene_checks import top
from test_ui_table import card_centre, click, drag, step, top_name, wait_past_cover_guard


def decide(app: App, scene: TableScene) -> bool:
    """Make the decision the window asks for, if it asks; True when one was made."""
    name = top_name(app)
    if name == "BiddingPanel":
        legal = scene.session.view(scene.viewer).game.legal_actions
        click(app, top(app, BiddingPanel).buttons[legal[0]].rect.center)
    elif name == "ContractChooser":
        click(app, next(button for button in top(app, ContractChooser).buttons if button.enabled).rect.center)
    elif name == "KittyDialog":
        kitty = top(app, KittyDialog)
        for choice in kitty.cards[-kitty.discard_count :]:
            click(app, choice.rect.center)
        click(app, kitty.confirm.rect.center)
    elif name == "CoverScene":
        wait_past_cover_guard(app)  # hot seat: the next player passes the cover
        click(app, top(app, CoverScene).button.rect.center)
    elif name == "ScorePad":
        click(app, top(app, ScorePad).close_button.rect.center)
    elif app.scenes[-1] is scene and scene.input_enabled():
        view = scene.session.view(scene.viewer).game
        card = sorted(action.value for action in view.legal_actions if action.kind == ActionKind.PLAY)[0]
        drag(app, card_centre(scene, card), scene.layout.trick_rect.center)
    else:
        return False
    return True


def play_tables(tables: list[tuple[App, TableScene]], done, seconds: float = 60.0, watch=None) -> bool:
    """Run every table's frames, deciding as asked, until ``done()`` (bounded in time);
    ``watch(app, scene)`` looks at each frame before its decision."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if done():
            return True
        acted = False
        for app, scene in tables:
            step(app)
            if watch is not None:
                watch(app, scene)
            acted = decide(app, scene) or acted
        if not acted:
            time.sleep(0.0005)  # the answers travel: let the network threads run
    if not done():
        for app, scene in tables:  # what each table was waiting for, to read in the failure
            session = scene.session
            print(
                f"stuck: top {top_name(app)}, position {session.position}, phase {session.phase.name}, "
                f"to act {session.current_player}, viewer {scene.viewer}, awaiting {scene._awaiting}, "
                f"waiting on others {session.waiting_on_others()}, director idle {scene.director.idle}"
            )
    return done()
