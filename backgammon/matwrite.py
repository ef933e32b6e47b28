"""The writer of ``.mat`` match files (RULES A4): :func:`format_mat` and :func:`format_game` write GNU Backgammon's
own export layout (``ExportGameJF``), beavers and raccoons as GNU Backgammon 1.07 reads them (RULES D3) and the
``; [AutomaticRaises "…"]`` header line (RULES G3), as described in :mod:`backgammon.matfile`, which re-exports
them; :func:`normalized_move` gives a play's text in the export form."""

from __future__ import annotations

from .errors import InvalidPlayError
from .matrecord import (
    _NO_MOVE_TEXTS,
    _RAISES_KEY,
    _SET_POS,
    _UNKNOWN_MOVE,
    BEAVER,
    DOUBLE,
    DROP,
    PLAY,
    RACCOON,
    SET_POS,
    TAKE,
    WIN,
    Action,
    GameRecord,
    MatchRecord,
)
from .notation import parse_segments


def normalized_move(text: str) -> str:
    """A play's text in GNU Backgammon's export form: single moves, ``25`` for the bar, ``0`` for off, repeats and
    joined moves spelled out (``bar/22*(2)`` → ``25/22* 25/22*``; ``13/7*/5`` → ``13/7* 7/5``). Text that is not
    notation is returned unchanged (the replay reports it); "no move" spellings become ``""``."""
    stripped = text.strip()
    if stripped.lower() in _NO_MOVE_TEXTS or _UNKNOWN_MOVE.match(stripped):
        return ""
    try:
        segments = parse_segments(stripped)
    except InvalidPlayError:
        return stripped
    return " ".join(f"{source}/{target}{'*' if hit else ''}" for source, target, hit in segments)


def _points(value: int) -> str:
    return f"{value} point{'' if value == 1 else 's'}"


def _action_text(action: Action) -> str:
    if action.kind == PLAY:
        d1, d2 = action.dice or (0, 0)
        move = normalized_move(action.text)
        return f"{d1}{d2}: {move}".rstrip() if move else f"{d1}{d2}:"
    if action.kind == DOUBLE:
        return f" Doubles => {action.value}"
    if action.kind == BEAVER:
        return f" Beavers => {action.value}"
    if action.kind == RACCOON:
        return f" Raccoons => {action.value}"
    if action.kind == TAKE:
        return " Takes"
    if action.kind == DROP:
        return " Drops"
    word = "Wins" if action.kind == WIN else "Losses"
    return f" {word} {_points(action.value or 0)}{' and the match' if action.match else ''}"


def _as_gnubg_reads(actions: list[Action]) -> list[Action]:
    """The entries to write for ``actions`` so that GNU Backgammon reads the cube as it went (module docstring): the
    take of a beaver that a roll follows is left out; a beaver followed by anything but a roll, its take and a roll,
    or another cube turn is written as a double (the same cube turn to gnubg, which then carries no pending take
    over), and when a ``Wins`` line follows it directly, the take that line implies (:mod:`backgammon.replay`) is
    written out."""
    written: list[Action] = []
    index = 0
    while index < len(actions):
        action = actions[index]
        following = [entry.kind for entry in actions[index + 1 : index + 3]]
        index += 1
        if action.kind != BEAVER or following[:1] in ([PLAY], [DOUBLE], [BEAVER], [RACCOON]):
            written.append(action)
        elif following == [TAKE, PLAY]:
            written.append(action)
            index += 1  # the take is implied by the roll
        else:
            written.append(Action(action.number, action.side, DOUBLE, None, action.text, action.line, action.value))
            if following[:1] == [WIN]:
                written.append(Action(action.number, 1 - action.side, TAKE, None, "Takes", action.line))
    return written


def _player_cell(name: str, rating: str | None, score: int) -> str:
    return f"{name}{',' + rating if rating else ''} : {score}"


def format_game(
    game: GameRecord, players: tuple[str, str], ratings: tuple[str | None, str | None] = (None, None)
) -> str:
    """One game in GNU Backgammon's export layout (`` Game N``, the player line, numbered two-column rows, the
    result on the winner's side), ending with a blank line. Row numbers are assigned afresh: a new row starts when
    an entry belongs in the left column, or in the right column of a row whose right cell is taken. Beavers are
    written as GNU Backgammon reads them (module docstring: an implied take left out, or ``Doubles => N``)."""
    out = [f" Game {game.number}"]
    left = _player_cell(players[0], ratings[0], game.score[0])
    out.append(f" {left:<27} {_player_cell(players[1], ratings[1], game.score[1])}")
    rows: list[list] = []  # [number or None, left text or None, right text or None]
    number = 0
    for action in _as_gnubg_reads(game.actions):
        if action.kind == SET_POS:  # a line of its own, from column 0, as XG writes it (module docstring)
            rows.append([_SET_POS + action.text, None, None])
            continue
        text = _action_text(action)
        current = rows[-1] if rows else None
        if current is not None and isinstance(current[0], str):
            current = None
        fits = current is not None and all(cell is None for cell in current[1 + action.side :])
        if current is not None and current[0] is None and not action.is_result:
            fits = False
        if not fits or current is None:
            if action.is_result:
                current = [None, None, None]
            else:
                number += 1
                current = [number, None, None]
            rows.append(current)
        current[1 + action.side] = text
    for row_number, left_text, right_text in rows:
        if isinstance(row_number, str):
            out.append(row_number)
        elif row_number is None:
            if left_text is None:
                out.append(" " * 34 + right_text.strip())
            elif right_text is None:
                out.append("      " + left_text.strip())
            else:
                out.append(f"      {left_text.strip():<28}{right_text.strip()}")
        else:
            line = f"{row_number:3d}) {left_text or '':<27} {right_text or ''}"
            out.append(line.rstrip())
    out.append("")
    return "\n".join(out) + "\n"


def format_mat(record: MatchRecord) -> str:
    """The whole match as ``.mat`` text (``\\n`` line ends): header lines ``; [Key "Value"]`` (then
    ``; [AutomaticRaises "…"]`` when a game's :attr:`GameRecord.automatic_raises` is known), comments,
    `` N point match``, then every game (:func:`format_game`). Read back by :func:`parse_mat` it gives the same games,
    actions and results (plays compared by :func:`normalized_move`; a beaver's take may be left out or the beaver
    written as a double, module docstring), and the replay plays it as the record; GNU Backgammon reads it the same
    way. The output is a fixed point: writing what was read from it gives it back."""
    out: list[str] = []
    for key, value in record.header.items():
        out.append(f'; [{key} "{value}"]')
    if any(game.automatic_raises is not None for game in record.games):
        raised = " ".join(f"{game.number}:{game.automatic_raises}" for game in record.games if game.automatic_raises)
        out.append(f'; [{_RAISES_KEY} "{raised}"]')
    for comment in record.comments:
        out.append(f"; {comment}".rstrip())
    if out:
        out.append("")
    out.append(f" {record.length} point match")
    out.append("")
    text = "\n".join(out) + "\n"
    return text + "".join(format_game(game, record.players, record.ratings) for game in record.games)
