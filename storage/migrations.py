"""Schema versions: ``PRAGMA user_version`` says which schema a database file has.

``schema.sql`` is the whole current schema (version :data:`SCHEMA_VERSION`); a new, empty database is created from it
in one step. A database made by an older release is upgraded by running, in order, every step of :data:`MIGRATIONS`
whose version is above its ``user_version``; each step runs in its own transaction together with the
``PRAGMA user_version`` that records it, so a crash during an upgrade leaves the file at the last whole step.

To change the schema: edit ``schema.sql``, raise :data:`SCHEMA_VERSION`, and append ``(new_version, sql)`` to
:data:`MIGRATIONS` that turns the previous version into the new one (``ALTER TABLE ...``, new tables, backfills).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from .replies import REPLIES_V8

SCHEMA_VERSION = 13
"""The schema version this code writes and reads."""

CHOUETTES_V2 = """
CREATE TABLE chouette_sessions (
    id          INTEGER PRIMARY KEY,
    club_id     INTEGER NOT NULL REFERENCES clubs (id),
    channel_id  INTEGER NOT NULL,                        -- the Discord channel the session is played in (an id only)
    status      TEXT    NOT NULL CHECK (status IN ('open', 'closed')),
    rules       TEXT    NOT NULL CHECK (json_valid(rules)),      -- ChouetteRules.to_json()
    stake       INTEGER NOT NULL DEFAULT 0 CHECK (stake >= 0),  -- money per point (003 Atlanta 2.1); 0 = none
    state       TEXT    NOT NULL CHECK (json_valid(state)),      -- the club's chouette table (ChouetteSession inside)
    version     INTEGER NOT NULL CHECK (version >= 1),  -- the seq of its last logged action
    game_number INTEGER NOT NULL DEFAULT 0,              -- the current (or last) game, 0 before the first
    created_by  INTEGER NOT NULL REFERENCES members (user_id),
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL,
    ended_at    REAL
);
CREATE INDEX chouette_sessions_channel ON chouette_sessions (channel_id, status);
CREATE INDEX chouette_sessions_club ON chouette_sessions (club_id, status);

-- Provably fair dice (RULES A1) of a chouette, one series per seed: series 0 = the seating and joining throws
-- (revealed when the session closes), series n = the board of game n (revealed when that game ends).
CREATE TABLE chouette_dice (
    session_id    INTEGER NOT NULL REFERENCES chouette_sessions (id),
    series        INTEGER NOT NULL CHECK (series >= 0),
    dice          TEXT    NOT NULL CHECK (dice IN ('fair', 'injected')),
    seed_hash     TEXT,                                  -- SHA-256 (hex) of the seed, shown when the series starts
    seed          TEXT,                                  -- the seed (hex); secret until revealed
    seed_revealed INTEGER NOT NULL DEFAULT 0 CHECK (seed_revealed IN (0, 1)),
    rolls         INTEGER NOT NULL DEFAULT 0,            -- the next roll counter
    PRIMARY KEY (session_id, series)
) WITHOUT ROWID;

-- The append-only record of a chouette: seq 1, 2, 3 ... per session; replaying it rebuilds chouette_sessions.state.
-- member_id NULL = the club acted (a deadline, an automatic step); series/roll_index say which seed made the dice.
CREATE TABLE chouette_actions (
    id          INTEGER PRIMARY KEY,
    session_id  INTEGER NOT NULL REFERENCES chouette_sessions (id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    game_number INTEGER,
    member_id   INTEGER,
    kind        TEXT    NOT NULL,
    args        TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(args)),
    dice        TEXT    CHECK (dice IS NULL OR json_valid(dice)),  -- e.g. [[3,1]] or {"101":[5,2],...} (throws)
    series      INTEGER,
    roll_index  INTEGER,                                 -- the first counter of the series the dice came from
    auto        INTEGER NOT NULL DEFAULT 0 CHECK (auto IN (0, 1)),
    at          REAL    NOT NULL,
    UNIQUE (session_id, seq)
);

CREATE TRIGGER chouette_actions_no_update BEFORE UPDATE ON chouette_actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: actions cannot be changed');
END;

CREATE TRIGGER chouette_actions_no_delete BEFORE DELETE ON chouette_actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: actions cannot be deleted');
END;

-- A deadline per member whose decision the chouette awaits (RULES A2, C5, C9): his cube decision, Box's answer, the
-- roll or play of the board. actor_id is who must act now (the member, or his proxy / the Captain once he missed it,
-- stage 'proxy'). Rewritten in the same transaction as every action; a deadline whose decision is still awaited
-- keeps its time.
CREATE TABLE chouette_deadlines (
    session_id     INTEGER NOT NULL REFERENCES chouette_sessions (id),
    subject_id     INTEGER NOT NULL,                     -- whose decision it is
    actor_id       INTEGER NOT NULL,                     -- who must make it now
    pending        TEXT    NOT NULL,                     -- 'double', 'answer', 'box_answer', 'roll', 'play', ...
    stage          TEXT    NOT NULL CHECK (stage IN ('member', 'proxy')),
    mark           TEXT    NOT NULL,                     -- the game and board turn it was set in ('3.12')
    version        INTEGER NOT NULL,                     -- the session version when it was set
    set_at         REAL    NOT NULL,
    due_at         REAL    NOT NULL,
    reminders      TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(reminders)),
    reminders_sent INTEGER NOT NULL DEFAULT 0,
    expired_at     REAL,
    next_at        REAL,
    PRIMARY KEY (session_id, subject_id)
) WITHOUT ROWID;
CREATE INDEX chouette_deadlines_next_at ON chouette_deadlines (next_at) WHERE next_at IS NOT NULL;
CREATE INDEX chouette_deadlines_actor ON chouette_deadlines (actor_id);

-- One row per member per finished chouette game (RULES C11, A3), written in the game's last transaction; the points
-- of a game sum to zero. stake = money per point (the base stake: a member's multiple, C6, is in his points).
CREATE TABLE chouette_results (
    session_id  INTEGER NOT NULL REFERENCES chouette_sessions (id),
    game_number INTEGER NOT NULL,
    member_id   INTEGER NOT NULL,
    points      INTEGER NOT NULL,
    stake       INTEGER NOT NULL,
    at          REAL    NOT NULL,
    PRIMARY KEY (session_id, game_number, member_id)
) WITHOUT ROWID;
CREATE INDEX chouette_results_member ON chouette_results (member_id, at);

CREATE TRIGGER chouette_results_no_update BEFORE UPDATE ON chouette_results
BEGIN
    SELECT RAISE(ABORT, 'chouette results are a record: they cannot be changed');
END;

CREATE TRIGGER chouette_results_no_delete BEFORE DELETE ON chouette_results
BEGIN
    SELECT RAISE(ABORT, 'chouette results are a record: they cannot be deleted');
END;

-- The Discord messages that show a chouette (its board, decisions, sheet; its private "no cube, no talk" thread).
CREATE TABLE chouette_messages (
    id          INTEGER PRIMARY KEY,
    session_id  INTEGER NOT NULL REFERENCES chouette_sessions (id),
    game_number INTEGER,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    purpose     TEXT    NOT NULL DEFAULT 'board',
    created_at  REAL    NOT NULL,
    UNIQUE (channel_id, message_id)
);
CREATE INDEX chouette_messages_session ON chouette_messages (session_id, purpose);
"""
"""Version 2 (chouettes, RULES C1–C11): sessions with their state and version, the dice series, the append-only
action log, a deadline per member who must decide, the results per member per game (zero-sum, read by the club
ledger) and the messages that show a session."""

CORRECTIONS_V3 = """
CREATE TABLE corrections (
    id          INTEGER PRIMARY KEY,
    club_id     INTEGER NOT NULL REFERENCES clubs (id),
    admin_id    INTEGER NOT NULL,                        -- the Discord user id of the admin who made it
    payer       INTEGER NOT NULL REFERENCES members (user_id),  -- gives the points and money
    payee       INTEGER NOT NULL REFERENCES members (user_id),  -- receives them
    points      INTEGER NOT NULL CHECK (points >= 0),
    money       INTEGER NOT NULL CHECK (money >= 0),
    reason      TEXT    NOT NULL CHECK (length(trim(reason)) > 0),
    source      TEXT    CHECK (source IN ('money', 'match', 'chouette')),  -- the session it corrects, if any
    source_id   INTEGER,
    at          REAL    NOT NULL,                        -- when it was made (Unix s)
    counts_at   REAL    NOT NULL,                        -- when it counts in the ledger's periods (Unix s)
    CHECK (payer <> payee),
    CHECK (points > 0 OR money > 0),
    CHECK ((source IS NULL) = (source_id IS NULL))
);
CREATE INDEX corrections_club ON corrections (club_id, counts_at);

CREATE TRIGGER corrections_no_update BEFORE UPDATE ON corrections
BEGIN
    SELECT RAISE(ABORT, 'corrections are an audit trail: they cannot be changed (make another correction)');
END;

CREATE TRIGGER corrections_no_delete BEFORE DELETE ON corrections
BEGIN
    SELECT RAISE(ABORT, 'corrections are an audit trail: they cannot be deleted (make another correction)');
END;
"""
"""Version 3 (club records): the admin corrections of the club ledger — who, when, why — as transfers from a payer
to a payee, so the ledger stays zero-sum; append-only like the action log."""

TALLIES_V4 = """
-- Version 4 (records at 50,000 games): the books' running totals, written in the transaction that ends a
-- game, so that the ledger of any period costs a few index seeks per member instead of a scan of every game. One
-- tally row per member per finished game (a two-player game's winner +points, loser -points; a chouette game's
-- member points); money = points x the stake. points_run / money_run / entries_run are the member's sums of that
-- kind in that club over every row up to this one in (at, id) order: the totals of [start, end) are the running sums
-- of the last row before end minus those of the last row before start. tally_totals holds the all-time sums.
CREATE TABLE tallies (
    id          INTEGER PRIMARY KEY,
    club_id     INTEGER NOT NULL,
    member_id   INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('money', 'match', 'chouette')),
    source_id   INTEGER NOT NULL,                        -- the match (money session) id or chouette session id
    game_number INTEGER NOT NULL,
    at          REAL    NOT NULL,                        -- when the game ended (games.ended_at, chouette_results.at)
    points      INTEGER NOT NULL,
    money       INTEGER NOT NULL,
    points_run  INTEGER NOT NULL,
    money_run   INTEGER NOT NULL,
    entries_run INTEGER NOT NULL,
    UNIQUE (kind, source_id, game_number, member_id)
);
CREATE INDEX tallies_running ON tallies (club_id, member_id, kind, at, id);

CREATE TABLE tally_totals (
    club_id   INTEGER NOT NULL,
    member_id INTEGER NOT NULL,
    kind      TEXT    NOT NULL,
    points    INTEGER NOT NULL,
    money     INTEGER NOT NULL,
    entries   INTEGER NOT NULL,
    PRIMARY KEY (club_id, member_id, kind)
) WITHOUT ROWID;

-- The records' other queries: a member's cube actions, his games in time order.
CREATE INDEX actions_member ON actions (member_id, kind) WHERE member_id IS NOT NULL;
CREATE INDEX games_ended ON games (ended_at) WHERE status = 'over';
CREATE INDEX matches_finished ON matches (club_id, kind, status, ended_at, id) WHERE winner IS NOT NULL;

-- The match files of finished tables (RULES A4), written once by the first export that needs one (a replay of
-- the whole log) and read by every later one; version = the table's version it was made at.
CREATE TABLE mat_files (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    version  INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    text     TEXT    NOT NULL
);
"""
"""Version 4: the running totals of the books (``tallies``, ``tally_totals``), written when a game ends;
indexes for a member's cube actions and for games by end time; the cache of finished tables' match files."""

TALLIES_BACKFILL = """
INSERT INTO tallies (club_id, member_id, kind, source_id, game_number, at, points, money, points_run, money_run,
                     entries_run)
SELECT club_id, member_id, kind, source_id, game_number, at, points, money,
       sum(points) OVER w, sum(money) OVER w, count(*) OVER w
FROM (
    SELECT m.club_id, CASE s.side WHEN 0 THEN m.player0 ELSE m.player1 END AS member_id, m.kind, m.id AS source_id,
           g.number AS game_number, g.ended_at AS at,
           CASE json_extract(g.result, '$.winner') WHEN s.side THEN 1 ELSE -1 END
               * json_extract(g.result, '$.points') AS points,
           CASE json_extract(g.result, '$.winner') WHEN s.side THEN 1 ELSE -1 END
               * json_extract(g.result, '$.points') * m.stake AS money
    FROM games g JOIN matches m ON m.id = g.match_id JOIN (SELECT 0 AS side UNION ALL SELECT 1) s
    WHERE g.status = 'over' AND g.ended_at IS NOT NULL AND json_extract(g.result, '$.winner') IN (0, 1)
      AND json_type(g.result, '$.points') = 'integer'
    UNION ALL
    SELECT c.club_id, r.member_id, 'chouette', r.session_id, r.game_number, r.at, r.points, r.points * r.stake
    FROM chouette_results r JOIN chouette_sessions c ON c.id = r.session_id
)
WINDOW w AS (PARTITION BY club_id, member_id, kind ORDER BY at, kind, source_id, game_number
             ROWS UNBOUNDED PRECEDING)
ORDER BY at, kind, source_id, game_number, member_id;
INSERT INTO tally_totals (club_id, member_id, kind, points, money, entries)
SELECT club_id, member_id, kind, sum(points), sum(money), count(*) FROM tallies GROUP BY club_id, member_id, kind;
"""
"""The tallies of every game already finished (version 4's backfill; also :func:`storage.tallies.rebuild`)."""

DM_CHANNELS_V5 = """
CREATE TABLE IF NOT EXISTS dm_channels (
    user_id    INTEGER PRIMARY KEY,                      -- the Discord user id
    channel_id INTEGER NOT NULL CHECK (channel_id >= 0), -- his direct-message channel; 0 = he accepts none (50007)
    updated_at REAL    NOT NULL
) WITHOUT ROWID;
"""
"""Version 5 (Discord): each member's direct-message channel, so a direct message costs one request, not a
``GET /users/{id}`` and a ``POST /users/@me/channels`` each time."""

MATCH_PRS_V6 = """CREATE TABLE IF NOT EXISTS match_prs (
    match_id    INTEGER NOT NULL REFERENCES matches (id),
    member_id   INTEGER NOT NULL,
    club_id     INTEGER NOT NULL,
    decisions   INTEGER NOT NULL CHECK (decisions >= 0),  -- counted (non-forced) decisions
    equity_lost REAL    NOT NULL CHECK (equity_lost >= 0),
    pr          REAL,
    errors      INTEGER NOT NULL DEFAULT 0,
    blunders    INTEGER NOT NULL DEFAULT 0,
    cube_errors INTEGER NOT NULL DEFAULT 0,
    level       TEXT    NOT NULL,                        -- the engine and depth, e.g. 'Open Sage 2ply'
    at          REAL    NOT NULL,                        -- when the match ended (Unix s)
    PRIMARY KEY (match_id, member_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS match_prs_club ON match_prs (club_id, member_id, at);
"""
"""Version 6: each finished rated match's PR per member (its review), kept per club."""

CHOUETTE_SHEET_V7 = """
-- Version 7: one row per finished chouette game — its score-sheet row (RULES C11: box,
-- captain, partner, points, circles, the next order, how it ended), written in the game's last transaction. The
-- session's hot state keeps only the sheet's columns and running totals. Append-only, like chouette_results.
CREATE TABLE chouette_sheet (
    session_id  INTEGER NOT NULL REFERENCES chouette_sessions (id),
    game_number INTEGER NOT NULL,
    row         TEXT    NOT NULL,
    at          REAL    NOT NULL,
    PRIMARY KEY (session_id, game_number)
) WITHOUT ROWID;

CREATE TRIGGER chouette_sheet_no_update BEFORE UPDATE ON chouette_sheet
BEGIN
    SELECT RAISE(ABORT, 'chouette sheet rows are a record: they cannot be changed');
END;

CREATE TRIGGER chouette_sheet_no_delete BEFORE DELETE ON chouette_sheet
BEGIN
    SELECT RAISE(ABORT, 'chouette sheet rows are a record: they cannot be deleted');
END;
"""
"""Version 7: each finished chouette game's score-sheet row in a row of its own
(``chouette_sheet``), out of the session's hot state; the rows of older states are written by ``python -m club
upgrade`` (:func:`club.states.upgrade_states`) from the replayed logs."""

DEADLINE_MARKS_V9 = """
ALTER TABLE deadlines ADD COLUMN marked_at REAL;
ALTER TABLE chouette_deadlines ADD COLUMN marked_at REAL;
"""
"""Version 9: ``marked_at``, when a deadline's reminder or expiry was last recorded (the club's clock then), so that
:meth:`storage.store.Store.latest_time` knows how far a clock got that sent a reminder and logged nothing (the
console's ``wait``)."""

EVENTS_V10 = """
-- Version 10: club events (knock-outs, Swiss, round robins, ladders, league seasons). An event is a log of its own:
-- event_actions is append-only (seq 1, 2, 3 ... per event) and replaying it rebuilds the event; the events row holds
-- what lists and the scheduler need (name, status, version = the seq of its last action, the next deadline).
CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    club_id     INTEGER NOT NULL REFERENCES clubs (id),
    name        TEXT    NOT NULL CHECK (length(trim(name)) > 0),
    format      TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('open', 'running', 'over', 'cancelled')),
    version     INTEGER NOT NULL CHECK (version >= 1),
    next_at     REAL,                                    -- the next deadline or decision due (None: nothing)
    created_by  INTEGER NOT NULL,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL,
    ended_at    REAL,
    UNIQUE (club_id, name)
);
CREATE INDEX events_next_at ON events (next_at) WHERE next_at IS NOT NULL;

CREATE TABLE event_actions (
    id        INTEGER PRIMARY KEY,
    event_id  INTEGER NOT NULL REFERENCES events (id),
    seq       INTEGER NOT NULL CHECK (seq >= 1),
    member_id INTEGER,                                   -- who acted (NULL: the club — a deadline, a match's end)
    kind      TEXT    NOT NULL,
    args      TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(args)),
    at        REAL    NOT NULL,
    UNIQUE (event_id, seq)
);

CREATE TRIGGER event_actions_no_update BEFORE UPDATE ON event_actions
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only: actions cannot be changed');
END;

CREATE TRIGGER event_actions_no_delete BEFORE DELETE ON event_actions
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only: actions cannot be deleted');
END;

-- The ordinary club match that plays an event's pairing (the match knows nothing of the event: this row is the
-- link). match_id is NULL between the claim of the pairing and the match's creation.
CREATE TABLE event_matches (
    event_id  INTEGER NOT NULL REFERENCES events (id),
    pairing   TEXT    NOT NULL,
    match_id  INTEGER UNIQUE REFERENCES matches (id),
    at        REAL    NOT NULL,
    PRIMARY KEY (event_id, pairing)
);
"""
"""Version 10: club events — ``events`` (one row each: name, status, version, next deadline), their append-only log
``event_actions`` and ``event_matches``, the club match that plays each pairing (:mod:`storage.events`)."""

QUIZZES_V11 = """
CREATE TABLE quizzes (
    id          INTEGER PRIMARY KEY,
    club_id     INTEGER NOT NULL REFERENCES clubs (id),
    channel_id  INTEGER NOT NULL,                        -- the Discord channel of its poll (an id only)
    message_id  INTEGER,                                 -- the poll's message; NULL until posted
    question    TEXT    NOT NULL CHECK (json_valid(question)),  -- club.quiz.QuizQuestion.to_json()
    status      TEXT    NOT NULL CHECK (status IN ('open', 'revealed')),
    created_at  REAL    NOT NULL,
    closes_at   REAL    NOT NULL
);
CREATE INDEX quizzes_open ON quizzes (status, message_id);
CREATE INDEX quizzes_club ON quizzes (club_id, created_at);
CREATE TABLE quiz_answers (
    quiz_id     INTEGER NOT NULL REFERENCES quizzes (id),
    member_id   INTEGER NOT NULL,
    club_id     INTEGER NOT NULL,
    correct     INTEGER NOT NULL CHECK (correct IN (0, 1)),
    PRIMARY KEY (quiz_id, member_id)
) WITHOUT ROWID;
CREATE INDEX quiz_answers_club ON quiz_answers (club_id, member_id);
"""
"""Version 11: the club quizzes (their polls, open until revealed) and each member's answers (:mod:`storage.quizzes`)."""

QUIZ_SCREENS_V12 = """
CREATE TABLE quiz_screens (
    match_id    INTEGER NOT NULL REFERENCES matches (id),
    game        INTEGER NOT NULL,                        -- 1 = the match's first game
    length      INTEGER NOT NULL,                        -- the game's history length when it was screened
    screened    TEXT    NOT NULL CHECK (json_valid(screened)),  -- [[loss, history index, side], ...], costliest first
    PRIMARY KEY (match_id, game)
) WITHOUT ROWID;
"""
"""Version 12: each finished game's screen for the quiz and the blunders — its decisions that lost equity
(:mod:`storage.quizzes`, :mod:`club.analysis.screen`), kept so that no game is screened twice, across restarts too."""
NOTICES_V13 = """
CREATE TABLE notices (
    id          INTEGER PRIMARY KEY,
    key         TEXT    NOT NULL UNIQUE,
    body        TEXT    NOT NULL CHECK (json_valid(body)),
    created_at  REAL    NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    posted_at   REAL
);
CREATE INDEX notices_pending ON notices (posted_at, id);
"""
"""Version 13: the time-limit notices to post, at least once and each once (:mod:`storage.notices`)."""

MIGRATIONS: list[tuple[int, str]] = [
    (2, CHOUETTES_V2),
    (3, CORRECTIONS_V3),
    (4, TALLIES_V4 + TALLIES_BACKFILL),
    (5, DM_CHANNELS_V5),
    (6, MATCH_PRS_V6),
    (7, CHOUETTE_SHEET_V7),
    (8, REPLIES_V8),
    (9, DEADLINE_MARKS_V9),
    (10, EVENTS_V10),
    (11, QUIZZES_V11),
    (12, QUIZ_SCREENS_V12),
    (13, NOTICES_V13),
]
"""Upgrade steps ``(version reached, SQL script)`` in ascending order; version 1 is ``schema.sql`` itself."""


async def migrate_or_close(database: Any, close: Callable[[], Awaitable[Any]]) -> Any:
    """``database`` (SQLite's, PostgreSQL's or the PostgreSQL log) after its ``_migrate()`` brought the schema up to
    date; if that fails, ``close()`` releases its connections and the error is raised (a database that could not be
    opened holds none). Raises what ``_migrate`` raises (:class:`~storage.errors.SchemaError` …)."""
    try:
        await database._migrate()
    except BaseException:
        await close()
        raise
    return database


def schema_sql() -> str:
    """The text of ``schema.sql`` (the current schema, version :data:`SCHEMA_VERSION`)."""
    return resources.files(__package__).joinpath("schema.sql").read_text(encoding="utf-8")
