"""The scripts of ``examples/`` piped into ``python bot.py --console --seed example`` (a subprocess, a fresh
database each): every line is accepted, and the printed score sheets, ledgers and settle-ups are the numbers worked
out by hand below from the games' results (every game's row sums to zero; the settle-up clears the ledger)."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.casekit import ROOT

EXAMPLES = ROOT / "examples"


def run_example(tmp_path, name: str) -> str:
    """The console's output for ``examples/<name>.txt`` (run in ``tmp_path``: exports land there)."""
    with (EXAMPLES / f"{name}.txt").open("rb") as script:
        result = subprocess.run(
            [sys.executable, str(ROOT / "bot.py"), "--console", "--no-images", "--no-review", "--db", str(tmp_path / "ex.sqlite3"),
             "--seed", "example"],
            stdin=script, capture_output=True, timeout=300, cwd=tmp_path,
        )  # fmt: skip
    out = result.stdout.decode("utf-8")
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr.decode()[-2000:]
    for bad in ("Refused", "Internal error", "Unknown command", "Traceback", "Cannot read"):
        assert bad not in out, out[max(0, out.find(bad) - 1500) : out.find(bad) + 300]
    assert out.rstrip().endswith("Bye.")
    return out


def figure(text: str) -> int:
    """``+1,340`` / ``−30`` (a real minus) / ``0`` → an int."""
    return int(text.replace("−", "-").replace(",", "").replace("+", ""))


def table(out: str, title: str) -> tuple[list[str], list[list[str]]]:
    """The headings and rows of the last text table printed whose title line starts with ``title``, each row cut
    into cells at the columns of the rule under the headings (so empty cells stay in place)."""

    lines = out.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(title)]
    assert starts, f"no table {title!r}"
    start = starts[-1]
    rule = lines[start + 2]
    spans = [match.span() for match in re.finditer(r"-+", rule)]

    def cells(line: str) -> list[str]:
        bounds = [(a, spans[i + 1][0] if i + 1 < len(spans) else len(line) + 1) for i, (a, _) in enumerate(spans)]
        return [line[a:b].strip() for a, b in bounds]

    headings = cells(lines[start + 1])
    rows = []
    for line in lines[start + 3 :]:
        if line == rule:
            continue
        if (
            not line
            or "> " in line[:14]
            or not line[:1].isalnum()
            or line.startswith(("Every", "every", "at ", "points (", "WARNING"))
        ):
            break
        if re.match(r"\d+ payments? clears? ", line):
            break
        rows.append(cells(line))
    return headings, rows


def sheet_rows(out: str, title: str, members: list[str]) -> dict[str, dict[str, int]]:
    """A score sheet as {game: {member: points}} (with ``total`` and ``money`` rows; an empty cell is 0)."""
    headings, rows = table(out, title)
    columns = [headings.index(member) for member in members]
    return {row[0]: {m: figure(row[c]) if row[c] else 0 for m, c in zip(members, columns, strict=True)} for row in rows}


def ledger(out: str) -> dict[str, tuple[int, int]]:
    """The last ledger printed: member → (points, money; 0 without stakes)."""
    headings, rows = table(out, "Club ledger")
    points, money = headings.index("points"), headings.index("money") if "money" in headings else None
    return {
        row[0]: (figure(row[points]), figure(row[money]) if money is not None else 0)
        for row in rows
        if row[0] != "total"
    }


def settle(out: str) -> list[tuple[str, str, int]]:
    """The last settle-up printed: (payer, payee, amount)."""
    _, rows = table(out, "Settle up")
    return [(row[0], row[2], figure(row[3])) for row in rows if row[1] == "pays"]


def cleared(balances: dict[str, int], payments: list[tuple[str, str, int]]) -> bool:
    """Whether the payments bring every balance to zero."""
    left = dict(balances)
    for payer, payee, amount in payments:
        left[payer] += amount
        left[payee] -= amount
    return not any(left.values())


def test_five_point_match(tmp_path):
    """bob wins 5–3. By hand: game 1 bob doubles, alice takes, bob wins a single game at 2 (0–2); game 2 the same
    (0–4); game 3 is the Crawford game (RULES M3: no double), alice wins 1 (1–4); game 4 alice wins at 2 (3–4);
    game 5 bob wins at 2 (3–5). The ledger counts the match in points: alice −3, bob +3."""
    out = run_example(tmp_path, "five-point-match")
    assert "Match #1 is over: bob won 5–3." in out
    sheet = sheet_rows(out, "Score sheet — Match 1 to 5", ["alice", "bob"])
    expected = {"1": -2, "2": -2, "3": 1, "4": 2, "5": -2}
    for game, points in expected.items():
        assert sheet[game] == {"alice": points, "bob": -points}, (game, sheet[game])
    assert sheet["total"] == {"alice": -3, "bob": 3}
    crawford = out.split("bob wins game 2")[1].split("alice wins game 3")[0]
    assert "offers a double" not in crawford and "doubles" not in crawford, "no double in the Crawford game"
    assert ledger(out) == {"bob": (3, 0), "alice": (-3, 0)}
    assert (tmp_path / "five-point-match.mat").read_text(encoding="utf-8").count("Game ") == 5


def test_money_session_with_beavers(tmp_path):
    """carol v dave at 5 a point. By hand: game 1 dave doubles, carol beavers (the cube at 4, hers), dave wins a
    single game: carol −4; game 2 the same: −4; game 3 (the session ends after it) carol doubles, dave takes at 2,
    carol wins: +2. Totals carol −6 = −30, dave +6 = +30; one payment, carol pays dave 30."""
    out = run_example(tmp_path, "money-session")
    assert out.count("carol beavers: the cube goes to 4") == 2
    sheet = sheet_rows(out, "Score sheet — Money session 1", ["carol", "dave"])
    for game, points in {"1": -4, "2": -4, "3": 2}.items():
        assert sheet[game] == {"carol": points, "dave": -points}
    assert sheet["total"] == {"carol": -6, "dave": 6} and sheet["money"] == {"carol": -30, "dave": 30}
    assert ledger(out) == {"dave": (6, 30), "carol": (-6, -30)}
    assert settle(out) == [("carol", "dave", 30)]
    assert "Session #1 is over: carol -6 (= -30 at 5 a point), dave +6 (= +30 at 5 a point)." in out


def test_chouette_over_days(tmp_path):
    """Five members at 10 a point. By hand (RULES C5, C11, 003 Atlanta): game 1 — Box ann, Captain ed, Team cy, di,
    bob; bob and ed double their cubes, Box takes ed's and drops bob's (bob +1); the Team wins a single game: ed +2,
    cy +1, di +1, Box ann −5. Game 2 (the next day; fay arrives) — Box ed, Captain cy, Team di, bob, ann; Box doubles
    every cube, cy and bob take hours apart, ann drops (−1), di is away at his deadline and cy takes for him; bob
    leaves; Box wins a single game: cy, di, bob −2 each, Box ed +7. Game 3 — Box ed, Captain di, Team ann, cy,
    fay; no cube; Box wins a single game: +4, the others −1. Totals ann −7, bob −1, cy −2, di −2, ed +13,
    fay −1; at 10 a point everybody pays ed: 70 + 10 + 20 + 20 + 10 = 130."""
    out = run_example(tmp_path, "chouette")
    assert "Box takes ed, drops bob." in out and "ann drops." in out
    assert "di missed their deadline: they are away and represented now" in out and "di takes (for di, by cy)." in out
    assert "fay joins the chouette." in out and "bob leaves the chouette." in out
    members = ["ann", "bob", "cy", "di", "ed", "fay"]
    sheet = sheet_rows(out, "Score sheet — chouette 1", members)
    expected = {
        "1": {"ann": -5, "bob": 1, "cy": 1, "di": 1, "ed": 2, "fay": 0},
        "2": {"ann": -1, "bob": -2, "cy": -2, "di": -2, "ed": 7, "fay": 0},
        "3": {"ann": -1, "bob": 0, "cy": -1, "di": -1, "ed": 4, "fay": -1},
    }
    for game, points in expected.items():
        assert sheet[game] == points, (game, sheet[game])
        assert sum(points.values()) == 0
    totals = {m: sum(expected[g][m] for g in expected) for m in members}
    assert sheet["total"] == totals and sheet["money"] == {m: 10 * t for m, t in totals.items()}
    books = ledger(out)
    assert books == {m: (totals[m], 10 * totals[m]) for m in members}
    payments = settle(out)
    assert len(payments) <= len(members) - 1 and sum(amount for _, payee, amount in payments if payee == "ed") == 130
    assert cleared({m: money for m, (_, money) in books.items()}, payments)
    assert "wait 20h" in (EXAMPLES / "chouette.txt").read_text(encoding="utf-8"), "the chouette runs over days"


def test_correspondence_over_days(tmp_path):
    """eve v finn, a 5-point match over days: finn nudges after 12 hours; eve goes away 2 days and comes
    back after one (a day given back); her clock lapses, her last away day is used automatically, it lapses again
    and finn — offered claim game, claim match, more-time — gives 24 hours more; at the next lapse he claims the
    game (a forfeit: a single game at the cube, the tournament preset's valuation, RULES M5), in game 2 the match;
    eve asks for a rematch and finn accepts."""
    out = run_example(tmp_path, "correspondence")
    assert "match #1 (to eve): Nudge from finn" in out
    assert "match #1 (to finn): eve is away until" in out and "(travelling)" in out
    assert "match #1 (to finn): eve is back" in out
    assert "one away day was used automatically, 24 hours more (0 away days left this year)" in out
    assert out.count("finn can: claim game, claim match, more-time (as finn)") == 3
    assert "finn, you may claim the game (1 point (single, a single game at the cube))" in out
    assert "you can: claim game, claim match, more-time" in out
    assert "finn gives eve 24 hours more in match 1" in out
    assert "eve ran out of time and forfeits the game" in out and "eve ran out of time and forfeits the match" in out
    assert "Match #1 is over: finn won 2–0." in out and "you can: rematch" in out
    assert "Rematch: eve challenges finn to a 5-point match. Rules: tournament." in out
    assert "finn accepts the challenge." in out
    sheet = sheet_rows(out, "Score sheet — Match 1 to 5", ["eve", "finn"])
    assert sheet["1"] == {"eve": -1, "finn": 1} and sheet["2"]["finn"] > 0


def test_tournament_double_elimination_and_swiss(tmp_path):
    """examples/tournament.txt: six members in a double elimination played to the end — the top two seeds' byes, a
    no-show (a lapsed event match is a forfeit, not rated), a bracket reset — then a five-player Swiss of two rounds
    with a bye each round to the lowest record among the fewest byes, and standings that explain every place."""
    out = run_example(tmp_path, "tournament")
    assert "Cup has started with 6 players. Byes to round 2: ann, bob." in out
    assert "W1-2: di wins by forfeit against ed (not rated)." in out
    bracket = out[out.rindex("Cup — bracket") :]
    assert "Grand final, reset:\n  GF2    ann v bob  — ann won 1–0" in bracket
    assert "  GF     ann v bob  — bob won 1–0" in bracket
    assert "  L1-1   ed (bye)" in bracket
    standings = out[out.rindex("Cup — standings") :].splitlines()
    assert [line.split()[:2] for line in standings[2:8]] == [
        ["1", "ann"], ["2", "bob"], ["3", "cy"], ["4", "di"], ["5", "ed"], ["5", "fay"]]  # fmt: skip
    assert "S1-3     ed: bye\n      why: Bye: the lowest record (0–0) among those with the fewest byes (0)." in out
    assert "S2-3     di: bye\n      why: Bye: the lowest record (0–1) among those with the fewest byes (0)." in out
    assert "why: score group 0 wins; ed floated down from 1" in out
    swiss = out[out.rindex("Friday — standings") :].splitlines()
    assert swiss[2].split()[:5] == ["1", "bob", "2", "2", "0"]
    assert swiss[2].endswith("ahead on match wins, 2 to 1")
    assert swiss[3].endswith("ahead on Buchholz (worst opponent cut), 2 to 1")
    assert "Friday — swiss, over\nCup — double, over" in out
