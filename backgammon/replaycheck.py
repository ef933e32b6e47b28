"""The comparison of a replayed match file with what the file declares (RULES G11, G12, M1, M5): each game's
declared winner and points against the result derived from the play, Galaxy's forfeit of the match, and the match's
final score and winner. :class:`DeclaredResultChecks` is a mixin of the replay driver in :mod:`backgammon.replay`
(it uses its ``record``, ``match``, ``report``, ``names`` and ``note``); every disagreement becomes a
:class:`~backgammon.replayreport.Discrepancy`, never an error."""

from __future__ import annotations

from .game import GameResult
from .matfile import FORFEIT, GameRecord
from .replayreport import GameReport, ReplayReport


class DeclaredResultChecks:
    """Compare the derived results with the file's ``Wins``/``Losses`` lines and its match claim (module docstring)."""

    def check_declared(self, record: GameRecord, report: GameReport, result: GameResult) -> None:
        action = record.result_action
        names = self.names
        if action is None:
            self.note(
                record.number,
                record.line,
                "winner",
                f"game {record.number}: the file declares no result; "
                f"the replay has {names[result.winner]} winning {result.points} ({result.ended_by})",
            )
            return
        declared_winner = record.declared_winner
        if declared_winner != result.winner:
            self.note(
                record.number,
                action.line,
                "winner",
                f"game {record.number}: the file says "
                f"{names[declared_winner]} won ({action.text!r}); the replay has {names[result.winner]} winning "
                f"{result.points} ({result.ended_by})",
            )
            return
        for extra in record.actions:
            if extra.kind == FORFEIT and extra.side == result.winner:
                self.note(
                    record.number,
                    extra.line,
                    "winner",
                    f"game {record.number}: {extra.text!r} is written for the winner {names[result.winner]}",
                )
        declared = record.declared_points
        if declared is not None and declared != result.points:
            length = self.record.length
            needed = length - record.score[result.winner] if length else None
            why = ""
            if needed is not None and declared == needed and result.points > needed:
                why = " (the file caps it at the points needed)"
            elif length and declared == length and result.points != length:
                why = " (the file writes the match length)"
            self.note(
                record.number,
                action.line,
                "points",
                f"game {record.number}: the file says {action.text!r}; "
                f"the replay scores {result.points} for {names[result.winner]} ({result.kind}, {result.ended_by}, "
                f"cube {result.cube}){why}",
            )

    def match_forfeit(self, record: GameRecord, report: GameReport, result: GameResult) -> None:
        """Galaxy's ``Losses N point`` with ``Wins N point and the match``: the loser forfeits the match (RULES M5)."""
        declared = record.result_action
        if result.ended_by != "forfeit" or declared is None or not declared.match or self.match.is_over:
            return
        if self.record.length:
            self.match.forfeit(result.loser)
            report.notes.append(
                f"{self.who(result.loser)} forfeits the match (RULES M5), as the file's {declared.text!r} says"
            )

    def finish(self) -> ReplayReport:
        report = self.report
        report.score = self.match.score
        report.raw_score = self.match.points_won
        report.winner = self.match.winner
        length = self.record.length
        claims = [g for g in self.record.games if g.result_action is not None and g.result_action.match]
        if length and report.winner is None:
            self.note(
                None,
                None,
                "match",
                f"the match is not over by the replay: {report.score[0]}-{report.score[1]} in a {length}-point match",
            )
        if claims and report.winner is not None and claims[-1].declared_winner != report.winner:
            last = claims[-1]
            self.note(
                last.number,
                last.result_action.line,
                "match",
                f"the file says {self.names[last.declared_winner]} "
                f"won the match; the replay has {self.names[report.winner]}",
            )
        return report
