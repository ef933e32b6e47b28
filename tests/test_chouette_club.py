"""Chouettes in the club (club.chouette): seat roll, the Team's doubling window with its deadline, answers routed per
member, proxies at missed deadlines, the score sheet and chouette_results, restarts, refusals, and the replayable
log (RULES C1, C2, C4, C5, C9, C11, A1, A2)."""

from __future__ import annotations

import random
import sqlite3

import pytest

from backgammon.errors import ChouetteError
from club import InjectedDice, ManualClock
from club.chouette import ChouetteService
from club.errors import InvalidRequestError, NotAPlayerError, NotNowError, StaleVersionError
from club.scheduler import run_due
from club.verify import verify_chouette
from storage import SCHEMA_VERSION, Database
from storage.chouettes import ChouetteStore
from tests.chouette_clubkit import ANN, BOB, CHANNEL, CY, DI, ED, GUILD, HOUR, chouettes, decide_randomly, seated
from tests.clubkit import snapshot

pytestmark = pytest.mark.backends

SEATING = [(6, 6), (6, 5), (5, 5), (5, 4), (4, 4)]  # Ann 12, Bob 11, Cy 10, Di 9, Ed 8: Ann Box, Bob Captain


def by_subject(view):
    return {decision.subject: decision for decision in view.decisions}


async def team_window(service: ChouetteService, opening=(2, 1)):
    """Seat Ann (Box), Bob (Captain), Cy, Di, Ed; Box opens with ``opening`` and plays; the Team's turn starts."""
    outcome = await seated(service)
    assert outcome.view.order == (ANN, BOB, CY, DI, ED)
    plays = await service.legal_plays(outcome.session_id, ANN)
    return await service.play(outcome.session_id, ANN, plays[0])


async def test_seat_roll_orders_members_and_ties_throw_again(tmp_path):
    """RULES C1: every member throws two dice (Atlanta 1.3); highest is Box, next Captain; tied members alone throw
    again; the first game starts by itself and its first decision pings exactly Box (who opened the board)."""
    dice = InjectedDice([(6, 6), (3, 2), (4, 4), (5, 3), (1, 1), (2, 1), (6, 5)], fallback=b"seat")
    async with chouettes(tmp_path / "c.sqlite3", dice=dice) as service:
        opened = await service.start(GUILD, CHANNEL, ANN)
        assert opened.view.phase == "lobby" and opened.view.lobby == (ANN,)
        sid = opened.session_id
        for member in (BOB, CY, DI):
            await service.join(sid, member)
        with pytest.raises(InvalidRequestError, match="already running"):
            await service.start(GUILD, CHANNEL, ED)
        outcome = await service.seat(sid, DI)
        # Ann 12, Bob 5, Cy 8, Di 8: Cy and Di tie and throw again (1+1 against 2+1)
        assert "Ties throw again: Cy 1+1, Di 2+1" in outcome.message
        view = outcome.view
        assert view.phase == "playing" and view.order == (ANN, DI, CY, BOB)
        assert (view.box, view.captain, view.team) == (ANN, DI, (DI, CY, BOB))
        assert [c.key for c in view.cubes] == [str(DI), str(CY), str(BOB)] and {c.state for c in view.cubes} == {
            "centred"
        }
        # opening 6-5: Box plays first
        assert [(d.subject, d.pending) for d in view.decisions] == [(ANN, "play")]
        assert outcome.ping == (ANN,)
        throws = [a for a in await service.log(sid) if a.kind in ("seat", "rethrow")]
        assert [a.dice for a in throws] == [
            [[ANN, [6, 6]], [BOB, [3, 2]], [CY, [4, 4]], [DI, [5, 3]]],
            [[CY, [1, 1]], [DI, [2, 1]]],
        ]


async def test_team_window_pings_exactly_the_deciders_and_closes_early(tmp_path):
    """RULES C5 (003 Atlanta 5.9): at the Team's turn every member who may double gets the window, with one
    deadline; it closes as soon as all have doubled or passed — then Box answers (pinged alone); the Captain may not
    roll while others hold the roll; each decision's deadline keeps its time while others act."""
    clock = ManualClock()
    path = tmp_path / "c.sqlite3"
    async with chouettes(path, clock, dice=InjectedDice([*SEATING, (2, 1)], fallback=b"w")) as service:
        outcome = await team_window(service)
        view = outcome.view
        window = by_subject(view)
        assert set(window) == {BOB, CY, DI, ED} and {d.pending for d in view.decisions} == {"double"}
        assert set(outcome.ping) == {BOB, CY, DI, ED}
        due = {d.due_at for d in view.decisions}
        assert due == {clock.now() + 24 * HOUR}
        sid, mark = view.session_id, view.mark
        clock.advance(HOUR)
        outcome = await service.act(sid, CY, "double", mark=mark)
        assert outcome.ping == () and set(by_subject(outcome.view)) == {BOB, DI, ED}
        assert {d.due_at for d in outcome.view.decisions} == due, "the others keep their deadline"
        cube = {c.key: c for c in outcome.view.cubes}[str(CY)]
        assert (cube.state, cube.offered) == ("offered", 2)
        before = snapshot(path)
        with pytest.raises(NotNowError, match="Di, Ed"):
            await service.act(sid, BOB, "roll", mark=mark)
        assert snapshot(path) == before
        await service.act(sid, DI, "pass", mark=mark)
        await service.act(sid, BOB, "pass", mark=mark)
        outcome = await service.act(sid, ED, "pass", mark=mark)
        assert [(d.subject, d.pending, d.cubes) for d in outcome.view.decisions] == [(ANN, "box_answer", (str(CY),))]
        assert outcome.ping == (ANN,)
        outcome = await service.act(sid, ANN, "take", mark=mark)
        cube = {c.key: c for c in outcome.view.cubes}[str(CY)]
        assert (cube.state, cube.owner, cube.value) == ("taken", "box", 2)
        assert "Auto-roll" in outcome.message, "the Captain rolls by himself: nobody may double any more"
        assert [d.pending for d in outcome.view.decisions] in (["play"], ["roll"]) or outcome.view.on_roll == "box"


async def test_missed_window_goes_to_the_named_proxy_then_the_policy(tmp_path):
    """RULES C9 (003 Atlanta 7.1), A2: Cy named Di his proxy; Cy and Ed miss the window's deadline: they are marked
    away, Di is pinged for Cy; Ed, away with no proxy, is passed over at once (no double: only he, his proxy or his
    standing order turns his cube) — nobody is asked for him; Di doubles Cy's cube for him (logged as Di acting for
    Cy), and the window closes."""
    clock = ManualClock()
    async with chouettes(tmp_path / "c.sqlite3", clock, dice=InjectedDice([*SEATING, (2, 1)], fallback=b"p")) as svc:
        seatedo = await seated(svc)
        sid = seatedo.session_id
        await svc.proxy(sid, CY, DI)
        plays = await svc.legal_plays(sid, ANN)
        outcome = await svc.play(sid, ANN, plays[0])
        mark = outcome.view.mark
        await svc.act(sid, BOB, "pass", mark=mark)
        await svc.act(sid, DI, "pass", mark=mark)
        clock.advance(23 * HOUR)
        reminders = await run_due(svc)
        assert {(n.kind, n.actor) for n in reminders} == {("reminder", CY), ("reminder", ED)}
        assert await run_due(svc) == [], "each reminder fires once"
        clock.advance(2 * HOUR)
        notices = await run_due(svc)
        assert [n.kind for n in notices] == ["expiry", "expiry"]
        view = await svc.state(sid)
        assert set(view.away) == {CY, ED}
        proxies = {d.subject: (d.actor, d.stage, d.due_at) for d in view.decisions}
        assert proxies == {CY: (DI, "proxy", clock.now() + 12 * HOUR)}
        assert {n.subject: n.ping for n in notices}[CY] == (DI,) and BOB not in {p for n in notices for p in n.ping}
        passed = [n.text for n in notices if n.subject == ED][0]
        assert "Ed does not double (away with nobody present to decide for them: passed over" in passed
        with pytest.raises(ChouetteError, match="Di acts for Cy"):
            await svc.act(sid, ED, "double", subject=CY, mark=mark)
        outcome = await svc.act(sid, DI, "double", subject=CY, mark=mark)
        assert "Cy doubles (for Cy, by Di)" in outcome.message
        log = await svc.log(sid)
        assert (log[-1].kind, log[-1].member_id, log[-1].args["member"]) == ("double", DI, CY)
        passed_over = [a for a in log if a.kind == "pass" and a.args["member"] == ED]
        assert [(a.member_id, a.args.get("why")) for a in passed_over] == [(None, "passed_over")]
        assert [(d.subject, d.pending) for d in outcome.view.decisions] == [(ANN, "box_answer")]
        assert outcome.ping == (ANN,)
        assert (await verify_chouette(svc.club.db, sid)).ok


async def test_missed_answer_follows_the_proxys_own_decision(tmp_path):
    """RULES C9 policy (003 Atlanta 7.1): Box doubles every cube; Bob (Captain) takes and Ed drops; Cy (no proxy:
    the Captain represents him) and Di (proxy Ed) miss their answers and their proxies' time: Cy takes as Bob did,
    Di drops as Ed did — and the drops are paid at once, the sheet later sums to zero."""
    clock = ManualClock()
    async with chouettes(tmp_path / "c.sqlite3", clock, dice=InjectedDice([*SEATING, (1, 2)], fallback=b"a")) as svc:
        outcome = await seated(svc)
        sid = outcome.session_id
        await svc.proxy(sid, DI, ED)
        plays = await svc.legal_plays(sid, BOB)
        outcome = await svc.play(sid, BOB, plays[0])
        decision = by_subject(outcome.view)[ANN]
        assert decision.pending == "roll" and decision.actions == ("roll", "double")
        outcome = await svc.act(sid, ANN, "double", mark=outcome.view.mark)
        assert set(outcome.ping) == {BOB, CY, DI, ED}
        assert {d.pending for d in outcome.view.decisions} == {"answer"}
        mark = outcome.view.mark
        await svc.act(sid, BOB, "take", mark=mark)
        await svc.act(sid, ED, "drop", mark=mark)
        clock.advance(24 * HOUR)
        await run_due(svc)
        clock.advance(12 * HOUR)
        notices = await run_due(svc)
        assert {n.subject for n in notices} == {CY, DI}
        view = await svc.state(sid)
        cubes = {c.key: (c.state, c.value) for c in view.cubes}
        assert cubes == {
            str(BOB): ("taken", 2),
            str(CY): ("taken", 2),
            str(DI): ("dropped", 1),
            str(ED): ("dropped", 1),
        }
        text = "\n".join(n.text for n in notices)
        assert "Cy takes (time: the club's policy)" in text and "Di drops (time: the club's policy)" in text


async def test_game_end_writes_zero_sum_results_and_a_replayable_log(tmp_path):
    """RULES C3, C11, A1: a three-handed chouette played out at random with fair dice (no doubling): the board ends,
    every cube scores between Box and its holder (single games under Jacoby, D4), the row goes on the sheet and into
    chouette_results (zero-sum), the game's seed is revealed and the whole log replays and proves every roll."""
    path = tmp_path / "c.sqlite3"
    async with chouettes(path, synchronous="NORMAL") as svc:
        outcome = await seated(svc, (ANN, BOB, CY))
        sid = outcome.session_id
        rng = random.Random(5)
        for _ in range(2000):
            if outcome.finished:
                break
            outcome = await decide_randomly(svc, outcome, rng)
        assert outcome.finished == (1,) and outcome.view.game_number == 2
        assert outcome.revealed and outcome.revealed[0][0] == 1
        results = await ChouetteStore(svc.club.db).results(sid)
        points = {r.member_id: r.points for r in results}
        assert sum(points.values()) == 0 and sorted(points.values()) in ([-1, -1, 2], [-2, 1, 1])
        row = outcome.view.sheet.rows[0]
        assert row.points == points and outcome.view.sheet.zero_sum
        report = await verify_chouette(svc.club.db, sid)
        assert report.ok, report.problems
        assert report.games == 1 and report.proven_rolls > 20 and report.injected_games == 0


async def test_a_restart_loses_nothing(tmp_path):
    """DESIGN (the log is the record), RULES A2: the database is closed in the middle of a Team's window and opened
    again by a new service; the session, its deadlines and the buttons' mark are as they were and play goes on."""
    clock = ManualClock()
    path = tmp_path / "c.sqlite3"
    dice = InjectedDice([*SEATING, (2, 1)], fallback=b"r")
    async with chouettes(path, clock, dice=dice) as svc:
        outcome = await team_window(svc)
        sid, mark = outcome.session_id, outcome.view.mark
        await svc.act(sid, CY, "pass", mark=mark)
        before = await svc.state(sid)
    async with chouettes(path, clock, dice=dice) as svc:
        after = await svc.state(sid)
        assert after == before
        for member in (BOB, DI, ED):
            outcome = await svc.act(sid, member, "pass", mark=mark)
        assert "Auto-roll" in outcome.message and [(d.subject, d.pending) for d in outcome.view.decisions] == [
            (BOB, "play")
        ], "the window closed and the Captain rolled"
        assert (await verify_chouette(svc.club.db, sid)).ok


async def test_refusals_change_nothing(tmp_path):
    """Only the right member can act, and a refused call changes nothing stored: a stranger; a member acting for
    another who is present (RULES C9: a proxy acts only while he is away); a button from an older turn; Box's
    answer before anything is offered; the seat roll twice."""
    path = tmp_path / "c.sqlite3"
    async with chouettes(path, dice=InjectedDice([*SEATING, (2, 1)], fallback=b"n")) as svc:
        outcome = await team_window(svc)
        sid, mark = outcome.session_id, outcome.view.mark
        await svc.club.register(GUILD, 606, "Flo")
        before = snapshot(path)
        with pytest.raises(NotAPlayerError):
            await svc.act(sid, 606, "pass", mark=mark)
        with pytest.raises(ChouetteError, match="Cy is here and decides himself"):
            await svc.act(sid, DI, "double", subject=CY, mark=mark)
        with pytest.raises(StaleVersionError, match="Already done"):
            await svc.act(sid, CY, "pass", mark="1.0")
        with pytest.raises(ChouetteError, match="Box answers once the Team has finished doubling"):
            await svc.act(sid, ANN, "take", mark=mark)
        with pytest.raises(NotNowError, match="already seated"):
            await svc.seat(sid, ANN)
        assert snapshot(path) == before


async def test_join_and_leave_between_games(tmp_path):
    """RULES C2, C9: a member joining during a game waits and is seated at the end of the Team after it; one leaving
    during the game is away now (represented) and out after it; between games both happen at once."""
    async with chouettes(tmp_path / "c.sqlite3", dice=InjectedDice([*SEATING[:4], (1, 2)], fallback=b"j")) as svc:
        outcome = await seated(svc, (ANN, BOB, CY, DI))
        sid = outcome.session_id
        outcome = await svc.join(sid, ED)
        assert outcome.view.waiting == (ED,) and ED not in outcome.view.order
        outcome = await svc.leave(sid, DI)
        assert DI in outcome.view.away and outcome.view.retiring == (DI,)
        plays = await svc.legal_plays(sid, BOB)
        outcome = await svc.play(sid, BOB, plays[0])
        outcome = await svc.act(sid, ANN, "double", mark=outcome.view.mark)
        deciders = by_subject(outcome.view)
        assert deciders[DI].actor == BOB, "Di is away: the Captain decides for him (RULES C9)"
        outcome = await svc.act(sid, BOB, "drop", subject=DI, mark=outcome.view.mark)
        for member in (CY, BOB):
            outcome = await svc.act(sid, member, "drop", mark=outcome.view.mark)
        assert outcome.finished == (1,)
        view = outcome.view
        assert DI not in view.members and view.order[-1] == ED and view.game_number == 2
        assert view.sheet.rows[0].points == {ANN: 3, BOB: -1, CY: -1, DI: -1}


async def test_classic_partners_answer_the_captains_double(tmp_path):
    """RULES C4 (000 Ch.8): in the classic family only the Captain doubles, for the whole Team; his partners are
    pinged to go along or refuse (a refuser pays his count at once), then Box answers one cube for all."""
    dice = InjectedDice([(6, 1), (5, 1), (4, 1), (3, 1), (1, 2)], fallback=b"c")
    async with chouettes(tmp_path / "c.sqlite3", dice=dice) as svc:
        outcome = await seated(svc, (ANN, BOB, CY, DI), rules="chouette-classic")
        sid = outcome.session_id
        assert outcome.view.order == (ANN, BOB, CY, DI)
        plays = await svc.legal_plays(sid, BOB)
        outcome = await svc.play(sid, BOB, plays[0])
        rng = random.Random(1)
        while outcome.view.on_roll != "team" or outcome.view.decisions[0].pending != "roll":
            outcome = await decide_randomly(svc, outcome, rng)
        assert outcome.view.decisions[0].actions == ("roll", "double")
        outcome = await svc.act(sid, BOB, "double", mark=outcome.view.mark)
        assert {(d.subject, d.pending) for d in outcome.view.decisions} == {(CY, "consent"), (DI, "consent")}
        assert set(outcome.ping) == {CY, DI}
        await svc.act(sid, CY, "take", mark=outcome.view.mark)
        outcome = await svc.act(sid, DI, "drop", mark=outcome.view.mark)
        assert [(d.subject, d.pending) for d in outcome.view.decisions] == [(ANN, "box_answer")]
        outcome = await svc.act(sid, ANN, "take", mark=outcome.view.mark)
        cubes = {c.key: (c.state, c.value) for c in outcome.view.cubes}
        assert cubes == {str(BOB): ("taken", 2), str(CY): ("taken", 2), str(DI): ("dropped", 1)}


@pytest.mark.sqlite_only
async def test_verify_detects_a_tampered_session(tmp_path):
    """RULES A4: a stored state that the log does not rebuild, or results that differ from the sheet, are found."""
    path = tmp_path / "c.sqlite3"
    async with chouettes(path, dice=InjectedDice([*SEATING, (2, 1)], fallback=b"t")) as svc:
        outcome = await team_window(svc)
        sid = outcome.session_id
        assert (await verify_chouette(svc.club.db, sid)).ok
    conn = sqlite3.connect(path)
    conn.execute("UPDATE chouette_sessions SET state = json_set(state, '$.stake', 99) WHERE id = ?", (sid,))
    conn.execute("INSERT INTO chouette_results VALUES (?, 1, ?, 5, 0, 0)", (sid, ANN))
    conn.commit()
    conn.close()
    async with Database.open(path) as db:
        report = await verify_chouette(db, sid)
    assert not report.ok
    assert any("state differs" in p for p in report.problems)
    assert any("chouette_results differ" in p for p in report.problems)


@pytest.mark.sqlite_only
async def test_migration_to_version_2_matches_the_schema(tmp_path):
    """storage: a version-1 database is upgraded by the version-2 step to exactly the chouette tables schema.sql
    creates (same SQL), and the append-only triggers refuse changes to the log and the results."""
    fresh = tmp_path / "fresh.sqlite3"
    async with Database.open(fresh):
        pass
    old = tmp_path / "old.sqlite3"
    async with Database.open(old):
        pass
    conn = sqlite3.connect(old)
    objects = conn.execute(
        "SELECT type, name FROM sqlite_master WHERE name LIKE 'chouette%' OR name LIKE 'correction%' OR name LIKE 'event%' OR name LIKE 'quiz%' "
        "OR name LIKE 'tall%' OR name LIKE 'reply%' OR name LIKE 'notices%' OR name IN ('mat_files', 'actions_member', 'games_ended', 'matches_finished')"
    ).fetchall()
    for kind, name in objects:
        if kind in ("table", "trigger", "index") and not name.startswith("sqlite_"):
            conn.execute(f"DROP {kind.upper()} IF EXISTS {name}")
    conn.execute("ALTER TABLE deadlines DROP COLUMN marked_at")  # version 9's column of a version-1 table
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    async with Database.open(old) as db:
        assert await db.user_version() == SCHEMA_VERSION

    def chouette_sql(path):
        conn = sqlite3.connect(path)
        try:
            return sorted(conn.execute("SELECT type, name, sql FROM sqlite_master WHERE name LIKE 'chouette%'"))
        finally:
            conn.close()

    assert chouette_sql(old) == chouette_sql(fresh) and len(chouette_sql(fresh)) >= 10
    conn = sqlite3.connect(fresh)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("INSERT INTO clubs (guild_id, created_at, updated_at) VALUES (1, 0, 0)")
        conn.execute("INSERT INTO members (user_id, display_name, created_at, updated_at) VALUES (1, 'a', 0, 0)")
        conn.execute(
            "INSERT INTO chouette_sessions (club_id, channel_id, status, rules, state, version, created_by, "
            "created_at, updated_at) VALUES (1, 1, 'open', '{}', '{}', 1, 1, 0, 0)"
        )
        conn.execute("INSERT INTO chouette_actions (session_id, seq, kind, at) VALUES (1, 1, 'open', 0)")
        conn.execute("DELETE FROM chouette_actions")
    conn.close()


async def test_box_may_insist_on_rotation_order(tmp_path):
    """RULES C5 (003 Atlanta 5.8): Team members answer Box's offers in any order — unless Box insists on rotation
    order; then a member answering before those ranked above him is refused (nothing changes)."""
    path = tmp_path / "c.sqlite3"
    async with chouettes(path, dice=InjectedDice([*SEATING, (1, 2)], fallback=b"o")) as svc:
        outcome = await seated(svc)
        sid = outcome.session_id
        plays = await svc.legal_plays(sid, BOB)
        outcome = await svc.play(sid, BOB, plays[0])
        outcome = await svc.act(sid, ANN, "double", in_order=True, mark=outcome.view.mark)
        assert "insists on rotation order" in outcome.message
        mark = outcome.view.mark
        before = snapshot(path)
        with pytest.raises(ChouetteError, match="rotation order.*Bob, Cy answer first"):
            await svc.act(sid, DI, "take", mark=mark)
        assert snapshot(path) == before
        for member in (BOB, CY, DI, ED):
            outcome = await svc.act(sid, member, "take", mark=mark)
        assert {c.state for c in outcome.view.cubes} == {"taken"}


async def test_board_deadline_forfeits_under_the_club_policy(tmp_path):
    """RULES A2, C9: the board's play has the club's move time. A late Captain is away and the next Team member
    present stands in as Acting Captain (whatever the policy); a late Box — nobody stands in for him — follows the
    club's expiry policy: with ``nothing`` the chouette waits and he is told; with ``forfeit_game`` his side forfeits
    the board, every cube in play scores (singles here: no cube turned, Jacoby D4) and the next game starts."""
    clock = ManualClock()
    dice = InjectedDice([*SEATING[:3], (1, 2)], fallback=b"f")
    async with chouettes(tmp_path / "c.sqlite3", clock, dice=dice) as svc:
        await svc.club.configure_club(GUILD, move_time=2 * HOUR, expiry_policy="nothing")
        outcome = await seated(svc, (ANN, BOB, CY))
        sid = outcome.session_id
        assert [(d.subject, d.pending, d.due_at) for d in outcome.view.decisions] == [
            (BOB, "play", clock.now() + 2 * HOUR)
        ]
        clock.advance(3 * HOUR)
        notices = await run_due(svc)
        assert [(n.kind, n.ping) for n in notices] == [("expiry", (CY,))]
        assert "Cy is Acting Captain for Bob" in notices[0].outcome.message
        view = notices[0].outcome.view
        assert (view.away, view.player) == ((BOB,), CY) and view.game_number == 1
        assert [(d.subject, d.pending) for d in view.decisions] == [(CY, "play")]
        plays = await svc.legal_plays(sid, CY)
        outcome = await svc.play(sid, CY, plays[0])
        assert [(d.subject, d.pending) for d in outcome.view.decisions] == [(ANN, "roll")]
        clock.advance(3 * HOUR)
        notices = await run_due(svc)
        assert [(n.kind, n.ping, n.outcome) for n in notices] == [("expiry", (ANN,), None)]
        assert "waits" in notices[0].text and (await svc.state(sid)).game_number == 1
        assert await run_due(svc) == []
        await svc.club.configure_club(GUILD, expiry_policy="forfeit_game")
        await svc.act(sid, ANN, "roll", mark=outcome.view.mark)
        clock.advance(3 * HOUR)
        notices = await run_due(svc)
        assert len(notices) == 1 and notices[0].outcome.finished == (1,)
        assert notices[0].outcome.view.sheet.rows[0].points == {ANN: -2, BOB: 1, CY: 1}
        assert notices[0].outcome.view.game_number == 2


@pytest.mark.parametrize("order", [(ED, DI, CY), (CY, ED, DI), (DI, CY, BOB, ED)])
async def test_verify_is_clean_after_several_members_double_in_one_window(tmp_path, order):
    """A sound chouette verifies clean (python -m club verify) after three or four Team members double in one
    Atlanta window (003 Atlanta 5.9), in any order — during the window, after a restart of the bot in it (the live
    state then read back from storage), once Box has answered every cube, and as the game goes on: the stored state
    is the one the log rebuilds, whatever the order of the doubles."""
    clock = ManualClock()
    path = tmp_path / "c.sqlite3"
    seating = [(6, 6), (4, 4), (5, 4), (5, 5), (6, 5)]  # Ann 12, Bob 8, Cy 9, Di 10, Ed 11: ranks against the ids
    dice = InjectedDice([*seating, (2, 1)], fallback=b"v")
    async with chouettes(path, clock, dice=dice) as service:
        outcome = await seated(service)
        assert outcome.view.order == (ANN, ED, DI, CY, BOB)
        sid = outcome.session_id
        outcome = await service.play(sid, ANN, (await service.legal_plays(sid, ANN))[0])
        mark = outcome.view.mark
        for member in order:
            outcome = await service.act(sid, member, "double", mark=mark)
            report = await verify_chouette(service.club.db, sid)
            assert report.ok, (member, report.problems)
    async with chouettes(path, clock, dice=dice) as service:  # a restart in the window
        for member in sorted({BOB, CY, DI, ED} - set(order)):
            outcome = await service.act(sid, member, "pass", mark=mark)
        view = await service.state(sid)
        answers = iter(["take", "drop", "take", "take"])
        while view.decisions and view.decisions[0].pending == "box_answer":
            decision = view.decisions[0]
            cube = decision.cubes[0] if len(decision.cubes) > 1 else None
            outcome = await service.act(sid, ANN, next(answers), cube=cube, mark=view.mark)
            view = outcome.view
            report = await verify_chouette(service.club.db, sid)
            assert report.ok, report.problems
        rng = random.Random(7)
        for _ in range(12):
            outcome = await decide_randomly(service, outcome, rng)
        report = await verify_chouette(service.club.db, sid)
        assert report.ok, report.problems


async def test_flush_stores_the_boards_not_stored_yet_and_skips_a_table_that_is_gone(tmp_path, caplog):
    """Before the database closes, the board messages posted after a table's last commit are stored, matches' and
    chouettes' alike (one unit of work serves both); one whose table is gone is logged and skipped."""
    async with chouettes(tmp_path / "club.sqlite") as service:
        session = (await seated(service)).session_id
        match = (await service.club.challenge(GUILD, ANN, BOB, length=3)).match_id
        service.board_posted(session, CHANNEL, 501, game_number=1)
        service.club.board_posted(match, CHANNEL, 502, game_number=None)
        service.club.board_posted(9999, CHANNEL, 503, game_number=None)  # no such match
        assert [m.id for m in await service.messages(session) if m.message_id == 501] == [0]  # not stored yet
        await service.flush()
        await service.club.flush()
        assert [m.id > 0 for m in await service.messages(session) if m.message_id == 501] == [True]
        assert [m.id > 0 for m in await service.club.messages(match) if m.message_id == 502] == [True]
        assert await service.club.match_of_message(CHANNEL, 503) is None
        assert "match 9999: its board message 503 could not be kept" in caplog.text
        await service.club.flush()  # nothing is left to store
