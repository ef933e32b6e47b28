"""A match or money session as a ``.mat`` file (RULES A4: the record analysis programs import).

The action log is the record (DESIGN "storage"): :func:`match_record` replays it through the same
:class:`~club.table.Table` code the use-cases use and collects, game by game, each roll and play, each cube action and
the result, into a :class:`backgammon.matfile.MatchRecord`; :func:`export_mat` writes it in GNU Backgammon's layout
(:func:`backgammon.matfile.format_mat`). Reading the file back with :func:`backgammon.matfile.parse_mat` and
replaying it (:func:`backgammon.replay.replay`) gives the same games and results.

Conventions: a resignation, a forfeit at a time limit and the end of a session are all written as the winner's
``Wins N point(s)`` (GNU Backgammon reads no other form); a player who rolled and then resigned gets the roll with
an empty play (GNU Backgammon's own export does the same); dice the winner rolled but never played (his opponent
resigned first) are left out, as the format has no way to say so. A money session's player lines give the points each
side has won so far (the format has no negative scores). Beavers and raccoons are written as GNU Backgammon reads
them (:mod:`backgammon.matfile`: the take of a beaver implied by the doubler's roll, a beaver not followed by a roll
written as a double with its answer, ``Raccoons => N`` with its take or drop).

Automatic doubles (RULES G3): each game's raises by opening ties go in our ``; [AutomaticRaises "…"]`` header line
(:mod:`backgammon.matfile`), so the replay starts the game at the raised cube even when the game ends without a
double. What GNU Backgammon cannot read from any ``.mat`` file: automatic doubles (its reader starts every game at
cube 1, and its writer drops them too), the ``Jacoby``/``Beaver`` header lines (it uses its own settings), and a
gammon conceded under the Jacoby rule when ``jacoby_on_resignations`` is on (it scores resignations at face value).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from backgammon.cube import Answer, Stage
from backgammon.game import Action as GameAction
from backgammon.matfile import (
    BEAVER,
    DOUBLE,
    DROP,
    PLAY,
    RACCOON,
    TAKE,
    WIN,
    Action,
    GameRecord,
    MatchRecord,
    format_mat,
)
from backgammon.rules import AutomaticKind
from storage import ActionRecord, MatchRows, books, matfiles
from storage.records import GameRecord as StoredGame

from . import offload, proof
from .errors import UnknownGameError
from .table import FINISHED, MatchKind, MatchStatus, Table, TableAction, TableEvent

if TYPE_CHECKING:
    from .service import ClubService

_CUBE_KINDS: dict[str, str] = {Stage.DOUBLE: DOUBLE, Stage.BEAVER: BEAVER, Stage.RACCOON: RACCOON}
_ANSWERS: dict[str, str] = {Answer.TAKE: TAKE, Answer.DROP: DROP}


def _move_text(moves: Sequence[Sequence]) -> str:
    return " ".join(f"{source}/{target}{'*' if hit else ''}" for source, target, _die, hit in moves)


def match_record(
    actions: Sequence[ActionRecord], names: tuple[str, str], *, match_id: int | None = None
) -> MatchRecord:
    """The :class:`~backgammon.matfile.MatchRecord` of a match's whole action log (the first action must be its
    ``challenge``). ``names`` are the display names of sides 0 and 1. Raises what a corrupt log raises
    (:class:`~backgammon.errors.GameError` …)."""
    if not actions or actions[0].kind != TableAction.CHALLENGE:
        raise UnknownGameError("an empty log, or one that does not start with its challenge, cannot be exported")
    table = Table.from_challenge(actions[0].args)
    rules = table.rules
    header = {"Site": "bgclub", "Variation": rules.variant.capitalize()}  # GNU Backgammon's names (RULES G1)
    if match_id is not None:
        header["Match ID"] = str(match_id)
    header["EventDate"] = time.strftime("%Y.%m.%d", time.gmtime(actions[0].at))
    if table.kind == MatchKind.MATCH:
        header["Crawford"] = "On" if rules.crawford else "Off"
    else:
        header["Jacoby"] = "On" if rules.jacoby else "Off"
        header["Beaver"] = "On" if rules.beavers else "Off"
        if rules.automatic_doubles:  # our own header line; GNU Backgammon ignores it (it cannot read automatic doubles)
            header["AutomaticDoubles"] = str(rules.automatic_doubles)
            if rules.automatic_doubles_kind == AutomaticKind.ADD:  # 000 §20b: the factor beside the cube (RULES D6)
                header["AutomaticDoublesKind"] = AutomaticKind.ADD.value
    if rules.cube_cap is not None:
        header["CubeLimit"] = str(rules.cube_cap)
    record = MatchRecord(length=table.length, players=(names[0], names[1]), header=header)
    won = [0, 0]  # money sessions: points won by each side (the format has no negative scores)
    game: GameRecord | None = None
    rolled: dict[int, tuple[int, int]] = {}
    for logged in actions[1:]:
        kind, side = logged.kind, logged.side
        events = table.replay(kind, side, logged.args)
        if kind == TableAction.NEW_GAME:
            score = table.score if table.kind == MatchKind.MATCH else (won[0], won[1])
            raises = 0 if rules.automatic_doubles else None
            game = GameRecord(number=table.game_number, score=(score[0], score[1]), automatic_raises=raises)
            record.games.append(game)
            rolled = {}
            continue
        played = table.game
        if game is None or played is None:
            continue
        if kind == GameAction.OPENING_ROLL:
            d0, d1 = logged.args["dice"]
            if d0 != d1 and played.on_roll is not None:
                rolled[played.on_roll] = (max(d0, d1), min(d0, d1))
            if rules.automatic_doubles:
                game.automatic_raises = played.automatic_raises
        elif side is not None:  # every other game action is a side's
            if kind == GameAction.ROLL:
                rolled[side] = (logged.args["dice"][0], logged.args["dice"][1])
            elif kind == GameAction.PLAY:
                moves = _move_text(logged.args["moves"])
                game.actions.append(Action(0, side, PLAY, dice=rolled.pop(side, None), text=moves))
            elif kind in _CUBE_KINDS:
                game.actions.append(Action(0, side, _CUBE_KINDS[kind], value=played.offered_value))
            elif kind in _ANSWERS:
                game.actions.append(Action(0, side, _ANSWERS[kind]))
        for event in events:
            if event.kind != TableEvent.GAME_OVER:
                continue
            result = event.data["result"]
            winner = result["winner"]
            if 1 - winner in rolled:  # the loser rolled, then resigned or ran out of time
                game.actions.append(Action(0, 1 - winner, PLAY, dice=rolled[1 - winner], text=""))
            rolled = {}
            won[winner] += result["points"]
            over = table.kind == MatchKind.MATCH and table.status == MatchStatus.OVER
            game.actions.append(Action(0, winner, WIN, value=result["points"], match=over))
    return record


FINAL_STATUSES = FINISHED
"""Statuses after which a table's log never grows: its match file is written once and kept (``mat_files``)."""


def mat_text(
    actions: Sequence[ActionRecord], names: tuple[str, str], match_id: int, games: Sequence | None = None
) -> str:
    """The ``.mat`` text of a whole log (:func:`match_record` + :func:`~backgammon.matfile.format_mat`); with the
    match's stored ``games`` rows, the published dice of each game as header lines (:func:`club.proof.header_lines`:
    recipe, commitment, revealed seed and every roll, so that ``tools/verify_dice.py`` recomputes them from the file
    alone). CPU work, run in the worker process by :func:`export_mat` (:func:`mat_text_of_rows`)."""
    record = match_record(actions, names, match_id=match_id)
    if games is not None:
        record.header.update(proof.header_lines(proof.match_series(games, actions)))
    return format_mat(record)


def mat_name(match_id: int, kind: str, length: int, names: Sequence[str]) -> str:
    """The file name of match ``match_id``'s ``.mat`` file, e.g. ``match12_5pt_Alice_vs_Bob.mat`` (``kind``
    ``'money'`` gives ``money``; names cut to their first 20 letters and digits)."""
    what = "money" if kind == MatchKind.MONEY else f"{length}pt"
    safe = ["".join(ch for ch in name if ch.isalnum())[:20] or f"side{side}" for side, name in enumerate(names)]
    return f"match{match_id}_{what}_{safe[0]}_vs_{safe[1]}.mat"


async def _made(service: ClubService, match_id: int, names: tuple[str, str]) -> str:
    """The ``.mat`` text of match ``match_id`` replayed from its log in the worker process (:mod:`club.offload`:
    never on the event loop). Raises :class:`~club.errors.UnknownGameError`."""
    found = await service.db.match_rows(match_id, ("actions", "games"))
    return await offload.run(mat_text_of_rows, found, names, match_id)


def mat_text_of_rows(found: MatchRows, names: tuple[str, str], match_id: int) -> str:
    """:func:`mat_text` of the log and games ``found`` points to (:meth:`storage.Database.match_rows`); run in the
    worker process. Raises :class:`~club.errors.UnknownGameError` for an empty log."""
    rows = found.read()
    if not rows["actions"]:
        raise UnknownGameError(f"There is no match or session {match_id}.")
    actions = [ActionRecord.from_row(row) for row in rows["actions"]]
    return mat_text(actions, names, match_id, [StoredGame.from_row(row) for row in rows["games"]])


async def keep_mat_file(service: ClubService, match_id: int) -> str:
    """Make and keep (``mat_files``) the ``.mat`` file of match ``match_id``, which has just reached a final status;
    returns its text. :class:`~club.service.ClubService` calls it once, when a table ends (no replay at
    export time); the replay runs in the worker process. Raises :class:`~club.errors.UnknownGameError`, or what a
    corrupt log raises; raises nothing and keeps nothing for a table not in a final status (its log still grows)."""
    view = await service.state(match_id)
    if view.status not in FINAL_STATUSES:
        return ""
    name = mat_name(match_id, view.kind, view.length, view.names)
    text = await _made(service, match_id, view.names)
    await books.keep_mat(service.db, match_id, view.version, name, text)
    return text


async def export_mat(service: ClubService, match_id: int) -> tuple[str, str]:
    """``(file name, .mat text)`` of match ``match_id`` — every game so far, the current one as far as it has been
    played — with the published dice of every game as header lines (:mod:`club.proof`; the seed of a game still
    being played stays ``secret``). A finished table's file was kept in the database when it ended (``mat_files``,
    at its version) and is read back; a table without one (an older database) is replayed in the worker process
    (never on the event loop) and its file kept then. Raises :class:`~club.errors.UnknownGameError`."""
    view = await service.state(match_id)
    name = mat_name(match_id, view.kind, view.length, view.names)
    final = view.status in FINAL_STATUSES
    if final:
        kept = await books.kept_mat(service.db, match_id, view.version)
        if kept is not None:
            return name, kept
    text = await _made(service, match_id, view.names)
    if final:
        await books.keep_mat(service.db, match_id, view.version, name, text)
    return name, text


async def fill_mat_files(service: ClubService) -> tuple[int, list[str]]:
    """Keep the ``.mat`` file of every finished table that has none at its version (a database from before the files
    were kept when a table ends; ``python -m club upgrade``). Returns ``(files made, problems)``: a table whose log
    cannot be written is named in the problems and left without a file (the export reports it again)."""
    made, problems = 0, []
    for match_id in await matfiles.unkept_mats(service.db):
        try:
            await keep_mat_file(service, match_id)
        except Exception as error:
            problems.append(f"match {match_id}: no .mat file ({type(error).__name__}: {error})")
            continue
        made += 1
    return made, problems
