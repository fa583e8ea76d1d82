"""The end of a game: who won, the final scores, and what to do next."""

from __future__ import annotations

# Drawn over the finished table. The headline speaks to the human player when
# there is exactly one ("You won!", "Better luck next time"); the line below
# names the winners (in a partnership game a team by its players' names,
# otherwise every player who ties for the top sharing the win). What the game
# is (teams, how it ends) comes from the registry, ``get_game(history.game)``. Final scores are listed best first,
# winners marked in gold. Buttons: Play again (same seats and rules), Score
# pad (the full game, over this scene, with the last hand's review when the table
# offers it) and Back to start. Enter does not mean
# Play again: the player may still be pressing Enter to play their last card,
# and would skip this screen into a new game. The focus starts on the
# harmless Score pad; a new game takes a click or Tab to Play again.

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame

from game.rules import get_game
from game.session.scores import ScoreHistory
from game.ui import theme
from game.ui.dialogs.score_pad import ScorePad, team_name
from game.ui.text import t
from game.ui.widgets.button import Button
from game.ui.widgets.dialog import DialogScene
from game.ui.widgets.geometry import composition_room, split_columns, ui_scale
from game.ui.widgets.panels import fill_translucent, panel_content
from game.ui.widgets.text import draw_text_fit

if TYPE_CHECKING:
    from game.ui.app import App


def join_names(names: Sequence[str]) -> str:
    """ "Ada", "Ada and Bruno", "Ada, Bruno and Cleo"."""
    names = list(names)
    if len(names) <= 1:
        return names[0] if names else ""
    return t("end.name_list", first=", ".join(names[:-1]), last=names[-1])


class EndScene(DialogScene):
    """The game-over dialog built from the finished game's score history."""

    # The finished table stays in view, darkened, behind a panel nothing shows through.
    dim_background = True
    solid_panel = True

    def __init__(
        self,
        app: App,
        history: ScoreHistory,
        seat_names: Sequence[str],
        on_play_again: Callable[[], None],
        on_back_to_start: Callable[[], None],
        on_review: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(app)
        self.history = history
        # The score pad opened here offers the last hand's review, as between hands.
        self.on_review = on_review
        self.seat_names = list(seat_names)
        self.title = t("end.title")
        self.game = get_game(history.game)
        # Winners and final scores are teams in a partnership game, seats otherwise.
        self.teams = self.game.partnerships > 0
        self.scores = list(history.final_scores)
        self.winners = list(history.winners)
        if not self.winners and self.scores:
            # A game stopped early records no winners; show who leads instead of nothing.
            best = max(self.scores)
            self.winners = [i for i, s in enumerate(self.scores) if s == best]
        self.play_again = Button((0, 0, 1, 1), t("end.play_again"), lambda: self.finish(on_play_again), kind="primary")
        self.pad = Button((0, 0, 1, 1), t("end.score_pad"), self._show_pad)
        self.back = Button((0, 0, 1, 1), t("end.back_to_start"), lambda: self.finish(on_back_to_start))
        self.relayout()
        self.focus.focus(self.pad)

    def on_settings_changed(self) -> None:
        # The language may have changed: word the title and buttons again.
        self.title = t("end.title")
        for button, key in (
            (self.play_again, "end.play_again"),
            (self.pad, "end.score_pad"),
            (self.back, "end.back_to_start"),
        ):
            button.label = t(key)
        self.relayout()

    # ------------------------------------------------------------------ content
    def _human_seats(self) -> list[int]:
        return list(self.history.human_seats)

    def _team_name(self, team: int) -> str:
        return team_name(self.game, self.seat_names, team)

    def _winner_seats(self) -> list[int]:
        if self.teams:
            players = len(self.seat_names)
            return [seat for team in self.winners for seat in self.game.team_members(team, players)]
        return list(self.winners)

    def headline(self) -> str:
        humans = self._human_seats()
        if len(humans) != 1 or not self.winners:
            return self.winner_line()
        winners = self._winner_seats()
        if humans[0] not in winners:
            return t("end.you_lost")
        shared = not self.teams and len(winners) > 1
        return t("end.you_shared") if shared else t("end.you_won")

    def winner_line(self) -> str:
        if not self.winners:
            return t("end.no_winner")
        if self.teams:
            team = self.winners[0]
            others = [score for side, score in enumerate(self.scores) if side != team]
            a = self.scores[team] if team < len(self.scores) else 0
            b = max(others) if others else 0
            return t("end.team_wins", team=self._team_name(team), a=a, b=b)
        names = [self._name(seat) for seat in self.winners]
        return t("end.winner" if len(names) == 1 else "end.winners", names=join_names(names))

    def reason_line(self) -> str:
        """Why the game ended: a Boston that wins the game (house rule ``boston:
        wins_game``), the target reached, the floor fallen to (a contract game
        played to a score), or the last round played (a prediction game)."""
        if not self.history.complete or not self.winners:
            return ""
        if not self.game.adapter.declares_contract:
            rounds = sum(1 for deal in self.history.deals if deal.scored)
            return t("end.reason_rounds", count=rounds) if rounds else ""
        target = self.history.target_score
        if not isinstance(target, int) or len(self.scores) < 2:
            return ""
        winner = self.winners[0]
        if self._won_by_boston(winner):
            return t("end.reason_boston", team=self._side_name(winner))
        if self.scores[winner] >= target:
            return t("end.reason_reached", team=self._side_name(winner), target=target)
        for loser, score in enumerate(self.scores):
            if loser != winner and score <= -target:
                # A set can carry a side well past the floor: name the true score.
                key = "end.reason_fell" if score == -target else "end.reason_fell_below"
                return t(key, loser=self._side_name(loser), score=score, floor=-target, team=self._side_name(winner))
        return ""

    def _won_by_boston(self, winner: int) -> bool:
        """The game ended on the winners' Boston under ``boston: wins_game`` (whatever the scores)."""
        if self.history.boston_rule != "wins_game":
            return False
        scored = [deal for deal in self.history.deals if deal.scored]
        if not scored or not scored[-1].boston:
            return False
        declarer = scored[-1].declarer
        return isinstance(declarer, int) and self.game.team_of(declarer) == winner

    def _side_name(self, side: int) -> str:
        """A scoring side by name: a team's players, or one player."""
        return self._team_name(side) if self.teams else self._name(side)

    def _name(self, seat: int) -> str:
        return self.seat_names[seat] if 0 <= seat < len(self.seat_names) else t("start.seat", number=seat + 1)

    def standings(self) -> list[tuple[str, int, bool]]:
        """(name, score, is_winner) best first."""
        if self.teams:
            entries = [(self._team_name(team), score, team in self.winners) for team, score in enumerate(self.scores)]
        else:
            entries = [(self._name(seat), score, seat in self.winners) for seat, score in enumerate(self.scores)]
        return sorted(entries, key=lambda entry: (-entry[1], not entry[2]))

    def _show_pad(self) -> None:
        if hasattr(self.app, "push"):
            pad = ScorePad(self.app, self.history, self.seat_names, None, on_review=self.on_review)
            # Darken this dialog under the pad so its text cannot show through.
            pad.dim_background = True
            self.app.push(pad)

    # ------------------------------------------------------------------ layout and drawing
    def layout(self, size: tuple[int, int]) -> None:
        rows = max(2, len(self.standings()))
        self.scale = scale = ui_scale(size, self.room(size, (620, 300 + rows * 40)))
        # Centred in the window over the darkened table (hung below the table's
        # corner panels it sat low, its rows pressed onto the buttons), unless it
        # is too wide to stand between those panels: then centred below them.
        content = self.centre_panel(
            size, round(620 * scale), round((300 + rows * 40) * scale), max(8, round(16 * scale)), factor=scale
        )
        if self.host is not None and self.panel_rect.width > self.host.dialog_area(size, False).width:
            below = self.host.dialog_area(size, True)
            panel = pygame.Rect(
                0, 0, min(self.panel_rect.width, below.width), min(self.panel_rect.height, below.height)
            )
            panel.center = below.center
            self.panel_rect = panel
            content = panel_content(panel, True, scale)
        gap = max(6, round(10 * scale))
        button_h = max(24, min(round(48 * scale), content.height // 6))
        self.headline_rect = pygame.Rect(
            content.left, content.top, content.width, max(20, round(content.height * 0.17))
        )
        self.winner_rect = pygame.Rect(
            content.left, self.headline_rect.bottom, content.width, max(16, round(content.height * 0.1))
        )
        self.cause_rect = pygame.Rect(
            content.left, self.winner_rect.bottom, content.width, max(14, round(content.height * 0.07))
        )
        buttons = pygame.Rect(content.left, content.bottom - button_h, content.width, button_h)
        for button, rect in zip((self.back, self.pad, self.play_again), split_columns(buttons, 3, gap)):
            button.set_rect(rect)
        # A clear band (two gaps) between the last score row and the buttons.
        self.table_rect = pygame.Rect(
            content.left + content.width // 8,
            self.cause_rect.bottom + gap,
            content.width * 3 // 4,
            max(10, buttons.top - 2 * gap - self.cause_rect.bottom - gap),
        )
        # The "Final scores" label, then one row per side, best first.
        count = max(1, len(self.standings()))
        self.label_rect = pygame.Rect(
            self.table_rect.left,
            self.table_rect.top,
            self.table_rect.width,
            min(round(28 * scale), self.table_rect.height // (count + 1)),
        )
        row_h = min(round(40 * scale), (self.table_rect.bottom - self.label_rect.bottom) // count)
        self.row_rects = [
            pygame.Rect(self.table_rect.left, self.label_rect.bottom + index * row_h, self.table_rect.width, row_h)
            for index in range(count)
        ]
        self.focus.set_widgets([self.back, self.pad, self.play_again])

    def room(self, size: tuple[int, int], base: tuple[int, int]) -> float:
        """The largest factor at which the panel (``base`` at factor 1) still fits whole where it goes:
        centred in the window (margins included) while it stands between the table's corner
        panels, else centred below them."""
        framed = (base[0] + 32, base[1] + 32)  # the margin round the panel grows with it
        centred = composition_room(size, framed)
        if self.host is None:
            return centred
        between = self.host.dialog_area(size, False).width / base[0]
        below = self.host.dialog_area(size, True)
        return max(min(centred, between), composition_room(below.size, base))

    def draw_content(self, surface: pygame.Surface) -> None:
        scale = self.scale
        headline, winner_line = self.headline(), self.winner_line()
        draw_text_fit(surface, headline, self.headline_rect, round(44 * scale), theme.ACCENT, bold=True)
        if winner_line != headline:
            draw_text_fit(surface, winner_line, self.winner_rect, round(26 * scale), theme.TEXT, bold=True)
        reason = self.reason_line()
        if reason:
            draw_text_fit(surface, reason, self.cause_rect, round(20 * scale), theme.TEXT_DIM)
        standings = self.standings()
        if not standings:
            return
        draw_text_fit(surface, t("end.final_scores"), self.label_rect, round(20 * scale), theme.TEXT_DIM, bold=True)
        for (name, score, winner), row in zip(standings, self.row_rects):
            row_h = row.height
            if winner:
                fill_translucent(surface, theme.ROW_HIGHLIGHT, row.inflate(0, -2), radius=6)
            colour = theme.ACCENT if winner else theme.TEXT
            size = round(row_h * 0.6)
            name_rect = pygame.Rect(row.left + 12, row.top, round(row.width * 0.7) - 12, row.height)
            draw_text_fit(surface, name, name_rect, size, colour, align="left", bold=winner)
            score_rect = pygame.Rect(name_rect.right, row.top, row.right - 12 - name_rect.right, row.height)
            draw_text_fit(surface, str(score), score_rect, size, colour, align="right", bold=True)
