"""The published dice values of a match, a money session or a chouette (RULES A1): everything a
member needs to recompute every roll himself with ``tools/verify_dice.py`` (standard library only) — no database,
no trust in the bot.

Each dice series (a game of a match or session; a chouette's seating series 0 and its game series) is one line::

    ; [DiceRecipe "bgclub-hmac-sha256-v2"]
    ; [DiceGame2 "recipe=bgclub-hmac-sha256-v2 commitment=<SHA-256 hex> seed=<seed hex, or secret>
      clients=0:616e6e,2:3132 rolls=0:52,1:31,2:66"]   (one line)

``clients`` lists the client seeds of a :data:`~club.dice.RECIPE_V2` series in their published
order as ``from_roll:hex of the UTF-8 text``; a series rolled with the older :data:`~club.dice.RECIPE` has no
``recipe`` or ``clients`` field (the ``DiceRecipe`` line names the recipe of such series).

A series whose table ended before it started (a declined, withdrawn or lapsed challenge; a match won before its last
game; a stopped session; a claimed or forfeited match; a closed chouette) is published with ``status=unused`` and its
revealed seed: every commitment published is opened.

``rolls`` lists each logged roll as ``counter:dice`` (the dice as digits in the logged order: an opening roll is side
0's die then side 1's; a chouette seat throw may be one die). The lines are the ``.mat`` export's header lines
(:mod:`club.export`), the text of ``/bg verify`` and of :func:`chouette_lines`; the recipe is
:data:`club.dice.RECIPE_TEXT`. A seed is published only once its game is over (``secret`` before).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from storage import ActionRecord, GameRecord

from .commitments import BEACON, committed_at, logged_contributions, luck_of, unused_series
from .dice import RECIPE, RECIPE_V2, RECIPE_V3, RECIPES, Contribution, DiceSource
from .table import TableAction
from .vocabulary import ChouetteAction

RECIPE_KEY = "DiceRecipe"


@dataclass(frozen=True, slots=True)
class Series:
    """One dice series as published: ``key`` (``DiceGame2``, ``DiceChouette3Series0`` …), the commitment, the seed
    (hex; None while secret), the logged rolls ``(counter, dice)`` in order, the ``recipe`` and (v2) the client seeds
    ``clients`` ``[(from_roll, text), …]`` in their published order."""

    key: str
    commitment: str
    seed: str | None
    rolls: tuple[tuple[int, tuple[int, ...]], ...]
    recipe: str = RECIPE
    clients: tuple[Contribution, ...] = ()
    unused: bool = False
    """The table ended before this series started: its seed is revealed, it has no rolls."""
    luck: tuple[tuple[str, float, bool], ...] = ()
    """v3: for each client seed (same order) who set it, when (Unix s) and whether it is claimed as protection."""
    committed: float = 0.0
    """v3: when the commitment was published (Unix s; the time of the action that carries it)."""
    members: tuple[str, ...] = ()
    """v3: every player of the series (``side0``, ``side1``; a chouette's ``m<id>``)."""
    beacon: str | None = None
    """v3 with a beacon: ``chain:round:signature start=<Unix ms of the message that started the game>``."""

    def value(self) -> str:
        """The header value: ``[recipe=… ]commitment=… seed=… [clients=… ][status=unused ]rolls=…``."""
        rolls = ",".join(f"{index}:{''.join(str(d) for d in dice)}" for index, dice in self.rolls)
        text = f"commitment={self.commitment} seed={self.seed or 'secret'} "
        if self.unused:
            return f"{text}status=unused rolls="
        if self.recipe == RECIPE_V3:
            clients = ",".join(f"{who}:{round(at * 1000)}:{'protected' if safe else 'unprotected'}:{seed.encode().hex()}"
                               for (who, at, safe), (_, seed) in zip(self.luck, self.clients, strict=True))  # fmt: skip
            text = (f"recipe={self.recipe} {text}committed={round(self.committed * 1000)} "
                    f"members={','.join(self.members)} clients={clients} ")  # fmt: skip
            if self.beacon:
                text += f"beacon={self.beacon} "
        elif self.recipe != RECIPE:
            clients = ",".join(f"{start}:{seed.encode('utf-8').hex()}" for start, seed in self.clients)
            text = f"recipe={self.recipe} {text}clients={clients} "
        return f"{text}rolls={rolls}"

    def line(self) -> str:
        """The ``; [Key "value"]`` line."""
        return f'; [{self.key} "{self.value()}"]'


def match_series(games: Iterable[GameRecord], actions: Sequence[ActionRecord]) -> list[Series]:
    """The published series of a match's games with provably fair dice (injected dice have none), game order."""
    rolls: dict[int, list[tuple[int, tuple[int, ...]]]] = defaultdict(list)
    for action in actions:
        if action.dice is not None and action.game_number is not None and action.roll_index is not None:
            rolls[action.game_number].append((action.roll_index, tuple(action.dice)))
    recipes = {
        action.args.get("number"): action.args.get("recipe", RECIPE) for action in actions if action.kind == TableAction.NEW_GAME
    }
    out = []
    for game in sorted(games, key=lambda g: g.number):
        if game.dice != DiceSource.FAIR or game.seed_hash is None:
            continue
        seed = game.seed if game.seed_revealed else None
        recipe = recipes.get(game.number, RECIPE)
        clients = tuple(logged_contributions(actions, game.number)) if recipe != RECIPE else ()
        key = f"DiceGame{game.number}"
        extra = _v3(actions, game.number, game.seed_hash, lambda who: f"side{who}", ("side0", "side1"))
        series = Series(key, game.seed_hash, seed, tuple(rolls.get(game.number, ())), recipe, clients)
        out.append(replace(series, **extra) if recipe == RECIPE_V3 else series)
    return out + _unused(actions, "DiceGame{}")


def _v3(actions, number: int, commitment: str, label, members: tuple[str, ...]) -> dict:
    """The v3 fields of series ``number`` (commitment ``commitment``) from its log ``actions``: each client seed's
    setter (``label(who)``), time and claim, when the commitment was published, the ``members``, the beacon round."""
    committed = committed_at(actions, commitment)
    beacon = next((a.args for a in actions if a.kind == BEACON and a.args.get("game") == number), None)
    return {
        "luck": tuple((label(who), at, safe) for who, at, safe, _ in luck_of(actions, number)),
        "committed": committed,
        "members": members,
        "beacon": None if beacon is None else (f"{beacon['chain']}:{beacon['round']}:{beacon['signature']} "
                                               f"start={beacon['start_ms']}"),
    }  # fmt: skip


def _unused(actions, key: str) -> list[Series]:
    """The series a log reveals unused (the table ended before they started), named by ``key`` (a format)."""
    return [Series(key.format(n), commitment, seed, (), unused=True)
            for n, (commitment, seed) in sorted(unused_series(actions).items())]  # fmt: skip


def header_lines(series: Iterable[Series]) -> dict[str, str]:
    """The ``.mat`` header entries (key → value) of ``series``, the recipe first (empty when there is none): the
    recipe of the lines without a ``recipe`` field (v1) if there are any, else v2 (each v2 line names it too)."""
    series = list(series)
    entries = {item.key: item.value() for item in series}
    recipe = RECIPE if any(item.recipe == RECIPE and not item.unused for item in series) else RECIPE_V2
    return {RECIPE_KEY: recipe, **entries} if entries else {}


def lines(series: Iterable[Series]) -> list[str]:
    """The published lines of ``series``, the recipe line first."""
    return [f'; [{key} "{value}"]' for key, value in header_lines(series).items()]


async def match_lines(service, match_id: int) -> list[str]:
    """The published lines of match ``match_id`` (``service``: a :class:`~club.service.ClubService`). Raises
    :class:`~club.errors.UnknownGameError`."""
    actions = await service.log(match_id)
    return lines(match_series(await service.db.games(match_id), actions))


def chouette_recipes(actions) -> dict[int, str]:
    """The recipe of each dice series of a chouette's log: series 0's in its ``open``, game n's in its
    ``start_game`` (:data:`~club.dice.RECIPE` when not named: a series without client seeds)."""
    recipes = {}
    for action in actions:
        if action.kind == ChouetteAction.OPEN:
            recipes[0] = action.args.get("recipe", RECIPE)
        elif action.kind == ChouetteAction.START_GAME:
            recipes[action.args["number"]] = action.args.get("recipe", RECIPE)
    return recipes


async def chouette_series(chouettes, session_id: int) -> list[Series]:
    """The published series of chouette ``session_id`` (``chouettes``: a
    :class:`~club.chouette.ChouetteService`): series 0 (seat throws) and one per game, with their recipes and
    client seeds."""
    store = chouettes.store
    actions = await store.actions(session_id)
    recipes = chouette_recipes(actions)
    rolls = chouette_rolls(actions)
    out = []
    for number, series in sorted((await store.dice(session_id)).items()):
        if series.dice != DiceSource.FAIR or series.seed_hash is None:
            continue
        seed = series.seed if series.seed_revealed else None
        key = f"DiceChouette{session_id}Series{number}"
        recipe = recipes.get(number, RECIPE)
        clients = tuple(logged_contributions(actions, number)) if recipe != RECIPE else ()
        item = Series(key, series.seed_hash, seed, tuple(rolls.get(number, ())), recipe, clients)
        if recipe == RECIPE_V3:
            players = tuple(f"m{member}" for member in chouette_members(actions, number))
            item = replace(item, **_v3(actions, number, series.seed_hash, lambda who: f"m{who}", players))
        out.append(item)
    return out + _unused(actions, f"DiceChouette{session_id}Series{{}}")


def chouette_rolls(actions) -> dict[int, list[tuple[int, tuple[int, ...]]]]:
    """The logged rolls of each dice series of a chouette's log, ``{series: [(counter, dice), …]}``: a seat throw or
    a rethrow holds one roll per thrower (``[(member, die or dice), …]``, counters running on), any other action
    its one roll."""
    rolls: dict[int, list[tuple[int, tuple[int, ...]]]] = defaultdict(list)
    for action in actions:
        if action.dice is None or action.series is None:
            continue
        if action.kind in (ChouetteAction.SEAT, ChouetteAction.RETHROW):
            for offset, (_member, dice) in enumerate(action.dice):
                dice = dice if isinstance(dice, list | tuple) else [dice]
                rolls[action.series].append((action.roll_index + offset, tuple(dice)))
        else:
            rolls[action.series].append((action.roll_index, tuple(action.dice)))
    return rolls


def chouette_members(actions, number: int) -> list[int]:
    """The members whose dice series ``number`` of a chouette's log is: the seat roll's throwers (series 0), a v3
    game's players as its ``start_game`` names them (Box first)."""
    for action in actions:
        if number == 0 and action.kind == ChouetteAction.SEAT:
            return [int(member) for member in action.args["throws"]]
        if number and action.kind == ChouetteAction.START_GAME and action.args.get("number") == number:
            return list(action.args.get("members", []))
    return []


def protection(series: Series, names: dict[int, str]) -> str:
    """For each member of v3 ``series``, whether his own luck protects him (set after the commitment), in words:
    ``"Ann: protected by her own luck; Bob: added no luck after the commitment"`` (``names``: member id → name)."""
    safe = {who for who, _at, claim in series.luck if claim}

    def name(label: str) -> str:
        return names.get(int(label[1:]), label) if label[1:].isdigit() else label

    return "; ".join(f"{name(m)}: {'protected by their own luck' if m in safe else 'added no luck after the commitment'}"
                     for m in series.members)  # fmt: skip


async def chouette_lines(chouettes, session_id: int) -> list[str]:
    """The published lines of chouette ``session_id`` (see :func:`chouette_series`)."""
    return lines(await chouette_series(chouettes, session_id))


def chouette_proof_text(
    session_id: int, series: Sequence[Series], file: str = "the attached file", names: dict[int, str] | None = None
) -> str:
    """What ``/bg chouette verify`` (console ``chouette verify``) says beside the proof ``file`` of ``series``
    (:func:`lines`): the recipes used, for each v3 series whether each member's own luck protects him and its beacon
    round, when each commitment and seed is published, and how to check it (``names``: member id → name)."""
    used = sorted({each.recipe for each in series if not each.unused}, reverse=True) or [RECIPE_V3]
    recipes = "\n".join(f"Recipe {name}: {RECIPES[name]}" for name in used)
    each = []
    v3 = [item for item in series if item.recipe == RECIPE_V3 and not item.unused]
    for item in v3[:1] + v3[1:][-4:]:  # the first series and the last four games (the file has every series)
        what = "the seat throws" if item.key.endswith("Series0") else f"game {item.key.rsplit('Series', 1)[1]}"
        beacon = f"; drand {item.beacon.split(':')[0]} round {item.beacon.split(':')[1]}" if item.beacon else ""
        each.append(f"\nDice of {what}: {protection(item, names or {})}{beacon or '; no beacon'}.")
    return (f"Chouette #{session_id} dice. {recipes}{''.join(each)}\nEach series' commitment was published before "
            "any member's luck (listed per series in the file, with when it was set). A game's seed is published "
            "when it ends (the seat throws' when the chouette closes). Check every roll yourself: python "
            f"tools/verify_dice.py on {file}.")  # fmt: skip


async def chouette_proof(chouettes, session_id: int, file: str = "the attached file") -> tuple[list[Series], str]:
    """The published series of chouette ``session_id`` and :func:`chouette_proof_text` naming its members (what
    ``/bg chouette verify`` and the console's ``chouette verify`` show). Raises
    :class:`~club.errors.UnknownGameError`."""
    series = await chouette_series(chouettes, session_id)
    names = (await chouettes.state(session_id)).names
    return series, chouette_proof_text(session_id, series, file, names)
