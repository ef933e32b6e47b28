#!/usr/bin/env python3
"""Check a backgammon club's dice yourself, from the published values alone (no database, no code of the bot).

Usage: ``python tools/verify_dice.py FILE [FILE …]`` (or ``-`` for standard input). FILE is a ``.mat`` export
(``/bg export``), or the text of ``/bg verify`` pasted into a file: any text holding the lines ::

    ; [DiceGame1 "recipe=bgclub-hmac-sha256-v3 commitment=<hex> committed=<ms> seed=<hex> members=side0,side1
      clients=side1:<ms>:protected:<hex>,… [beacon=quicknet:<round>:<signature> start=<ms>] rolls=0:52,…"]

For each series (a game; a chouette's seat throws or game) it checks that SHA-256 of the seed is the commitment,
that the counters run 0, 1, 2 … and that each listed roll is the one the recipe makes; in a ``.mat`` file also that
the dice of the moves are exactly those rolls. It says for each member whether their own luck protects them (set after
the commitment) and refuses luck claimed as protection but set before it; a beacon round must be the one due
(the first published 30 s or more after the game's start) and carry the network's BLS signature, checked with the
public keys written below (this needs py-arkworks-bls12381; everything else is Python's standard library). An
unused series (the table ended first) must reveal the seed of its commitment. Exit status 0 when all checks.

Recipes: roll n of a game with server seed S, for block = 0, 1, 2 …: HMAC-SHA256(key=S, msg=ASCII "n:block" + tail);
bytes >= 252 are skipped, each other byte b is the die b % 6 + 1 (252 = 42 x 6: every face equally likely); the
roll is the first k dice (an opening roll: side 0's die then side 1's). v1: no tail. v2: ":" + hex for each client
seed (``clients=from_roll:hex``) with from_roll <= n. v3: ":" + hex for each client seed, then "|" + the beacon
round's randomness (SHA-256 of its signature) if there is one. ``--chain NAME=KEY:GENESIS:PERIOD`` adds a chain.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import sys

V1, V2, V3 = "bgclub-hmac-sha256-v1", "bgclub-hmac-sha256-v2", "bgclub-hmac-sha256-v3"
RECIPES = (V1, V2, V3)
CHAINS = {  # drand chains: public key (G2, compressed), genesis time, period (s); scheme bls-unchained-g1-rfc9380
    "quicknet": ("83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec"
                 "758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
                 1692803367, 3),
}  # fmt: skip
HEADER = re.compile(r'^[;#]\s*\[\s*(Dice[A-Za-z0-9]*)\s+"(.*)"\s*\]\s*$')
GAME = re.compile(r"^\s*Game\s+(\d+)\s*$")
MOVE_DICE = re.compile(r"(?<![0-9])([1-6])([1-6]):")


def dice(seed: bytes, counter: int, count: int, recipe: str = V1, clients=(), beacon: str = "") -> tuple[int, ...]:
    """The ``count`` dice of roll ``counter`` (the recipes above; ``clients``: [(from_roll, hex), …])."""
    out: list[int] = []
    block = 0
    tail = "".join(":" + text for start, text in clients if start <= counter and text) if recipe != V1 else ""
    tail += "|" + beacon if recipe == V3 and beacon else ""
    while True:
        for byte in hmac.new(seed, f"{counter}:{block}{tail}".encode("ascii"), hashlib.sha256).digest():
            if byte < 252:
                out.append(byte % 6 + 1)
                if len(out) == count:
                    return tuple(out)
        block += 1


def beacon_randomness(field: str, start_ms: int) -> str:
    """The randomness of the beacon round ``chain:round:signature`` after checking that it is the round due for a
    game started at ``start_ms`` and that its BLS signature verifies. Raises ValueError saying what is wrong."""
    chain, number, signature = field.split(":")
    if chain not in CHAINS:
        raise ValueError(f"unknown beacon chain {chain!r} (known: {', '.join(CHAINS)}; add one with --chain)")
    key, genesis, period = CHAINS[chain]
    due = max(1, -(-(start_ms + 30_000 - genesis * 1000) // (period * 1000)) + 1)
    if int(number) != due:
        raise ValueError(f"beacon round {number} is not the one due ({due}: the first 30 s after the game's start)")
    from py_arkworks_bls12381 import GT, G1Point, G2Point  # the BLS12-381 pairing (pip install py-arkworks-bls12381)

    message = G1Point.hash_to_curve(hashlib.sha256(int(number).to_bytes(8, "big")).digest(),
                                    b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_")  # fmt: skip
    try:
        point, public = (G1Point.from_compressed_bytes(bytes.fromhex(signature)),
                         G2Point.from_compressed_bytes(bytes.fromhex(key)))  # fmt: skip
        valid = GT.pairing_check([point, -message], [G2Point(), public])
    except Exception:  # the bindings' own errors: not a point
        valid = False
    if not valid:
        raise ValueError(f"the signature of beacon round {number} is not the {chain} network's")
    return hashlib.sha256(bytes.fromhex(signature)).hexdigest()


def parse(text: str):
    """(recipe, {key: fields (with "rolls" as [(counter, dice)])}, {game number: [move dice]})."""
    recipe, series, moves, game = None, {}, {}, None
    for line in text.splitlines():
        header = HEADER.match(line.strip())
        if header:
            key, value = header.groups()
            if key == "DiceRecipe":
                recipe = value
                continue
            fields = dict(part.split("=", 1) for part in value.split() if "=" in part)
            fields["rolls"] = [(int(c), tuple(map(int, d))) for c, d in
                               (item.split(":") for item in filter(None, fields.get("rolls", "").split(",")))]  # fmt: skip
            series[key] = fields
            continue
        started = GAME.match(line)
        if started:
            game = int(started.group(1))
            moves[game] = []
        elif game is not None and not line.lstrip().startswith((";", "#")):
            moves[game].extend((int(a), int(b)) for a, b in MOVE_DICE.findall(line))
    return recipe, series, moves


def luck(fields: dict, wrong: list[str]) -> tuple[list, str]:
    """The (from_roll, hex) client seeds of a series and what they say of each member; notes false claims."""
    items = [item.split(":") for item in filter(None, fields.get("clients", "").split(","))]
    if fields.get("recipe") != V3:
        return [(int(a), b) for a, b in items], f"{len(items)} client seeds"
    committed, safe = int(fields.get("committed", "0")), set()
    for who, at, claim, _ in items:
        if claim == "protected" and not int(at) > committed > 0:
            wrong.append(f"{who}'s luck is shown as protection but was set before the commitment")
        elif claim == "protected":
            safe.add(who)
    members = [m for m in fields.get("members", "").split(",") if m]
    words = [f"{m} {'protected by their own luck' if m in safe else 'added no luck after the commitment'}"
             for m in members]  # fmt: skip
    return [(0, item[3]) for item in items], "; ".join(words)


def check(text: str, out=print) -> int:
    """Check one file's text; print one line per series; return the number of problems (secret seeds excluded)."""
    recipe, series, moves = parse(text)
    if not series:
        out('no published dice found (lines ; [DiceGame1 "commitment=… seed=… rolls=…"])')
        return 1
    problems = 0
    for key, fields in series.items():
        own, commitment, rolls = fields.get("recipe") or recipe, fields.get("commitment", ""), fields["rolls"]
        seed_hex = None if fields.get("seed") in (None, "secret") else fields["seed"]
        if own not in RECIPES:
            out(f"{key}: unknown dice recipe {own!r}: this verifier knows {', '.join(RECIPES)}")
            problems += 1
            continue
        if fields.get("status") == "unused":
            opened = seed_hex is not None and hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest() == commitment
            problems += not opened or bool(rolls)
            good = "unused — its seed is revealed and hashes to its commitment"
            out(f"{key}: {good if opened and not rolls else 'PROBLEMS: unused, but not its commitment or with rolls'}")
            continue
        if seed_hex is None:
            out(f"{key}: seed still secret (the game is not over): {len(rolls)} rolls cannot be checked yet")
            continue
        wrong, reproduced, beacon, said = [], 0, "", ""
        clients, members = luck(fields, wrong)
        if "beacon" in fields:
            try:
                beacon = beacon_randomness(fields["beacon"], int(fields.get("start", "0")))
                said = f"; beacon {fields['beacon'].split(':')[0]} round {fields['beacon'].split(':')[1]} verified"
            except (ValueError, ImportError) as error:
                wrong.append(str(error))
        seed = bytes.fromhex(seed_hex)
        if hashlib.sha256(seed).hexdigest() != commitment:
            wrong.append(f"SHA-256 of the seed is {hashlib.sha256(seed).hexdigest()}, not the commitment")
        for expected, (counter, logged) in enumerate(rolls):
            if counter != expected:
                wrong.append(f"counter {counter} where {expected} was due")
            made = dice(seed, counter, len(logged), own, clients, beacon)
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
        by = f" ({own}, {members}{said})" if own != V1 else ""
        out(f"{key}: {status} — {reproduced} of {len(rolls)} rolls reproduced{by}")
    return problems


def main(argv: list[str]) -> int:
    """Check every file named in ``argv``; exit status 0 when all check, 1 otherwise."""
    usage = "\n\n".join(__doc__.split("\n\n")[1:4]).replace("``", "").replace(" ::", ":")
    while argv and argv[0] == "--chain" and len(argv) > 1:
        name, value = argv[1].split("=", 1)
        key, genesis, period = value.split(":")
        CHAINS[name] = (key, int(genesis), int(period))
        argv = argv[2:]
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
