"""The dice check of one game as ``/bg verify`` and the console's ``verify`` show it (RULES A1):
the commitment, the client seeds naming their members, the revealed seed, the recipe and every roll recomputed, with
the published lines :mod:`club.proof` writes for ``tools/verify_dice.py``. Re-exported by :mod:`club.frontend`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage import ActionRecord

from . import proof
from .commitments import CLIENT_SEED, UNUSED_SEED
from .dice import RECIPES, seed_hash, verify_rolls
from .errors import InvalidRequestError, shown
from .scope import _is_id, in_club
from .service import ClubService
from .wording import MAX_MESSAGE, clip, plural


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
        if view.status not in ("challenged", "active"):
            unused = await _unused(service, match_id, number)
            if unused is not None:
                return unused
        have = "none yet" if view.game_number < 1 else "1" if view.game_number == 1 else f"1–{view.game_number}"
        raise InvalidRequestError(f"match {match_id} has no game {number} (games: {have})")
    # this game's actions and those that may hold its client seeds (the game before, whose players fix the seeds of
    # the game ahead, and the actions outside any game: the challenge) — not the whole log
    actions = await service.db.game_actions(match_id, (number - 1, number))
    rolls = [(a.roll_index, a.dice) for a in actions if a.game_number == number and a.dice is not None]
    head = f"Match #{match_id}, game {number}: {plural(len(rolls), 'roll')} logged."
    if game.dice == "injected":
        return DiceProof(match_id, number, head + " The dice were given from outside (a test or a replay): "
                         "there is no seed to check.", None)  # fmt: skip
    series = [s for s in proof.match_series([game], actions) if s.key == f"DiceGame{number}"]
    recipe_name = series[0].recipe if series else proof.RECIPE
    when = "published before either player's client seed" if series and series[0].clients else "shown when it started"
    commitment = f"Commitment (SHA-256 of the server seed, {when}): {game.seed_hash}"
    recipe = f"Recipe {recipe_name}: {RECIPES[recipe_name]}"
    clients = _client_seed_lines(view, actions, number) if series else ""
    published = "\n".join(proof.lines(series))
    if not game.seed_revealed:
        text = (f"{head}\n{commitment}{clients}\nThe seed stays secret until the game ends; then /bg verify shows it "
                f"and every roll.\n{recipe}")  # fmt: skip
        return DiceProof(match_id, number, clip(text), None)
    contributions = series[0].clients if series else ()
    problems = verify_rolls(game.seed, game.seed_hash, rolls, recipe=recipe_name, contributions=contributions)
    text = f"{head}\n{commitment}\nRevealed seed: {game.seed}{clients}\n{recipe}\n"
    if problems:
        text += "PROBLEMS:\n" + "\n".join(problems)
    else:
        every = "the only roll follows" if len(rolls) == 1 else f"all {plural(len(rolls), 'roll')} follow"
        text += f"The seed hashes to the commitment and {every} from it: the dice were fair."
    check = ("\nCheck it yourself: save the lines below (or the /bg export file) and run "
             "python tools/verify_dice.py FILE (standard library only).\n")  # fmt: skip
    if len(text) + len(check) + len(published) <= MAX_MESSAGE:
        text += check + published
    else:
        text += "\nAll rolls are too many for one message: they are in the attached file and in /bg export (run python tools/verify_dice.py FILE on either)."
    return DiceProof(match_id, number, text, not problems, published + "\n")


async def _unused(service: ClubService, match_id: int, number: int) -> DiceProof | None:
    """The proof of game ``number`` of a table that ended before it started (its seed revealed unused), or None."""
    series = proof._unused(await service.db.actions_of_kind(match_id, UNUSED_SEED), "DiceGame{}")
    found = next((each for each in series if each.key == f"DiceGame{number}"), None)
    if found is None:
        return None
    ok = seed_hash(bytes.fromhex(found.seed)) == found.commitment
    text = (f"Match #{match_id}, game {number} was never played (the table ended first). Its commitment "
            f"{found.commitment} is opened: the server seed was {found.seed}, and its SHA-256 "
            f"{'is' if ok else 'is NOT'} the commitment (unused).\n{found.line()}")  # fmt: skip
    return DiceProof(match_id, number, text, ok, found.line() + "\n")


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
