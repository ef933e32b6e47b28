-- The club database at the current schema version (storage.migrations.SCHEMA_VERSION = PRAGMA user_version).
--
-- This file is the whole current schema: a new database is created from it. An older database is brought up to date
-- by the steps in storage/migrations.py, each of which raises PRAGMA user_version by one.
--
-- Times are Unix seconds (REAL, UTC). JSON columns hold canonical JSON (sorted keys, no spaces) written by club/.
-- A match row is a match to N points (kind 'match') or a money session (kind 'money', length 0): its current state
-- plus a version number, which is the sequence number of its last logged action. Every change is one transaction
-- that appends to `actions` and updates the state only if the version is unchanged (UPDATE ... WHERE version = ?).

CREATE TABLE clubs (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL UNIQUE,                 -- the Discord guild the club lives in
    name        TEXT    NOT NULL DEFAULT '',
    settings    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),  -- rule set, time limits, policies
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);

CREATE TABLE members (
    user_id      INTEGER PRIMARY KEY,                    -- the Discord user id
    display_name TEXT    NOT NULL,
    preferences  TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(preferences)),
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL
);

CREATE TABLE club_members (
    club_id    INTEGER NOT NULL REFERENCES clubs (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES members (user_id),
    joined_at  REAL    NOT NULL,
    PRIMARY KEY (club_id, user_id)
) WITHOUT ROWID;

CREATE TABLE matches (
    id          INTEGER PRIMARY KEY,
    club_id     INTEGER NOT NULL REFERENCES clubs (id),
    kind        TEXT    NOT NULL CHECK (kind IN ('match', 'money')),
    length      INTEGER NOT NULL CHECK (length >= 0),    -- points to win; 0 for a money session
    player0     INTEGER NOT NULL REFERENCES members (user_id),  -- side 0: the challenger
    player1     INTEGER NOT NULL REFERENCES members (user_id),  -- side 1: the challenged
    rules       TEXT    NOT NULL CHECK (json_valid(rules)),      -- RuleSet.to_json()
    stake       INTEGER NOT NULL DEFAULT 0 CHECK (stake >= 0),  -- per point, money sessions
    status      TEXT    NOT NULL CHECK (status IN ('challenged', 'active', 'over', 'declined', 'cancelled', 'expired')),
    state       TEXT    NOT NULL CHECK (json_valid(state)),      -- the club's table state (Match.to_json() inside)
    version     INTEGER NOT NULL CHECK (version >= 1),
    game_number INTEGER NOT NULL DEFAULT 0,              -- the current (or last) game, 0 before the first
    waiting_for INTEGER REFERENCES members (user_id),    -- who must act now; NULL when nobody
    pending     TEXT,                                    -- what is awaited, e.g. 'roll', 'play', 'take'
    score0      INTEGER NOT NULL DEFAULT 0,              -- points of side 0 (money: running total)
    score1      INTEGER NOT NULL DEFAULT 0,              -- points of side 1
    winner      INTEGER CHECK (winner IN (0, 1)),        -- side that won the match (NULL while playing, money)
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL,
    ended_at    REAL,
    CHECK (player0 <> player1)
);
CREATE INDEX matches_waiting_for ON matches (waiting_for, updated_at) WHERE waiting_for IS NOT NULL;
CREATE INDEX matches_player0 ON matches (player0, updated_at);
CREATE INDEX matches_player1 ON matches (player1, updated_at);
CREATE INDEX matches_club ON matches (club_id, status);

CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    match_id     INTEGER NOT NULL REFERENCES matches (id),
    number       INTEGER NOT NULL CHECK (number >= 1),   -- 1, 2, ... within the match or session
    state        TEXT    NOT NULL CHECK (json_valid(state)),  -- Game.to_json()
    version      INTEGER NOT NULL CHECK (version >= 1),  -- how many logged actions belong to this game
    status       TEXT    NOT NULL CHECK (status IN ('playing', 'over')),
    dice         TEXT    NOT NULL CHECK (dice IN ('fair', 'injected')),
    seed_hash    TEXT,                                   -- SHA-256 (hex) of the server seed, shown at the start
    seed         TEXT,                                   -- the server seed (hex); secret until the game ends
    seed_revealed INTEGER NOT NULL DEFAULT 0 CHECK (seed_revealed IN (0, 1)),
    rolls        INTEGER NOT NULL DEFAULT 0,             -- the next roll counter
    result       TEXT CHECK (result IS NULL OR json_valid(result)),
    started_at   REAL    NOT NULL,
    ended_at     REAL,
    UNIQUE (match_id, number)
);

-- The append-only record. seq runs 1, 2, 3 ... per match; game_number is NULL for match-level actions
-- (challenge, accept, decline, cancel, ...). member_id NULL = the club acted (time limit).
CREATE TABLE actions (
    id          INTEGER PRIMARY KEY,
    match_id    INTEGER NOT NULL REFERENCES matches (id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    game_number INTEGER,
    member_id   INTEGER,
    side        INTEGER CHECK (side IN (0, 1)),
    kind        TEXT    NOT NULL,
    args        TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(args)),
    dice        TEXT,                                    -- e.g. '31' (a roll) or '52' (opening: side 0, side 1)
    roll_index  INTEGER,                                 -- the counter the dice were derived from
    auto        INTEGER NOT NULL DEFAULT 0 CHECK (auto IN (0, 1)),  -- played for the member (auto-roll, forced)
    at          REAL    NOT NULL,
    UNIQUE (match_id, seq),
    FOREIGN KEY (match_id, game_number) REFERENCES games (match_id, number)
);
CREATE INDEX actions_game ON actions (match_id, game_number, seq);

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: actions cannot be changed');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: actions cannot be deleted');
END;

-- The Discord messages that show a match or one of its games, so that they can be edited later.
CREATE TABLE messages (
    id          INTEGER PRIMARY KEY,
    match_id    INTEGER NOT NULL REFERENCES matches (id),
    game_number INTEGER,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    purpose     TEXT    NOT NULL DEFAULT 'board',        -- 'board', 'challenge', 'result', ...
    created_at  REAL    NOT NULL,
    UNIQUE (channel_id, message_id)
);
CREATE INDEX messages_match ON messages (match_id, game_number);

-- The deadline of the one pending action of a match (RULES A2). Replaced in the same transaction as every action.
-- reminders: JSON list of the times (Unix s) of the reminders still to send; next_at = the earliest thing still to
-- fire (a reminder or the expiry), NULL when nothing is left.
CREATE TABLE deadlines (
    match_id       INTEGER PRIMARY KEY REFERENCES matches (id),
    member_id      INTEGER NOT NULL REFERENCES members (user_id),
    pending        TEXT    NOT NULL,
    version        INTEGER NOT NULL,                     -- the match version the deadline belongs to
    set_at         REAL    NOT NULL,
    due_at         REAL    NOT NULL,
    reminders      TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(reminders)),
    reminders_sent INTEGER NOT NULL DEFAULT 0,
    expired_at     REAL,
    next_at        REAL,
    marked_at      REAL                                  -- when a reminder or the expiry was last recorded (v9)
);
CREATE INDEX deadlines_next_at ON deadlines (next_at) WHERE next_at IS NOT NULL;

-- Version 2 (chouettes, RULES C1–C11): a session is a row with its state and version (like a match), its
-- append-only log, dice series, per-member deadlines, results and messages.
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
-- keeps its time. marked_at (version 9, written as SQLite's ALTER TABLE writes it): when a reminder or the expiry was
-- last recorded.
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
    next_at        REAL, marked_at REAL,
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

-- Version 3 (club records): admin corrections of the club ledger, the audit trail (who, when, why). Each is a
-- transfer of points and/or money from payer to payee, so every period of the ledger stays zero-sum. Append-only.
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

-- Each member's direct-message channel (Discord), so a direct message needs no user look-up; 0 = he accepts none.
CREATE TABLE dm_channels (
    user_id    INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL CHECK (channel_id >= 0),
    updated_at REAL    NOT NULL
) WITHOUT ROWID;

-- Version 6 (PRs kept per club): each finished rated match's or money session's error rate per member,
-- written when its review is computed (club.analysis.review). equity_lost and decisions are the sums the PR is made
-- of (PR = 500 x equity_lost / decisions), so a member's PR over many matches is 500 x sum(lost) / sum(decisions).
-- pr NULL: too few counted decisions to say. Practice games (club.practice) never get a row.
CREATE TABLE match_prs (
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
CREATE INDEX match_prs_club ON match_prs (club_id, member_id, at);

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

-- Version 8: each member's reply times in his two-player games as a histogram (storage/replies.py),
-- added to by every commit, so that /club stats reads at most a thousand rows instead of joining his every action.
CREATE TABLE reply_tallies (
    club_id   INTEGER NOT NULL,
    member_id INTEGER NOT NULL,
    bucket    INTEGER NOT NULL,                          -- lower bound, whole seconds (storage.replies.bucket)
    replies   INTEGER NOT NULL CHECK (replies >= 1),
    seconds   REAL    NOT NULL,                          -- the sum of their lengths
    PRIMARY KEY (club_id, member_id, bucket)
) WITHOUT ROWID;

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

-- Version 11: the club quizzes (their polls, open until revealed) and each member's answers (storage/quizzes.py).
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

-- Version 12: each finished game's screen for the quiz and the blunders (storage/quizzes.py).
CREATE TABLE quiz_screens (
    match_id    INTEGER NOT NULL REFERENCES matches (id),
    game        INTEGER NOT NULL,                        -- 1 = the match's first game
    length      INTEGER NOT NULL,                        -- the game's history length when it was screened
    screened    TEXT    NOT NULL CHECK (json_valid(screened)),  -- [[loss, history index, side], ...], costliest first
    PRIMARY KEY (match_id, game)
) WITHOUT ROWID;

-- Version 13: time-limit notices to post, at least once and each once (storage/notices.py): recorded pending with
-- the firing that made them, posted by the scheduler, then marked posted.
CREATE TABLE notices (
    id          INTEGER PRIMARY KEY,
    key         TEXT    NOT NULL UNIQUE,                 -- names the notice: recording it again changes nothing
    body        TEXT    NOT NULL CHECK (json_valid(body)),      -- club.notices.notice_body()
    created_at  REAL    NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,              -- failed posts (given up after storage.notices.ATTEMPTS)
    posted_at   REAL                                     -- NULL: pending
);
CREATE INDEX notices_pending ON notices (posted_at, id);
