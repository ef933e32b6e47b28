"""The dice check of one game as ``/bg verify`` and the console's ``verify`` show it (RULES A1):
the commitment, the client seeds naming their members, the revealed seed, the recipe and every roll recomputed, with
the published lines :mod:`club.proof` writes for ``tools/verify_dice.py``. Re-exported by :mod:`club.frontend`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage import ActionRecord

from . import proof
from .commitments import BEACON, CLIENT_SEED, UNUSED_SEED, luck_of
from .dice import RECIPE_V3, RECIPES, DiceSource, seed_hash, verify_rolls
from .errors import InvalidRequestError, shown
from .scope import _is_id, in_club
from .service import ClubService
from .table import MatchStatus
from .wording import MAX_MESSAGE, clip, plural

ATTACHED = "the attached file"
"""How a proof too long for one message names the file of its rolls (a front end without attachments writes the file
and puts its path in place of these words)."""


@dataclass(frozen=True, slots=True)
class DiceProof:
    """The dice check of one game (RULES A1): ``text`` in words, ``ok`` (None while the seed is still secret or
    the dice were injected, else whether every roll was recomputed from the revealed seed); ``published``: the
    published lines (:mod:`club.proof`) for ``tools/verify_dice.py``, also when they do not fit in ``text``."""

    match_id: int
    game_number: int
    text: str
    ok: bool | None
    published: str = ""


async def dice_proof(
    service: ClubService, match_id: int, game_number: int | None = None, *, guild_id: int | None = None
) -> DiceProof:
    """Check the dice of game ``game_number`` (default: the current or last game) of match ``match_id`` (RULES A1,
    :mod:`club.dice`): while it is played, the commitment; once over, the revealed seed, its SHA-256 against the
    commitment and every logged roll recomputed. Raises :class:`~club.errors.UnknownGameError`,
    :class:`~club.errors.InvalidRequestError` for a game that does not exist; with ``guild_id``, another server's
    match is unknown (:func:`in_club`)."""
    if guild_id is not None:
        await in_club(service, match_id, guild_id)
    view = await service.state(match_id)
    if game_number is not None and not _is_id(game_number):
        raise InvalidRequestError(f"a game of a match is its number, 1, 2 …, not {shown(game_number)}")
    number = view.game_number if game_number is None else game_number
    game = await service.db.get_game(match_id, number)  # this game's rows only: the cost does not grow with history
    if game is None:
        if view.status not in (MatchStatus.CHALLENGED, MatchStatus.ACTIVE):
            unused = await _unused(service, match_id, number)
            if unused is not None:
                return unused
        have = "none yet" if view.game_number < 1 else "1" if view.game_number == 1 else f"1–{view.game_number}"
        raise InvalidRequestError(f"match {match_id} has no game {number} (games: {have})")
    # this game's actions and those that may hold its client seeds (the game before, whose players fix the seeds of
    # the game ahead, and the actions outside any game: the challenge) — not the whole log
    actions = await service.db.game_actions(match_id, (number - 1, number))
    rolls = [(a.roll_index, a.dice) for a in actions
             if a.game_number == number and a.dice is not None and a.roll_index is not None]  # fmt: skip
    head = f"Match #{match_id}, game {number}: {plural(len(rolls), 'roll')} logged."
    if game.dice == DiceSource.INJECTED:
        return DiceProof(match_id, number, head + " The dice were given from outside (a test or a replay): "
                         "there is no seed to check.", None)  # fmt: skip
    series = [s for s in proof.match_series([game], actions) if s.key == f"DiceGame{number}"]
    recipe_name = series[0].recipe if series else proof.RECIPE
    when = "published before either player's client seed" if series and series[0].clients else "shown when it started"
    commitment = f"Commitment (SHA-256 of the server seed, {when}): {game.seed_hash}"
    recipe = f"Recipe {recipe_name}: {RECIPES[recipe_name]}"
    clients = _client_seed_lines(view, actions, number) if series else ""
    beacon = next((a.args for a in actions if a.kind == BEACON and a.args.get("game") == number), None)
    if recipe_name == RECIPE_V3:
        clients = _luck_lines(view, actions, number) + _beacon_line(beacon, view.names)
    published = "\n".join(proof.lines(series))
    if not game.seed_revealed:
        text = (f"{head}\n{commitment}{clients}\nThe seed stays secret until the game ends; then /bg verify shows it "
                f"and every roll.\n{recipe}")  # fmt: skip
        return DiceProof(match_id, number, clip(text), None)
    contributions = series[0].clients if series else ()
    randomness = None if beacon is None else beacon["randomness"]
    problems = verify_rolls(game.seed, game.seed_hash, rolls, recipe=recipe_name, contributions=contributions,
                            beacon=randomness)  # fmt: skip
    text = f"{head}\n{commitment}\nRevealed seed: {game.seed}{clients}\n{recipe}\n"
    if problems:
        text += "PROBLEMS:\n" + "\n".join(problems)
    else:
        every = "the only roll follows" if len(rolls) == 1 else f"all {plural(len(rolls), 'roll')} follow"
        text += f"The seed hashes to the commitment and {every} from it: the dice were fair."
    check = ("\nCheck it yourself: save the lines below (or the /bg export file) and run "
             "python tools/verify_dice.py FILE.\n")  # fmt: skip
    if len(text) + len(check) + len(published) <= MAX_MESSAGE:
        text += check + published
    else:
        text += (
            f"\nAll rolls are too many for one message: they are in {ATTACHED} and in /bg export (run python "
            "tools/verify_dice.py FILE on either)."
        )
    return DiceProof(match_id, number, text, not problems, published + "\n")


async def _unused(service: ClubService, match_id: int, number: int) -> DiceProof | None:
    """The proof of game ``number`` of a table that ended before it started (its seed revealed unused), or None."""
    series = proof._unused(await service.db.actions_of_kind(match_id, UNUSED_SEED), "DiceGame{}")
    found = next((each for each in series if each.key == f"DiceGame{number}"), None)
    if found is None:
        return None
    ok = found.seed is not None and seed_hash(bytes.fromhex(found.seed)) == found.commitment
    text = (f"Match #{match_id}, game {number} was never played (the table ended first). Its commitment "
            f"{found.commitment} is opened: the server seed was {found.seed}, and its SHA-256 "
            f"{'is' if ok else 'is NOT'} the commitment (unused).\n{found.line()}")  # fmt: skip
    return DiceProof(match_id, number, text, ok, found.line() + "\n")


def _luck_lines(view, actions: Sequence[ActionRecord], number: int) -> str:
    """The luck of each player of v3 game ``number`` (:data:`club.dice.RECIPE_V3`, step 7) and whether it protects
    him: set after the commitment, the bot could not have chosen its seed against it. The value of his clicks (the
    interaction id, which he never sees) is never counted as protection: it is not in the dice."""
    out, safe = [], set()
    for side, _at, protected, text in luck_of(actions, number):
        who = f"{view.names[side]} (side {side})" if side in (0, 1) else f"member {side}"
        how = "set after the commitment: protects them" if protected else "set before the commitment: no protection"
        out.append(f"\nLuck of {who}, {how}: “{text}”")
        safe |= {side} if protected else set()
    for side in (0, 1):
        if side not in safe:
            out.append(f"\n{view.names[side]} (side {side}) added no luck after the commitment: not protected by it.")
    return "".join(out)


def _beacon_line(beacon: dict | None, names) -> str:
    """What the game's beacon round says (:mod:`club.beacon`), or that it has none."""
    if beacon is None:
        return ("\nNo beacon: whoever runs the bot knew the seed; only a player's own luck set after the commitment "
                "keeps it from choosing the dice.")  # fmt: skip
    return (f"\nBeacon: drand {beacon['chain']} round {beacon['round']} (the first 30 s or more after the game's "
            f"start, {beacon['start_ms']} ms), signature {beacon['signature']}, randomness {beacon['randomness']}: "
            "nobody knew it when the seed and the luck were fixed, so nobody could bias these dice.")  # fmt: skip


def _client_seed_lines(view, actions: Sequence[ActionRecord], number: int) -> str:
    """The client seeds of game ``number`` as /bg verify lists them (RULES A1): one line each, in
    the published order, naming the member and his side and giving the value as plain text in typographic quotes —
    e.g. ``Client seed of bob (side 1), counting from roll 0: “bob's lucky phrase | 1312…”``."""
    out = []
    for action in actions:
        if action.kind != CLIENT_SEED or action.args.get("game") != number:
            continue
        side = action.side if action.side is not None else view.side_of(action.member_id)
        who = f"{view.names[side]} (side {side})" if side is not None else f"member {action.member_id}"
        out.append(f"\nClient seed of {who}, counting from roll {action.args['from_roll']}: “{action.args['seed']}”")
    return "".join(out)
