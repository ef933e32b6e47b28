"""The Jellyfish / GNU Backgammon ``.mat`` match format: read every dialect, write GNU Backgammon's own layout.

A ``.mat`` file is text (RULES A4: the export that analysis programs import)::

    ; [Site "FIBS"]                       optional header lines ``; [Key "Value"]`` (other ``;``/``#`` lines: comments)
     7 point match                       the match length (0 = money session)

     Game 1
     Alice : 0                   Bruno : 0                   player lines with the score at the start of the game
      1)                             41: 13/9 24/23          numbered rows: the left (player 0) and right column
      2) 31: 6/5 8/5                 41: 6/5 9/5             (player 1); ``41:`` is the roll, then the play
      3)  Doubles => 2                Takes
      4)  Drops                       Wins 1 point           the declared result of the game

Dialects read (``tests/cases/matches/``): ``25/21`` or ``bar/21``; ``6/0`` or ``6/off``; ``(2)`` repeats; dice in
either order; ``Cannot Move``, an empty move or XG's ``????`` (rolled, then resigned); ratings in player lines
(``Name,1770 : 0``); cube lines on a row of their own or sharing one with a play; ``Drops`` and ``Wins`` split over two
lines; ``Wins`` on a line of its own at any column; CRLF endings and a UTF-8 byte-order mark; ``; [Crawford "On"]``
header lines; Galaxy's ``Losses N point`` (a forfeit, RULES A2/M5), also when Galaxy repeats the row number in the right
column (``14)  Losses 1 point``: a new row) or writes it at the left margin after the right player's move.

Which column an action is in decides its side. On a numbered row with two actions the first is the left player's; a
lone action is the right player's when it stands more than three spaces after the ``)``. On an unnumbered line an
action starting before column 15 is the left player's (GNU Backgammon's own rule: it splits such lines at the first
double space after column 15). A Galaxy ``Losses`` line of its own whose column gives it to the side of the game's
``Wins`` line is given to the other side (the loser cannot also be the winner).

The reader checks the structure (length line, ``Game`` lines, player lines, known actions) and keeps every play's text
as written; whether a play is legal is the replay's business (:mod:`backgammon.replay`). The writer follows
GNU Backgammon's ``ExportGameJF``: ``%3d) %-27s`` rows, `` Doubles => 2``, `` Takes``, `` Drops``, ``Wins N point(s)``
on the winner's side, plays as single moves with ``25`` for the bar and ``0`` for off, so that both our reader and
GNU Backgammon read the file back as they read the original.

Beavers and raccoons (RULES D3), as GNU Backgammon 1.07 handles them. Its export writes every immediate redouble
(beaver, raccoon, and any further one) `` Beavers => N`` in the column of the side that made it, and leaves out the
take that accepts it. Its reader (``import.c``, ``ParseMatMove``) reads ``Doubles``, ``Beavers`` and ``Raccoons``
alike as one turn of the cube; after a ``Beavers`` entry it remembers to accept the offer at the next roll line,
whoever rolls and in whatever game: so ``Beavers => 4`` followed by ``Takes`` and a roll turns the cube once too
often, and after a beaver that is dropped (or taken and then resigned before a roll) the pending take lands on the
first roll of the next game, which gnubg then refuses ("Take record found but doesn't follow a double") until a
double comes. The writer therefore writes a beaver `` Beavers => N`` only when the next entry is a roll (the take,
left out, is implied, as in gnubg's own export) or another cube turn; any other beaver (dropped, or taken with no
roll after it) is written `` Doubles => N`` with its answer spelled out, which gnubg reads as the same cube turn
and never carries over. A raccoon is written `` Raccoons => N`` with its ``Takes`` or ``Drops``. The replay reads
all of these forms, and gnubg's own, as the play went (:mod:`backgammon.replay`).

Automatic doubles (RULES G3: opening ties raise the cube of a money game). The format has no place for the ties, and
GNU Backgammon 1.07 tolerates no comment inside a game (one between `` Game N`` and the player line loses the game;
one after it is an "Unrecognised move"), so our own header line ``; [AutomaticRaises "1:1 4:2"]`` lists, as
``game:raises``, the games whose opening raised the cube (:attr:`GameRecord.automatic_raises`; a game not listed had
none). GNU Backgammon files the header line as a match comment. A file without the line says nothing about ties (the
replay infers them from the first double).

XG's ``; Set Pos=<26 characters>/<cube>`` line inside a game (positions-2.json BG28; gnubg ChangeLog 2014-01-12 and
2014-05-26, ``import.c`` ``ImportGame``/``positionid.c`` ``PositionFromXG``) sets the board and the cube; the game
goes on from there. As gnubg reads it: the line starts at column 0 with ``; Set Pos=`` and has ``/`` at column 36;
each of the 26 characters is ``-`` (empty) or a letter ``A``–``P`` for 1–16 checkers: uppercase at index ``i`` is the
left player's on his point ``i`` (index 25 his bar), lowercase the right player's on his point ``25 - i`` (index 0
his bar). The cube (column 37): ``0`` centred at 1, ``-`` then ``n`` the left player owns ``2^n``, ``n`` the right
player owns ``2^n``. It becomes a :data:`SET_POS` entry (``text`` = the 26 characters, ``/`` and the cube) and is
written back as it was read.

``parse_mat(text, lenient=True)`` reads what a real site wrote where the strict reader stops: an entry it cannot read
becomes a warning naming the line (:attr:`MatchRecord.warnings`) and is left out, as GNU Backgammon skips an
"Unrecognised move".

The code is split along the format's seams: :mod:`backgammon.matrecord` (the entries as data), :mod:`backgammon.matread`
(the reader) and :mod:`backgammon.matwrite` (the writer); this module re-exports their public names.
"""

from __future__ import annotations

from .matread import parse_mat
from .matrecord import (
    BEAVER,
    DOUBLE,
    DROP,
    FORFEIT,
    KINDS,
    LEFT,
    PLAY,
    RACCOON,
    RESULT_KINDS,
    RIGHT,
    SET_POS,
    TAKE,
    WIN,
    Action,
    GameRecord,
    MatchRecord,
    xg_set_pos,
)
from .matwrite import format_game, format_mat, normalized_move

__all__ = [
    "BEAVER",
    "DOUBLE",
    "DROP",
    "FORFEIT",
    "KINDS",
    "LEFT",
    "PLAY",
    "RACCOON",
    "RESULT_KINDS",
    "RIGHT",
    "SET_POS",
    "TAKE",
    "WIN",
    "Action",
    "GameRecord",
    "MatchRecord",
    "format_game",
    "format_mat",
    "normalized_move",
    "parse_mat",
    "xg_set_pos",
]
