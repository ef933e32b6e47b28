"""Per-member statistics (RULES A3): games, wins, gammons, cube actions, average cube, matches and chouettes.

Two-player games (money sessions and matches) carry the detail: the result (single, gammon, backgammon), the cube
it ended at, and the member's own cube actions from the action log. Chouette games count as games played and won
(a game with positive points for him) and add their points; their cube detail lives in the chouette's own log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from backgammon.result import KIND_LEVELS, Ending
from storage.books import PlayedGame

from ..table import MatchKind
from .ratings import Rating


@dataclass(frozen=True, slots=True)
class MemberStats:
    """A member's statistics in one club.

    Two-player games: ``games``, ``wins``, ``gammons`` (games won with a gammon or backgammon, a forfeit's not
    counted: that is the rule set's valuation of a claim, RULES A2), ``backgammons`` (won, likewise),
    ``gammons_lost`` (gammons and backgammons lost, likewise), ``average_cube`` (mean cube value the games ended at,
    None before any game), ``doubles`` (cubes offered), ``takes`` (including beavers, which take), ``drops``,
    ``beavers``, ``raccoons``; ``money_points`` net in money sessions, ``money`` net at the stakes. Matches: ``rating`` (with
    ``experience``, ``wins``, ``losses``). Chouettes: ``chouette_games``, ``chouette_wins``, ``chouette_points``,
    ``chouette_money``. Correspondence: ``replies`` (how many times a game waited for him), ``reply_mean`` and
    ``reply_median`` (seconds; None before any; the median to within 1/64, :mod:`storage.replies`), ``waiting_on``
    (games waiting for him now). Analysis:
    ``pr`` his error rate over the ``pr_decisions`` graded decisions of ``pr_matches`` finished rated matches and
    sessions (None before any; :mod:`storage.prs`).
    """

    member: int
    name: str
    games: int
    wins: int
    gammons: int
    backgammons: int
    gammons_lost: int
    average_cube: float | None
    doubles: int
    takes: int
    drops: int
    beavers: int
    raccoons: int
    money_points: int
    money: int
    rating: Rating
    chouette_games: int
    chouette_wins: int
    chouette_points: int
    chouette_money: int
    replies: int = 0
    reply_mean: float | None = None
    reply_median: float | None = None
    waiting_on: int = 0
    pr: float | None = None
    pr_decisions: int = 0
    pr_matches: int = 0

    @property
    def losses(self) -> int:
        """Two-player games lost."""
        return self.games - self.wins

    @property
    def win_rate(self) -> float | None:
        """Share of two-player games won (0–1), None before any game."""
        return self.wins / self.games if self.games else None


def member_stats(
    member: int,
    name: str,
    games: Sequence[PlayedGame],
    cube_actions: Mapping[str, int],
    rating: Rating,
    chouette: tuple[int, int, int, int],
) -> MemberStats:
    """The :class:`MemberStats` of ``member`` from his finished two-player ``games``, his ``cube_actions`` (kind →
    count), his match ``rating`` and his
    ``chouette`` totals ``(games, won, points, money)``."""
    wins = gammons = backgammons = gammons_lost = cube_sum = money_points = money = 0
    for game in games:
        won = game.winner == game.side
        wins += won
        # a forfeit's gammon or backgammon is the rule set's valuation of a claim (RULES A2), not one played
        level = KIND_LEVELS.get(game.result_kind, 1)  # 1 single, 2 gammon, 3 backgammon
        big = level > 1 and game.ended_by != Ending.FORFEIT
        gammons += won and big
        backgammons += won and big and level == 3
        gammons_lost += (not won) and big
        cube_sum += game.cube
        signed = game.points if won else -game.points
        money += signed * game.stake
        if game.kind == MatchKind.MONEY:
            money_points += signed
    return MemberStats(
        member=member,
        name=name,
        games=len(games),
        wins=wins,
        gammons=gammons,
        backgammons=backgammons,
        gammons_lost=gammons_lost,
        average_cube=cube_sum / len(games) if games else None,
        doubles=cube_actions.get("double", 0),
        takes=cube_actions.get("take", 0) + cube_actions.get("beaver", 0),
        drops=cube_actions.get("drop", 0),
        beavers=cube_actions.get("beaver", 0),
        raccoons=cube_actions.get("raccoon", 0),
        money_points=money_points,
        money=money,
        rating=rating,
        chouette_games=chouette[0],
        chouette_wins=chouette[1],
        chouette_points=chouette[2],
        chouette_money=chouette[3],
    )
