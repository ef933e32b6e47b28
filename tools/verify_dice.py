#!/usr/bin/env python3
"""Check a backgammon club's dice yourself, from the published values alone (standard library only, no database).

Usage: ``python tools/verify_dice.py FILE [FILE …]`` (or ``-`` for standard input). FILE is a ``.mat`` export
(``/bg export``), or the text of ``/bg verify`` pasted into a file: any text holding the lines ::

    ; [DiceRecipe "bgclub-hmac-sha256-v2"]
    ; [DiceGame1 "recipe=bgclub-hmac-sha256-v2 commitment=<hex> seed=<hex> clients=0:616e6e,2:3132 rolls=0:52,…"]

For each series (a game; a chouette's seat throws or game) it checks that SHA-256 of the seed is the commitment,
that the counters run 0, 1, 2 … and that each listed roll is the one the recipe makes; in a ``.mat`` file also that
the dice of the moves, in order, are exactly those rolls (opening ties left out; the winner's last roll may be
unplayed). Exit status 0 when everything checks, 1 otherwise; a series whose seed is still ``secret`` (game not
over) is reported and cannot be checked yet.

The recipe of a line is its ``recipe=`` field, else the ``DiceRecipe`` line. ``bgclub-hmac-sha256-v1``: roll n of a
game with server seed S: for block = 0, 1, 2 … take the 32 bytes of HMAC-SHA256(key=S, msg=ASCII "n:block") in
order, skip every byte >= 252 (rejection sampling: 252 = 42 x 6, so each face has exactly 42 accepted byte values),
each other byte b is the die b % 6 + 1; the roll is the first k dice (k = the number of digits listed: 2 for a roll,
an opening roll being side 0's die then side 1's). ``bgclub-hmac-sha256-v2`` (with the players' client
seeds, ``clients=from_roll:hex,…`` in the listed order, each the hex of its UTF-8 text): the same, with
msg = ASCII "n:block" followed by ":" + hex for each non-empty client seed whose from_roll <= n.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import sys

V1, V2 = "bgclub-hmac-sha256-v1", "bgclub-hmac-sha256-v2"
RECIPES = (V1, V2)
HEADER = re.compile(r'^[;#]\s*\[\s*(Dice[A-Za-z0-9]*)\s+"(.*)"\s*\]\s*$')
GAME = re.compile(r"^\s*Game\s+(\d+)\s*$")
MOVE_DICE = re.compile(r"(?<![0-9])([1-6])([1-6]):")


def dice(seed: bytes, counter: int, count: int, recipe: str = V1, clients=()) -> tuple[int, ...]:
    """The ``count`` dice of roll ``counter`` (the recipes above; ``clients``: [(from_roll, hex), …] for v2)."""
    out: list[int] = []
    block = 0
    tail = "".join(":" + text for start, text in clients if start <= counter and text) if recipe == V2 else ""
    while True:
        for byte in hmac.new(seed, f"{counter}:{block}{tail}".encode("ascii"), hashlib.sha256).digest():
            if byte < 252:
                out.append(byte % 6 + 1)
                if len(out) == count:
                    return tuple(out)
        block += 1


def parse(text: str):
    """(recipe, {key: (commitment, seed or None, [(counter, dice)], recipe or None, [(from_roll, hex)])},
    {game number: [move dice]})."""
    recipe, series, moves, game = None, {}, {}, None
    for line in text.splitlines():
        header = HEADER.match(line.strip())
        if header:
            key, value = header.groups()
            if key == "DiceRecipe":
                recipe = value
                continue
            fields = dict(part.split("=", 1) for part in value.split() if "=" in part)
            rolls = []
            for item in filter(None, fields.get("rolls", "").split(",")):
                counter, digits = item.split(":")
                rolls.append((int(counter), tuple(int(d) for d in digits)))
            seed = fields.get("seed")
            clients = [
                (int(a), b) for a, b in (c.split(":") for c in filter(None, fields.get("clients", "").split(",")))
            ]
            seed = None if seed in (None, "secret") else seed
            series[key] = (
                fields.get("commitment", ""),
                seed,
                rolls,
                fields.get("recipe"),
                clients,
                fields.get("status"),
            )
            continue
        started = GAME.match(line)
        if started:
            game = int(started.group(1))
            moves[game] = []
        elif game is not None and not line.lstrip().startswith((";", "#")):
            moves[game].extend((int(a), int(b)) for a, b in MOVE_DICE.findall(line))
    return recipe, series, moves


def check(text: str, out=print) -> int:
    """Check one file's text; print one line per series; return the number of problems (secret seeds excluded)."""
    recipe, series, moves = parse(text)
    if not series:
        out('no published dice found (lines ; [DiceGame1 "commitment=… seed=… rolls=…"])')
        return 1
    problems = 0
    for key, (commitment, seed_hex, rolls, own, clients, status) in series.items():
        if (own or recipe) not in RECIPES:
            out(f"{key}: unknown dice recipe {own or recipe!r}: this verifier knows {', '.join(RECIPES)}")
            problems += 1
            continue
        if status == "unused":
            opened = seed_hex is not None and hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest() == commitment
            problems += not opened or bool(rolls)
            out(
                f"{key}: {'unused — its seed is revealed and hashes to its commitment' if opened and not rolls else 'PROBLEMS: an unused series must reveal the seed of its commitment and list no rolls'}"
            )
            continue
        if seed_hex is None:
            out(f"{key}: seed still secret (the game is not over): {len(rolls)} rolls cannot be checked yet")
            continue
        wrong, reproduced = [], 0
        seed = bytes.fromhex(seed_hex)
        if hashlib.sha256(seed).hexdigest() != commitment:
            wrong.append(f"SHA-256 of the seed is {hashlib.sha256(seed).hexdigest()}, not the commitment")
        for expected, (counter, logged) in enumerate(rolls):
            if counter != expected:
                wrong.append(f"counter {counter} where {expected} was due")
            made = dice(seed, counter, len(logged), own or recipe, clients)
            reproduced += made == logged
            if made != logged:
                wrong.append(f"roll {counter}: listed {logged}, the recipe gives {made}")
        number = re.fullmatch(r"DiceGame(\d+)", key)
        if number and int(number.group(1)) in moves:
            played = [tuple(sorted(pair)) for pair in moves[int(number.group(1))]]
            made = [tuple(sorted(d)) for _, d in rolls]
            while made and made[0][0] == made[0][1]:  # opening ties are not written in a .mat file
                made.pop(0)
            if played not in (made, made[:-1]):
                wrong.append(f"the moves' dice {played[:6]}… are not the listed rolls {made[:6]}…")
        problems += len(wrong)
        status = "ok" if not wrong else "PROBLEMS: " + "; ".join(wrong[:5])
        by = f" ({own or recipe}, {len(clients)} client seeds)" if (own or recipe) == V2 else ""
        out(f"{key}: {status} — {reproduced} of {len(rolls)} rolls reproduced{by}")
    return problems


def main(argv: list[str]) -> int:
    """Check every file named in ``argv``; exit status 0 when all check, 1 otherwise."""
    usage = "\n\n".join(__doc__.split("\n\n")[1:4]).replace("``", "").replace(" ::", ":")
    if not argv or argv[0] in ("-h", "--help"):
        print(usage, file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    problems = 0
    for name in argv:
        try:
            if name == "-":
                text = sys.stdin.read()
            else:
                with open(name, encoding="utf-8") as handle:
                    text = handle.read()
        except (OSError, UnicodeDecodeError) as error:  # one line, not a traceback; the other files still checked
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            print(f"== {name}: cannot read it ({reason})")
            problems += 1
            continue
        print(f"== {name}")
        problems += check(text)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
