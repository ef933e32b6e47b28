"""Each chouette member's cube decisions graded against the engine (RULES C4, C5, D1–D3).

The session's action log is replayed through :class:`~club.chouette.table.ChouetteTable` (the club's own state
machine); before each cube action the board position and the cube concerned are read and the decision noted, one per
cube: a Team member's double or pass of his cube in the Team's window (003 Atlanta 5.9), Box's double of each cube
he turns (and, when Box rolls without doubling, a no-double for each cube he could have turned), each answer to Box's
double (take/drop, a beaver counted as a take), and Box's answer for each cube the Team doubled (answers to a beaver
or a raccoon are not graded). Extras (5.7) are not
graded. Only **finished games** are graded: the game being played is left out (no aids while it is played, 003 1.5).
Chouettes are money play; each cube is graded at its own value and owner (per unit of it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from backgammon.chouette.cubes import BOX_SIDE, ChouetteCube, Side
from backgammon.cube import Stage
from backgammon.game import Action

from ..chouette.table import TableStatus
from ..vocabulary import ChouetteAction
from ..wording import plural
from .engine import CubeState
from .grade import CUBE_EPSILON, Grade, grade_answer, grade_double
from .walk import ANSWER, DOUBLE, Decision

CUBE_KINDS = (ChouetteAction.DOUBLE, ChouetteAction.PASS, ChouetteAction.ANSWER, ChouetteAction.BOX_ANSWER,
              ChouetteAction.ROLL)  # fmt: skip
"""The logged kinds that hold a cube decision to grade (a roll of Box: his double not taken)."""


def _state(cube: ChouetteCube, view_side: int, rules) -> CubeState:
    """The cube seen from board side ``view_side`` (0 Box, 1 Team): owner relative to that side."""
    owner = cube.cube.owner
    relative = None if owner is None else (0 if owner == view_side else 1)
    return CubeState(
        value=cube.cube.value,
        owner=relative,
        jacoby=bool(getattr(rules.game, "jacoby", False)),
        beavers=bool(getattr(rules.game, "beavers", False)),
    )


@dataclass(slots=True)
class MemberCubes:
    """One member's graded cube decisions in a session: ``member`` (user id), ``grades`` and their sums."""

    member: int
    grades: list[Grade] = field(default_factory=list)

    @property
    def decisions(self) -> int:
        """Counted decisions (doubles and close no-doubles, every answer)."""
        return sum(g.counted for g in self.grades)

    @property
    def errors(self) -> list[Grade]:
        """The cube errors (any equity lost), in order."""
        return [g for g in self.grades if g.counted and g.loss > CUBE_EPSILON]

    @property
    def equity_lost(self) -> float:
        """Equity lost over his counted cube decisions (per cube unit)."""
        return sum(g.loss for g in self.grades if g.counted)


def chouette_decisions(actions) -> list[tuple[int, int, str, Decision]]:
    """``(member, game number, cube key, decision)`` for every graded cube decision of the finished games of a
    session, from its logged ``actions`` (objects with ``kind``, ``member_id``, ``args``, ``game_number``)."""
    from club.chouette.table import ChouetteTable, member_id

    if not actions or actions[0].kind != ChouetteAction.OPEN:
        return []
    table = ChouetteTable.open(actions[0].args)
    found: list[tuple[int, int, str, Decision]] = []
    finished: set[int] = set()
    for action in actions[1:]:
        kind, member, args = action.kind, action.member_id, action.args
        board = table.board
        game = table.session.game if board is not None else None
        number = action.game_number or 0
        if game is not None and board is not None and kind in CUBE_KINDS:
            rules = table.rules
            cubes = game.cubes
            box_view, team_view = board.board_for(0), board.board_for(1)
            if (
                kind == ChouetteAction.DOUBLE
                and game.on_roll == Side.BOX
                and str(args.get("member", member)) == game.box
            ):
                targets = args.get("targets")
                keys = [str(t) for t in targets] if targets else [k for k, c in cubes.items() if _box_may(c)]
                for key in keys:
                    if key in cubes:
                        found.append((member_id(game.box), number, key,
                                      Decision(DOUBLE, 0, 0, box_view, _state(cubes[key], 0, rules), acted=True)))  # fmt: skip
            elif kind in (ChouetteAction.DOUBLE, ChouetteAction.PASS) and game.on_roll == Side.TEAM:
                subject = str(args.get("member", member))
                key = args.get("cube") or subject
                if key in cubes:
                    found.append((int(subject), number, key,
                                  Decision(DOUBLE, 1, 0, team_view, _state(cubes[key], 1, rules),
                                           acted=kind == ChouetteAction.DOUBLE)))  # fmt: skip
            elif kind == ChouetteAction.ROLL and game.on_roll == Side.BOX and not game.doubled:
                for key, cube in cubes.items():
                    if _box_may(cube):
                        found.append((member_id(game.box), number, key,
                                      Decision(DOUBLE, 0, 0, box_view, _state(cube, 0, rules), acted=False)))  # fmt: skip
            elif kind == ChouetteAction.ANSWER:
                subject = str(args.get("member", member))
                key = args.get("cube") or subject
                if key in cubes and cubes[key].cube.stage == Stage.DOUBLE:  # a beaver's or raccoon's answer: not graded
                    found.append((int(subject), number, key,
                                  Decision(ANSWER, 1, 0, box_view, _state(cubes[key], 0, rules),
                                           acted=args["decision"] != Action.DROP)))  # fmt: skip
            elif kind == ChouetteAction.BOX_ANSWER:
                decisions = args["decisions"]
                for key, cube in cubes.items():
                    if cube.cube.stage != Stage.DOUBLE or not cube.live:
                        continue
                    decision = decisions if isinstance(decisions, str) else decisions.get(key)
                    if decision is None:
                        continue
                    found.append((member_id(game.box), number, key,
                                  Decision(ANSWER, 0, 0, team_view, _state(cube, 1, rules),
                                           acted=decision != Action.DROP)))  # fmt: skip
        if kind == ChouetteAction.START_GAME and table.board is not None:
            finished.add(table.game_number)  # the game before it is over
        table.apply(kind, member, args, atomic=False)
    if table.board is not None and (table.board.is_over or table.status != TableStatus.OPEN):
        finished.add(table.game_number)
    return [entry for entry in found if entry[1] in finished]


def _box_may(cube: ChouetteCube) -> bool:
    """Box may turn this cube now: live, no offer pending, centred or his (RULES D1)."""
    return cube.live and cube.cube.offered is None and cube.cube.owner in (None, BOX_SIDE) and not cube.extra


def grade_chouette(engine, actions) -> dict[int, MemberCubes]:
    """Every member's graded cube decisions of the finished games (see the module docstring), by user id."""
    found = chouette_decisions(actions)
    equities = engine.cube_decisions([(d.position, d.cube) for _, _, _, d in found])
    members: dict[int, MemberCubes] = {}
    for (member, number, _key, decision), cube in zip(found, equities, strict=True):
        grade = grade_double(decision, cube) if decision.kind == DOUBLE else grade_answer(decision, cube)
        grade.game = number
        members.setdefault(member, MemberCubes(member)).grades.append(grade)
    return members


def grade_chouette_task(actions, level: str = "2ply") -> dict[int, MemberCubes]:
    """Worker task: :func:`grade_chouette` with this process's engine."""
    from .pool import engine

    return grade_chouette(engine(level), actions)


def chouette_review_lines(members: dict[int, MemberCubes], names: dict[int, str], title: str) -> list[str]:
    """The session review's cube part: per member, decisions, errors and equity lost; each error in words."""
    lines = [f"**Cube review: {title}** (finished games; Open Sage)"]
    if not members:
        lines.append("No cube decision in a finished game yet.")
    for member, cubes in sorted(members.items(), key=lambda item: names.get(item[0], str(item[0]))):
        who = names.get(member, str(member))
        lines.append(
            f"{who}: {plural(cubes.decisions, 'cube decision')}, {plural(len(cubes.errors), 'error')}, "
            f"equity lost {cubes.equity_lost:.3f}"
        )
        for grade in cubes.errors[:5]:
            lines.append(f"  game {grade.game}: {grade.made}, right was {grade.best} (−{grade.loss:.3f})")
    return lines


async def review_chouette(chouettes, session_id: int, *, pool, level: str = "2ply") -> str:
    """The cube review of chouette ``session_id`` (a :class:`~club.chouette.ChouetteService`'s log, graded in
    ``pool``): every member's cube decisions in its finished games, as text (at most 2,000 characters)."""
    actions = await chouettes.log(session_id)
    members = await pool.run(grade_chouette_task, actions, level)
    records = await chouettes.club.db.get_members(list(members))
    names = {m: records[m].display_name if m in records else str(m) for m in members}
    return "\n".join(chouette_review_lines(members, names, f"chouette #{session_id}"))[:2000]
