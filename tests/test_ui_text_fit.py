"""Every piece of UI text fits its box, whole, at every window size the game supports.

The dialogs and screens draw their text through ``game.ui.widgets.text``
(``draw_text_fit``, ``draw_text_wrapped``) and the text cache's ``fit``. An
audit wraps those while a screen is drawn and records each string that
did not fit its box whole: a line shortened with an ellipsis, wrapped lines
dropped for lack of height, or ink outside the box it was given. Each
dialog (open over a real table, which keeps it clear of its corner panels)
and each screen around the games is drawn at 800x600, 1280x720 and
1920x1080 with the longest realistic values filled in: six players, names as
long as the name field takes with Dutch and Turkish letters, round 10 of
Wizard, the widest contracts. Every refusal reason and hint of the
catalogue (``assets/i18n/<language>.yaml``), filled with the longest values, is
shown in the strip under each dialog. Every check runs in English, Dutch and
Turkish.

A second group checks the type itself: the words of a phrase are separated
by a space wider than any gap inside a word ("Two teams", never "Twoteams"
or "kit ty"), in the regular and the bold face at every size the interface
uses; both faces are true faces of the pinned family with its licence and
draw the Dutch and Turkish letters; a missing family falls back with a
logged warning; and the self-test fails a build without them.
"""

from __future__ import annotations

import os
import string

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from dataclasses import dataclass, field
from collections.abc import Iterator

import pygame
import pytest
from ui_states import (
    WINDOW_SIZES,
    PreviewApp,
    contract_state,
    discard_state,
    finished_match,
    window_for_module,
    wizard_bid_state,
)

from game.settings.app_settings import LANGUAGES, Settings
from game.session.match import Match, Seat
from game.rules import apply, make_rules, new_game
from game.rules.actions import PASS, bid
from game.ui import theme
from game.ui.app import App
from game.ui.art.render_cache import TEXT
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.contract_chooser import ContractChooser
from game.ui.dialogs.cover_scene import CoverScene
from game.persistence.history_codec import score_history
from game.ui.dialogs.end_scene import EndScene
from game.ui.dialogs.kitty_dialog import KittyDialog
from game.ui.dialogs.score_pad import ScorePad
from game.ui.scene import Scene
from game.ui.scenes.rules_editor import RulesEditor
from game.ui.scenes.settings_scene import SettingsScene
from game.ui.scenes.start_scene import NAME_LENGTH, StartScene
from game.session.ai_worker import InlineAiRunner
from game.session.local import local_session
from game.ui.table.scene import TableScene
from game.ui.text import SOURCE_LANGUAGE, set_language, t
from game.ui.text import catalog as catalog_of
from game.ui.widgets import text as text_module
from game.ui.widgets.dialog import DialogScene

# First names of a usual length, with the Dutch and Turkish letters the type must draw.
USUAL_NAMES = ["Şükrü", "Gülşen", "Bartjan", "İlknur", "Annelies", "Ömer"]
# Names as long as the name field takes (NAME_LENGTH characters).
LONGEST_NAMES = ["Şükrü Çelikkol", "Maximiliaan V.", "Gülşen Yıldız", "Bartholomeüs", "İlknur Doğan", "Annemarieke"]

PIXEL_SLACK = 1  # anti-aliasing may touch the pixel just outside a box


@dataclass
class TextAudit:
    """What did not fit while a screen was drawn: (text, why) pairs, and everything drawn."""

    problems: list[tuple[str, str]] = field(default_factory=list)
    drawn: list[str] = field(default_factory=list)
    styles: dict[str, set[tuple[int, bool]]] = field(default_factory=dict)
    _images: dict[int, str] = field(default_factory=dict)

    def report(self) -> str:
        seen: dict[tuple[str, str], None] = {}
        for problem in self.problems:
            seen.setdefault(problem)
        return "\n".join(f"  {why}: {text!r}" for text, why in seen)


display = window_for_module((1280, 720))


@pytest.fixture
def audit(monkeypatch) -> TextAudit:
    """Wrap the text helpers so every cut or overflowing string is recorded."""
    found = TextAudit()
    render_text, aligned = text_module.render_text, text_module._aligned
    ellipsize, fit_wrapped = text_module.ellipsize, text_module.fit_wrapped
    cache_fit = TEXT.fit

    def recording_render(text, size, colour=theme.TEXT, bold=False):
        image = render_text(text, size, colour, bold)
        found._images[id(image)] = text
        found.drawn.append(text)
        found.styles.setdefault(text, set()).add((size, bold))
        return image

    def checking_aligned(image, rect, align):
        placed = aligned(image, rect, align)
        ink = image.get_bounding_rect().move(placed.topleft)
        if ink.width and not rect.inflate(2 * PIXEL_SLACK, 2 * PIXEL_SLACK).contains(ink):
            found.problems.append((found._images.get(id(image), "?"), f"ink {ink} outside its box {rect}"))
        return placed

    def checking_ellipsize(text, max_width, size, bold=False):
        shown = ellipsize(text, max_width, size, bold)
        if shown != text:
            found.problems.append((text, f"cut to {shown!r} (box {max_width} px wide)"))
        return shown

    def checking_fit_wrapped(text, width, height, size, bold=False, min_size=text_module.MIN_TEXT_SIZE):
        fitted, lines = fit_wrapped(text, width, height, size, bold, min_size)
        if len(lines) * text_module.line_height(fitted, bold) > height:
            found.problems.append((text, f"{len(lines)} lines do not fit {width}x{height}"))
        return fitted, lines

    def checking_cache_fit(text, size, colour, max_width, bold=False, shadow=False, smallest=10):
        image = cache_fit(text, size, colour, max_width, bold, shadow, smallest=smallest)
        found.drawn.append(text)
        if TEXT.render(text, smallest, colour, bold, shadow).get_width() > max_width:
            found.problems.append((text, f"cut (box {max_width} px wide)"))
        return image

    monkeypatch.setattr(text_module, "render_text", recording_render)
    monkeypatch.setattr(text_module, "_aligned", checking_aligned)
    monkeypatch.setattr(text_module, "ellipsize", checking_ellipsize)
    monkeypatch.setattr(text_module, "fit_wrapped", checking_fit_wrapped)
    monkeypatch.setattr(TEXT, "fit", checking_cache_fit)
    return found


@pytest.fixture(autouse=True, params=LANGUAGES)
def language(request) -> Iterator[str]:
    """Each check in each language: Dutch and Turkish words are often longer than the English."""
    set_language(request.param)
    yield request.param
    set_language(SOURCE_LANGUAGE)


@pytest.fixture
def app():
    """The few App features the dialogs use; its size is the window size drawn at."""
    return PreviewApp((1280, 720))


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> Iterator[dict[str, TableScene]]:
    """Real tables the dialogs open over, as in a game: they keep the dialogs clear of
    their corner panels, which is what made the trump chooser narrow at 800x600."""
    real_app = App(
        data_dir=str(tmp_path_factory.mktemp("text-fit")),
        size=(1280, 720),
        settings=Settings(animation_speed="instant", ai_pause_seconds=0.0),
        show_start=False,
    )
    made = {}
    for game, players in (("bidwhist", 4), ("wizard", 6)):
        seats = [Seat(name, "human" if seat == 0 else "ai:random") for seat, name in enumerate(USUAL_NAMES[:players])]
        match = Match(make_rules(game, players=players), seats, 3)
        made[game] = TableScene(real_app, local_session(match, real_app, ai_runner=InlineAiRunner()))
    yield made
    real_app.close(quit_pygame=False)


def _noop(*_args) -> None:
    return None


def _draw(app, scene, size: tuple[int, int]) -> None:
    app.size = size
    if hasattr(scene, "relayout"):
        scene.relayout(size)
    scene.draw(pygame.Surface(size))


def _check(audit: TextAudit, what: str) -> None:
    assert not audit.problems, f"{what}: text that does not fit its box:\n{audit.report()}"


# ---------------------------------------------------------------------------- the screens


def _widest_bidwhist_contract_state():
    """A Bid Whist state at the declarer's trump choice after the highest suit bid, 7 downtown."""
    state, _ = new_game(make_rules("bidwhist"), 4, 3)
    state, _ = apply(state, bid(7, 1))
    for _ in range(3):
        state, _ = apply(state, PASS)
    return state


def dialogs(app, tables, names: list[str] = USUAL_NAMES) -> Iterator[tuple[str, Scene]]:
    """Each dialog of a game, open over its table, with the longest realistic values in it."""
    names4 = names[:4]
    bidwhist_table, wizard_table = tables["bidwhist"], tables["wizard"]
    state = _widest_bidwhist_contract_state()
    yield (
        "trump chooser (Bid Whist)",
        ContractChooser(app, state.view(state.current_player), _noop).attach_host(bidwhist_table),
    )
    state = contract_state(mode=2)
    yield (
        "no-trump ranking chooser",
        ContractChooser(app, state.view(state.current_player), _noop).attach_host(bidwhist_table),
    )
    state = discard_state()
    yield "kitty dialog", KittyDialog(app, state.view(state.current_player), _noop).attach_host(bidwhist_table)
    state = wizard_bid_state(players=6, rounds_played=9)
    yield (
        "Wizard bidding, 6 players, round 10",
        BiddingPanel(app, state.view(state.current_player), names, _noop).attach_host(wizard_table),
    )
    state, _ = new_game(make_rules("bidwhist"), 4, 3)
    state, _ = apply(state, bid(4, 0))
    yield (
        "Bid Whist bidding",
        BiddingPanel(app, state.view(state.current_player), names4, _noop).attach_host(bidwhist_table),
    )
    wizard = finished_match("wizard", players=6, seed=2)
    yield (
        "Wizard score pad, 6 players",
        ScorePad(app, score_history(wizard.history()), names, _noop).attach_host(wizard_table),
    )
    bidwhist = finished_match("bidwhist", seed=8)
    yield (
        "Bid Whist score pad",
        ScorePad(app, score_history(bidwhist.history()), names4, _noop).attach_host(bidwhist_table),
    )
    yield (
        "Wizard game over, 6 players",
        EndScene(app, score_history(wizard.history()), names, _noop, _noop).attach_host(wizard_table),
    )
    yield (
        "Bid Whist game over",
        EndScene(app, score_history(bidwhist.history()), names4, _noop, _noop).attach_host(bidwhist_table),
    )
    yield "hot-seat cover", CoverScene(app, names[0], _noop)


def screens(app) -> Iterator[tuple[str, Scene]]:
    """The screens around the games: start, house rules and settings."""
    start = StartScene(app)
    yield "start screen (Bid Whist)", start
    wizard_start = StartScene(app)
    wizard_start.set_game("wizard")
    wizard_start.set_players(6)
    yield "start screen (Wizard, 6 players)", wizard_start
    named = StartScene(app)
    named.set_game("wizard")
    named.set_players(6)
    for seat, name in enumerate(LONGEST_NAMES):
        named.names[seat] = name
        named.name_inputs[seat].text = name
    yield "start screen (Wizard, 6 players with the longest names)", named
    yield "house rules (Bid Whist)", RulesEditor(app, "bidwhist", {}, {}, 4, _noop)
    yield "house rules (Wizard)", RulesEditor(app, "wizard", {}, {}, 6, _noop)
    yield "settings", SettingsScene(app)


def test_the_longest_names_are_as_long_as_a_name_may_be():
    assert max(len(name) for name in LONGEST_NAMES) == NAME_LENGTH


def _misfits(app, audit: TextAudit, scenes, size: tuple[int, int]) -> str:
    """Draw each (name, scene) at ``size``; what did not fit, scene by scene."""
    problems = []
    for what, scene in scenes:
        audit.problems.clear()
        _draw(app, scene, size)
        if audit.problems:
            problems.append(f"{what}:\n{audit.report()}")
    return "\n".join(problems)


@pytest.mark.parametrize("size", WINDOW_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_every_dialog_of_a_game_fits_its_text(app, tables, audit, size):
    misfits = _misfits(app, audit, dialogs(app, tables), size)
    assert not misfits, "text that does not fit its box:\n" + misfits


@pytest.mark.parametrize("size", WINDOW_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_every_dialog_fits_names_of_the_longest_length(app, tables, audit, size):
    """Six names as long as the name field takes: the Bid Whist pad's team columns cut
    "Şükrü Çelikkol & Gül…" and the six bid chips cut every name at 800x600."""
    misfits = _misfits(app, audit, dialogs(app, tables, LONGEST_NAMES), size)
    assert not misfits, "text that does not fit its box:\n" + misfits


@pytest.mark.parametrize("size", WINDOW_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_screens_around_the_games_fit_their_text(app, audit, size):
    misfits = _misfits(app, audit, screens(app), size)
    assert not misfits, "text that does not fit its box:\n" + misfits


def test_the_trump_chooser_shows_whole_captions_and_one_bold_size_at_800x600(app, tables, audit):
    """The issue's cases: "4 in your ha..." was cut, and "Diamonds" was drawn smaller and not bold."""
    state = _widest_bidwhist_contract_state()
    chooser = ContractChooser(app, state.view(state.current_player), _noop).attach_host(tables["bidwhist"])
    _draw(app, chooser, (800, 600))
    _check(audit, "trump chooser at 800x600")
    suits = [t(f"suit.{suit}") for suit in range(4)]
    styles = set().union(*(audit.styles[name] for name in suits))
    assert len(styles) == 1 and all(bold for _, bold in styles), (
        f"the suits are drawn at (size, bold) {sorted(styles)}, not in one bold size"
    )


def test_the_six_player_score_pad_heads_every_column_whole_at_800x600(app, tables, audit):
    """The issue's case: "Took" was cut to "T..." with six players at 800x600."""
    wizard = finished_match("wizard", players=6, seed=2)
    pad = ScorePad(app, score_history(wizard.history()), USUAL_NAMES, _noop).attach_host(tables["wizard"])
    _draw(app, pad, (800, 600))
    _check(audit, "six-player score pad at 800x600")
    assert t("pad.took") in audit.drawn


# ---------------------------------------------------------------------------- reasons and hints

# The longest realistic value of each template parameter of the string tables.
LONGEST_VALUES: dict[str, object] = {
    "a": 13,
    "b": 12,
    "bid": "7 no trump",
    "bids": 10,
    "books": 7,
    "card": "the 10 of diamonds",
    "cards": 10,
    "direction": "downtown",
    "high": "6 no trump",
    "max": 10,
    "min": 3,
    "mode": "downtown",
    "n": 10,
    "name": LONGEST_NAMES[0],
    "suit": "diamonds",
    "total": 13,
}


def _filled(key: str, **values: object) -> str:
    template = t(key)
    fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    return template.format(**{name: values[name] if name in values else LONGEST_VALUES[name] for name in fields})


def reasons_and_hints() -> list[str]:
    """Every refusal reason and every hint, as the reason strip under a dialog shows them."""
    catalog = catalog_of(SOURCE_LANGUAGE)
    messages = [_filled(key) for key in catalog if key.startswith("error.")]
    actions = [_filled(key) for key in catalog if key.startswith("hint.do.")]
    longest_action = max(actions, key=len)
    reasons = [
        _filled(key)
        for key in catalog
        if key.startswith("hint.")
        and not key.startswith("hint.do.")
        and "{" in catalog[key]
        and key not in ("hint.with_reason", "hint.alone")
    ]
    reasons += [
        catalog[key]
        for key in catalog
        if key.startswith("hint.") and "{" not in catalog[key] and key not in ("hint.button", "hint.thinking")
    ]
    messages += [_filled("hint.with_reason", action=longest_action, reason=reason) for reason in reasons]
    return messages


@pytest.mark.parametrize("size", WINDOW_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_every_reason_and_hint_fits_the_strip_under_each_dialog(app, tables, audit, size):
    messages = reasons_and_hints()
    assert len(messages) > 30
    problems = []
    for what, scene in dialogs(app, tables, LONGEST_NAMES):
        if not isinstance(scene, DialogScene):  # the reason strip is a dialog's
            continue
        app.size = size
        scene.relayout(size)
        surface = pygame.Surface(size)
        for message in messages:
            audit.problems.clear()
            scene.show_reason(message)
            scene.draw_live(surface)
            if audit.problems:
                problems.append(f"{what}: {audit.report()}")
    assert not problems, "reasons that do not fit the strip:\n" + "\n".join(problems)


# ---------------------------------------------------------------------------- the type

# Nominal sizes the interface asks for, from the smallest shrink-to-fit size up
# to the start screen's title.
TYPE_SIZES = list(range(text_module.MIN_TEXT_SIZE, 31)) + [36, 44, 56]
PHRASES = ["Two teams of two bid for books", "(2 cards each)", "You took the kitty", "4 in your hand"]


def _space_and_letter_gaps(phrase: str, size: int, bold: bool) -> tuple[list[int], list[int]]:
    """How close the ink of the words on either side of each space comes (per pixel row,
    the smallest), and the widths of the blank columns inside the words."""
    font = theme.font(size, bold)
    image = font.render(phrase, True, (255, 255, 255))
    mask = pygame.mask.from_surface(image, 60)
    width, height = image.get_size()
    middles = [
        (font.size(phrase[:index])[0] + font.size(phrase[: index + 1])[0]) / 2
        for index, letter in enumerate(phrase)
        if letter == " "
    ]
    spaces = []
    for middle in middles:
        closest = width
        for y in range(height):
            left = next((x for x in range(int(middle), -1, -1) if mask.get_at((x, y))), None)
            right = next((x for x in range(int(middle) + 1, width) if mask.get_at((x, y))), None)
            if left is not None and right is not None:
                closest = min(closest, right - left - 1)
        spaces.append(closest)
    inked = [any(mask.get_at((x, y)) for y in range(height)) for x in range(width)]
    first, last = inked.index(True), width - 1 - inked[::-1].index(True)
    inside, x = [], first
    while x <= last:
        if inked[x]:
            x += 1
            continue
        start = x
        while not inked[x]:
            x += 1
        if not any(start - 1 <= middle <= x + 1 for middle in middles):
            inside.append(x - start)
    return spaces, inside


@pytest.mark.parametrize("bold", [False, True], ids=["regular", "bold"])
def test_words_are_separated_by_a_space_wider_than_any_gap_inside_a_word(bold):
    """At 800x600 the default font, emboldened in software at its small sizes, left spaces
    no wider than the gaps between letters: "Twoteams of twobid", "(2cards each)", "kit ty"."""
    failures = []
    for size in TYPE_SIZES:
        for phrase in PHRASES:
            spaces, inside = _space_and_letter_gaps(phrase, size, bold)
            widest_inside = max(inside, default=0)
            typical_space = sorted(spaces)[len(spaces) // 2]
            if min(spaces) < 1 or typical_space <= widest_inside:
                failures.append(f"size {size}: {phrase!r} spaces {spaces}, gaps inside words up to {widest_inside}")
    assert not failures, "\n".join(failures)


def test_the_type_family_has_true_regular_and_bold_faces_with_dutch_and_turkish_letters():
    files = theme.font_files()
    assert files, "the type family is not installed (requirements.txt)"
    assert files[False] != files[True], "bold must be its own face, not regular emboldened in software"
    assert theme.font_licence_file() is not None, "the font licence must ship with the fonts"
    for bold in (False, True):
        font = theme.font(20, bold)
        assert font.style_name == ("Bold" if bold else "Regular"), font.style_name
        missing = font.render("\ue000", True, (255, 255, 255))  # a private-use letter: the missing-glyph box
        for letter in theme.REQUIRED_LETTERS:
            image = font.render(letter, True, (255, 255, 255))
            assert pygame.image.tobytes(image, "RGBA") != pygame.image.tobytes(missing, "RGBA"), letter


def test_a_missing_type_family_falls_back_with_a_logged_warning(monkeypatch, caplog):
    import importlib

    real_import = importlib.import_module

    def no_fonts(name, *args):
        if name == theme.FONT_PACKAGE:
            raise ImportError(name)
        return real_import(name, *args)

    monkeypatch.setattr(theme, "_face_files", None)
    monkeypatch.setattr(theme, "_fonts", {})
    monkeypatch.setattr(importlib, "import_module", no_fonts)
    with caplog.at_level("WARNING", logger="tricktable.theme"):
        font = theme.font(20, bold=True)
    assert font.render("Trick Table", True, (255, 255, 255)).get_bounding_rect().width > 20
    assert any(theme.FONT_PACKAGE in record.getMessage() for record in caplog.records)
    monkeypatch.setattr(theme, "_face_files", None)
    monkeypatch.setattr(theme, "_fonts", {})


def test_the_self_test_fails_when_the_build_lacks_the_type_family(monkeypatch):
    from game.program import self_test

    self_test._check_text_renders()  # the installed family passes
    monkeypatch.setattr(theme, "font_files", lambda: {})
    with pytest.raises(self_test.SelfTestFailure, match="fonts"):
        self_test._check_text_renders()


def test_the_self_test_fails_when_a_face_cannot_draw_a_letter(monkeypatch):
    from game.program import self_test

    # A private-use code point stands for a letter the fonts would lack.
    monkeypatch.setattr(theme, "REQUIRED_LETTERS", theme.REQUIRED_LETTERS + "\ue001")
    with pytest.raises(self_test.SelfTestFailure, match="cannot draw"):
        self_test._check_text_renders()
