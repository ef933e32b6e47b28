"""Write the example scripts of ``examples/`` by playing them through the console (run it from the project folder:
``python -m examples.generate``) — needed only when the dice derivation or the rules change, since a script's plays
are legal only for the dice it was written with.

Each script is played in-process on a fresh database with the dice of ``python bot.py --console --seed example``
(:func:`bot.seed_source`): the same seeds, so piping the script into that command replays the very same games. The
plays and cube decisions come from the simple policies below (a pip-count doubler, the first legal play); scripted
steps (waits, a proxy, a member joining and one leaving) are placed where the story needs them. A refusal while
writing stops the generator: every line of an example is accepted.
"""

from __future__ import annotations

import asyncio
import math
import sys
import tempfile
from pathlib import Path

from bot import reproducible
from club import ClubService, ManualClock
from console import Console, member_id
from storage import Database

ROOT = Path(__file__).resolve().parent.parent

SEED = "example"
"""The ``--seed`` the examples are written for."""


class Writer:
    """Types lines into a console and keeps them (with comments) as the script."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.lines: list[str] = []
        self.out: list[str] = []

    async def say(self, line: str, comment: str = "") -> str:
        """Type ``line``; raise if the console refuses it."""
        if line.startswith("as ") and self.console.name == line[3:]:
            return ""
        reply = await self.console.handle(line)
        if reply.startswith(("Refused", "Internal", "Unknown")):
            raise SystemExit(f"the example's line {line!r} was refused:\n{reply}")
        self.lines.append(f"{line:<40} # {comment}" if comment else line)
        self.out.append(reply)
        return reply

    def note(self, text: str) -> None:
        """A comment line of its own."""
        self.lines.append(f"# {text}")

    def script(self, title: str) -> str:
        """The script's text."""
        head = [f"# {line}" for line in title.splitlines()]
        return "\n".join([*head, *self.lines, ""])


def pip_lead(view, side: int) -> int:
    """How many pips ``side`` leads by (positive: ahead)."""
    pips = view.game.pips
    return pips[1 - side] - pips[side]


async def match_policy(writer: Writer, match_id: int, names: dict[int, str]) -> bool:
    """One decision in a 1-on-1 game: double when 12+ pips ahead, drop when 25+ behind, else take; the first legal
    play. Returns False when nobody is to act."""
    console = writer.console
    view = await console.service.state(match_id)
    if view.waiting_for is None or view.status != "active":
        return False
    who = names[view.waiting_for]
    await writer.say(f"as {who}")
    side = view.side_of(view.waiting_for)
    if view.pending == "play":
        plays = await console.service.legal_plays(match_id, view.waiting_for)
        await writer.say(f"move {plays[0]}")
    elif view.pending in ("roll", "roll_or_double"):
        lead = pip_lead(view, side) if view.game else 0
        await writer.say("double" if "double" in view.legal and lead >= 12 else "roll")
    elif view.pending.startswith("answer_") and view.pending != "answer_resignation":
        lead = pip_lead(view, side)
        if "beaver" in view.legal and (lead >= 0 or view.game_number <= 2):
            await writer.say("beaver", "take and redouble at once, keeping the cube (RULES D3)")
        else:
            await writer.say("drop" if lead <= -25 else "take")
    elif view.pending == "answer_resignation":
        await writer.say("accept")
    return True


async def five_point_match(console: Console) -> str:
    """A 5-point match between alice and bob, played to the end."""
    writer = Writer(console)
    names = {member_id("alice"): "alice", member_id("bob"): "bob"}
    await writer.say("as bob", "a member joins by acting once; challenge names a member")
    await writer.say("as alice", "who types the next lines")
    await writer.say("challenge bob 5", "a 5-point match (tournament rules: Crawford, no beavers)")
    await writer.say("as bob")
    await writer.say("accept", "the opening roll is made at once")
    for _ in range(3000):
        if not await match_policy(writer, 1, names):
            break
    await writer.say("rules 1")
    await writer.say("club sheet match:1", "the score sheet of the match, as a table and a PNG")
    await writer.say("club ledger all", "a match counts in points (no stake)")
    await writer.say("club rating alice")
    await writer.say("export 1 five-point-match.mat", "for GNU Backgammon")
    return writer.script(
        "A 5-point match, alice against bob: pipe it into the console (a fresh database):\n"
        "  python bot.py --console --db /tmp/match.sqlite3 --seed example < examples/five-point-match.txt"
    )


async def money_session(console: Console) -> str:
    """A money session at 5 a point with beavers, three games, then the books."""
    writer = Writer(console)
    names = {member_id("carol"): "carol", member_id("dave"): "dave"}
    await writer.say("as dave", "a member joins by acting once; challenge names a member")
    await writer.say("as carol")
    await writer.say("challenge dave money money 5", "money play (Jacoby, beavers), 5 a point")
    await writer.say("as dave")
    await writer.say("accept")
    stopped = False
    for _ in range(5000):
        view = await console.service.state(1)
        if view.status != "active":
            break
        if view.game_number >= 3 and view.pending in ("roll", "roll_or_double") and not stopped:
            stopped = True
            await writer.say(f"as {names[view.waiting_for]}")
            await writer.say("stop", "end the session when this game ends")
            view = await console.service.state(1)
        if not await match_policy(writer, 1, names) and (await console.service.state(1)).status == "active":
            break
    await writer.say("club sheet money:1", "every game's points and money")
    await writer.say("club ledger all", "who is up, in money at the stakes")
    await writer.say("club settle all", "the payment that clears it")
    return writer.script(
        "A money session with beavers, carol against dave at 5 a point:\n"
        "  python bot.py --console --db /tmp/money.sqlite3 --seed example < examples/money-session.txt"
    )


async def chouette(console: Console) -> str:
    """Five members over several simulated days: see the script's comments. Game 1: two Team members double
    their own cubes and Box answers; game 2: Box doubles every cube, the answers come hours apart, di is away and
    cy (his proxy) answers for him, fay arrives and a member leaves; game 3: played out with the new seats."""
    writer = Writer(console)
    members = ["ann", "bob", "cy", "di", "ed", "fay"]
    names = {member_id(name): name for name in members}
    chouettes = console.chouettes
    await writer.say("as ann")
    await writer.say("chouette start stake=10 hours=12 proxy_hours=6",
                     "10 a point; 12 h per cube decision, 6 h for a proxy")  # fmt: skip
    for name in ("bob", "cy", "di", "ed"):
        await writer.say(f"as {name}")
        await writer.say("join")
    await writer.say("seat", "the seat roll: the highest is Box, the next Captain (RULES C1)")
    await writer.say("as di")
    await writer.say("proxy cy", "di names cy to decide for them when they are away (RULES C9)")
    story = {"team_doubles": 0, "box_doubled": False, "away": False, "joined": False, "left": False, "game": 1}
    for _ in range(6000):
        view = await chouettes.state(1)
        if view.game_number > 3 or view.status != "open":
            break
        if view.game_number != story["game"] and view.decisions and view.decisions[0].pending in ("play", "roll"):
            story["game"] = view.game_number
            writer.note(f"game {view.game_number} goes on the next day")
            await writer.say("wait 20h", "a day passes (the board's moves have 72 h)")
            continue
        if view.game_number == 2 and not story["joined"]:
            story["joined"] = True
            await writer.say("as fay")
            await writer.say("join", "fay arrives during game 2: she is seated when it ends (RULES C2)")
        if view.game_number == 2 and story["away"] and not story["left"] and view.decisions[0].pending == "play":
            story["left"] = True
            leaver = next(m for m in view.team if names[m] not in ("di", "cy") and m != view.captain)
            await writer.say(f"as {names[leaver]}")
            await writer.say(
                "leave", "leaves: away until game 2 ends, passed over in the Team's windows (RULES C2, C9)"
            )
            continue
        if not view.decisions:
            raise SystemExit(f"the chouette waits for nobody in phase {view.phase}")
        decision = view.decisions[0]
        actor, subject = names[decision.actor], names[decision.subject]
        kind = decision.pending
        board = view.board
        box_lead = board.pips[1] - board.pips[0] if board is not None else 0
        if kind in ("answer", "consent"):
            own = [d for d in view.decisions if d.actor == d.subject and names[d.subject] != "di"]
            proxied = [d for d in view.decisions if d.actor != d.subject]
            if own:
                item = own[0]
                await writer.say(f"as {names[item.actor]}")
                answer = (
                    "beaver"
                    if "beaver" in item.actions and names[item.subject] == "ed"
                    else ("drop" if names[item.subject] == "ann" else "take")
                )
                await writer.say(answer, "hours after the double" if len(own) < 3 else "")
                if len(view.decisions) > 1:
                    await writer.say("wait 3h", "the next answer comes hours later")
            elif proxied:
                item = proxied[0]
                await writer.say(f"as {names[item.actor]}")
                await writer.say(f"take for {names[item.subject]}", f"{names[item.actor]} answers as the proxy")
            else:  # di alone: he does not answer
                item = view.decisions[0]
                hours = max(0.5, (item.due_at - console.service.clock.now()) / 3600 + 0.5)
                story["away"] = True
                writer.note(
                    "di does not answer: at his deadline he is marked away and cy, his proxy, decides (RULES C9)"
                )
                await writer.say(f"wait {hours:g}h", "time passes: di's deadline expires")
            continue
        if kind == "box_answer":
            await writer.say(f"as {actor}")
            doubled = [names[int(k)] for k in decision.cubes if k.isdigit()]
            line = f"take {doubled[0]}" if len(doubled) > 1 else "take"
            await writer.say(line, "Box takes that cube and drops the others" if len(doubled) > 1 else "")
            continue
        await writer.say(f"as {actor}")
        if kind == "play":
            plays = await chouettes.legal_plays(1, decision.actor)
            await writer.say(f"move {plays[0]}")
        elif kind == "roll":
            if ("double" in decision.actions and view.game_number == 2 and decision.subject == view.box
                    and box_lead >= 6 and not story["box_doubled"]):  # fmt: skip
                story["box_doubled"] = True
                await writer.say("double all", "Box doubles every cube at once")
            else:
                await writer.say("roll")
        elif kind == "double":
            suffix = "" if decision.actor == decision.subject else f" for {subject}"
            if view.game_number == 1 and -box_lead >= 12 and story["team_doubles"] < 2 and not suffix:
                story["team_doubles"] += 1
                await writer.say("double", "a Team member doubles his own cube (003 Atlanta 5.9)")
            else:
                await writer.say("no-double" + suffix)
        elif kind == "extra":
            await writer.say("no-extra")
    await writer.say("chouette sheet", "the score sheet: every game's row sums to zero (RULES C11)")
    await writer.say("club ledger all", "the club's ledger, money at the stakes")
    await writer.say("club settle all", "the fewest payments that clear it")
    return writer.script(
        "A chouette of five over several simulated days (cube decisions hours apart, di away and\n"
        "his proxy deciding, fay joining, one member leaving), ending with the score sheet and\n"
        "the settle-up. Pipe it into the console with a fresh database:\n"
        "  python bot.py --console --db /tmp/chouette.sqlite3 --seed example < examples/chouette.txt"
    )


async def correspondence(console: Console) -> str:
    """A 5-point match played over days: a nudge, an away period and coming back early, a clock that
    lapses under the club's ``claim`` policy, more time given, the game and then the match claimed, a rematch."""
    writer = Writer(console)
    names = {member_id("eve"): "eve", member_id("finn"): "finn"}
    service = console.service
    await writer.say("as finn", "a member joins by acting once; challenge names a member")
    await writer.say("as eve")
    await writer.say("config move_hours 24 reminders 4 expiry claim away_days 2 nudge_hours 12",
                     "a day per move; at the deadline the opponent may claim")  # fmt: skip
    await writer.say("challenge finn 5")
    await writer.say("as finn")
    await writer.say("accept")
    for _ in range(6):
        await match_policy(writer, 1, names)
    view = await service.state(1)
    late, other = names[view.waiting_for], names[view.players[1 - view.side_of(view.waiting_for)]]
    await writer.say("wait 13h", f"{late} takes a while")
    await writer.say(f"as {other}")
    await writer.say("nudge", "after 12 hours of waiting: a message that pings him")
    await writer.say(f"as {late}")
    await writer.say("away 2 travelling", "the clocks pause; a notice in each game")
    await writer.say("wait 1d")
    await writer.say("back", "back early: the unused whole days come back")
    await writer.say("games")
    writer.note(f"{late} does not move: the last away day is used at the deadline, then {other} may claim")
    for _ in range(5):
        hours = math.ceil((await service.db.get_deadline(1)).due_at - service.clock.now()) / 3600 + 0.5
        if "can: claim game" in await writer.say(f"wait {hours:.1f}h"):
            break
    await writer.say(f"as {other}")
    await writer.say("board", "you can: claim game, claim match, more-time")
    await writer.say("more-time", "24 hours more")
    await writer.say("wait 25h")
    await writer.say("claim game", f"{late} forfeits the game (RULES M5)")
    for _ in range(400):
        view = await service.state(1)
        if view.status != "active" or view.waiting_for is None:
            break
        if names[view.waiting_for] == late:
            hours = math.ceil((await service.db.get_deadline(1)).due_at - service.clock.now()) / 3600 + 0.5
            await writer.say(f"wait {hours:.1f}h", f"{late} lets his time run out again")
            await writer.say(f"as {other}")
            await writer.say("claim match", "the match is over")
            break
        await match_policy(writer, 1, names)
    await writer.say(f"as {late}")
    await writer.say("rematch", "same length, rules and stake")
    await writer.say(f"as {other}")
    await writer.say("accept")
    await writer.say("club sheet match:1")
    return writer.script(
        "Correspondence play, eve against finn over days: a nudge, away and back, a lapsed clock,\n"
        "more time, the game and the match claimed, a rematch. Pipe it into the console:\n"
        "  python bot.py --console --db /tmp/days.sqlite3 --seed example < examples/correspondence.txt"
    )


async def event_match(writer: Writer, match_id: int, winner: str, names: dict[int, str]) -> None:
    """Play event match ``match_id`` so that ``winner`` wins: the challenged player accepts, the loser resigns at
    his first turn, the winner accepts (plays the first legal play when it is his turn first)."""
    service = writer.console.service
    view = await service.state(match_id)
    if view.status == "challenged":
        await writer.say(f"as {names[view.players[1]]}")
        await writer.say(f"accept {match_id}", "an event match starts when its second player accepts")
    for _ in range(200):
        view = await service.state(match_id)
        if view.status != "active":
            return
        who = names[view.waiting_for]
        await writer.say(f"as {who}")
        if who != winner and "resign" in view.legal and view.pending != "answer_resignation":
            await writer.say(f"resign backgammon {match_id}", "a 1-point match: the loser resigns it")
        elif view.pending == "answer_resignation":
            await writer.say(f"accept {match_id}")
        elif view.pending == "play":
            plays = await service.legal_plays(match_id, view.waiting_for)
            await writer.say(f"move {plays[0]} game={match_id}")
        else:
            await writer.say(f"roll {match_id}")
    raise SystemExit(f"event match {match_id} did not end")


async def play_event_round(writer: Writer, name: str, names: dict[int, str], pick, skip=()) -> None:
    """Play every undecided match of event ``name`` (except the pairings in ``skip``), the winner ``pick(pairing)``."""
    events = writer.console.events
    event = await events.find(writer.console.guild_id, name)
    links = await events.store.matches(event.id)
    for pairing in event.state.pending():
        if pairing.b is None or pairing.key in skip:
            continue
        match_id = links[events._link(event, pairing.key)]
        await event_match(writer, match_id, names[pick(pairing)], names)


async def tournament(console: Console) -> str:
    """A double elimination of six members to the end — two byes, a no-show, a bracket reset — then a short Swiss of
    five with a bye each round."""
    writer = Writer(console)
    people = ["ann", "bob", "cy", "di", "ed", "fay"]
    names = {member_id(name): name for name in people}
    for name in people:
        await writer.say(f"as {name}", "a member joins the club by acting once")
    await writer.say("as ann")
    await writer.say("config challenge_hours 24", "an event match not accepted in 24 h lapses: a no-show")
    await writer.say("event create Cup double lengths=1 final=1 hours=72",
                     "double elimination, 1-point matches, 72 h a round")  # fmt: skip
    for name in people:
        await writer.say(f"as {name}")
        await writer.say("event join Cup")
    await writer.say("as ann")
    await writer.say("event start Cup", "seeded in the order they joined (nobody rated yet): seeds 1 and 2 get byes")
    await writer.say("event bracket Cup")
    event = await console.events.find(console.guild_id, "Cup")
    no_show = event.state.pending()[0]
    writer.note(f"{names[no_show.b]} never accepts {no_show.key}: it lapses after 24 h and {names[no_show.a]} goes on")
    seed = {p: i for i, p in enumerate(event.state.seeds)}
    for _ in range(4):  # everything that does not wait for the no-show is played first
        await play_event_round(writer, "Cup", names, lambda p: min(p.players, key=seed.get), skip=(no_show.key,))
    await writer.say("wait 25h", f"{names[no_show.b]} did not show")
    await writer.say(f"as {names[no_show.a]}")
    await writer.say("event my")
    for _ in range(20):
        event = await console.events.find(console.guild_id, "Cup")
        if event.status.value != "running":
            break
        gf = event.state.pairings.get("GF")
        if gf is not None and "GF" not in event.state.results:
            writer.note("the grand final: the losers' bracket champion wins it, so the bracket resets")
            await play_event_round(writer, "Cup", names, lambda p: p.b)
        else:
            await play_event_round(writer, "Cup", names, lambda p: min(p.players, key=seed.get))
    await writer.say("event bracket Cup", "both brackets and the reset final")
    await writer.say("event standings Cup", "places, each explained")
    writer.note("a short Swiss of five: two rounds, a bye each round to the lowest record among the fewest byes")
    await writer.say("as ann")
    await writer.say("event create Friday swiss rounds=2 lengths=1 hours=48")
    for name in people[:5]:
        await writer.say(f"as {name}")
        await writer.say("event join Friday")
    await writer.say("as ann")
    await writer.say("event start Friday")
    await writer.say("event pairings Friday 1", "why each pairing was made")
    await play_event_round(writer, "Friday", names, lambda p: p.a)
    await writer.say("as ann")
    await writer.say("event pairings Friday 2", "score groups, the bye to the lowest record")
    await play_event_round(writer, "Friday", names, lambda p: p.b)
    await writer.say("as ann")
    await writer.say("event standings Friday", "match wins, head-to-head, Buchholz (worst cut), points difference")
    await writer.say("event list")
    return writer.script(
        "Club events: a double elimination of six played to the end (two byes, a no-show, a bracket reset), then a\n"
        "short Swiss. Pipe it into the console with a fresh database:\n"
        "  python bot.py --console --db /tmp/events.sqlite3 --seed example < examples/tournament.txt"
    )


async def write(name: str, play) -> None:
    """Play one example on a fresh database and write ``examples/<name>.txt``."""
    with tempfile.TemporaryDirectory() as folder:
        async with Database.open(Path(folder) / "example.sqlite3") as database:
            service = ClubService(database, clock=ManualClock(), **reproducible(SEED))
            console = Console(service, images=None)
            text = await play(console)
    (ROOT / "examples" / f"{name}.txt").write_text(text, encoding="utf-8")
    print(f"examples/{name}.txt: {text.count(chr(10))} lines")


CLICKS = 1312345678901234567
"""The first of the made-up interaction ids :func:`dice_proof` gives as client seeds (Discord's are such numbers)."""


async def dice_proof() -> str:
    """Play a 1-point match, alice against bob, with the players' luck (bob's standing phrase, set before the
    commitment; alice's words typed after it) and return its ``.mat`` export: the published dice proof of
    docs/dice.md (RULES A1), written to ``examples/dice-proof.mat``."""
    from club.export import export_mat

    clicks = iter(range(CLICKS, CLICKS + 10_000))
    with tempfile.TemporaryDirectory() as folder:
        async with Database.open(Path(folder) / "example.sqlite3") as database:
            options = reproducible(SEED) | {"contributions": lambda: str(next(clicks))}
            console = Console(ClubService(database, clock=ManualClock(), **options), images=None)
            writer = Writer(console)
            names = {member_id("alice"): "alice", member_id("bob"): "bob"}
            await writer.say("as bob")
            await writer.say("seed bob's lucky phrase")  # set before the commitment: no protection
            await writer.say("as alice")
            await writer.say("challenge bob 1")
            console.service.clock.advance(20)
            await writer.say("luck alice typed this after the commitment game=1")
            await writer.say("as bob")
            await writer.say("accept")
            for _ in range(3000):
                if not await match_policy(writer, 1, names):
                    break
            return (await export_mat(console.service, 1))[1]


async def main() -> None:
    """Write every example."""
    wanted = sys.argv[1:] or ["five-point-match", "money-session", "chouette", "correspondence", "dice-proof",
                              "tournament"]  # fmt: skip
    plays = {"five-point-match": five_point_match, "money-session": money_session, "chouette": chouette,
             "correspondence": correspondence, "tournament": tournament}  # fmt: skip
    for name in wanted:
        if name == "dice-proof":
            text = await dice_proof()
            (ROOT / "examples" / "dice-proof.mat").write_text(text, encoding="utf-8")
            print(f"examples/dice-proof.mat: {text.count(chr(10))} lines")
        else:
            await write(name, plays[name])


if __name__ == "__main__":
    asyncio.run(main())
