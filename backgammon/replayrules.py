"""The rules a match file is replayed under (RULES M2, M3, D3, D4, G3): :func:`default_rules` from the file's header
and the options, and :func:`opening_ties`, the opening ties that raised a game's cube. Split out of
:mod:`backgammon.replay`, which re-exports both."""

from __future__ import annotations

from .matfile import DOUBLE, GameRecord, MatchRecord
from .rules import AutomaticKind, ForfeitValuation, RuleSet


def default_rules(
    record: MatchRecord,
    *,
    jacoby: bool = False,
    beavers: bool = False,
    automatic_doubles: int = 0,
    crawford: bool | None = None,
) -> RuleSet:
    """The rule set a file is replayed under when none is given: the ``tournament`` preset (003 match rules) with the
    Crawford rule as the header says (``; [Crawford "Off"]`` turns it off; GNU Backgammon assumes it on), and for a
    money session (length 0) the Jacoby rule (D4), beavers and raccoons (D3) and automatic doubles (G3) as asked or as
    the file's own header says (``; [Jacoby "On"]``, ``; [Beaver "On"]``, ``; [AutomaticDoubles "1"]`` and
    ``; [AutomaticDoublesKind "add"]`` for raises that add one, 000 §20b, as our exports write them). A file from Backgammon Galaxy (``; [Site "BackgammonGalaxy"]``) scores a forfeited game
    single, as that site does (``forfeit_valuation="single"``); a ``; [Variation "Nackgammon"]`` file starts from
    Nackgammon's set-up (``variant``, RULES G1). ``crawford`` (not ``None``) overrides the header's
    Crawford setting (``--no-crawford``, RULES M3). Raises
    :class:`~backgammon.errors.RuleSetError` when those options are asked for a match (RULES G3, M2, D3)."""
    header = {key.lower(): value.strip().lower() for key, value in record.header.items()}

    def on(key: str) -> bool:
        return header.get(key, "") in ("on", "yes", "true", "1")

    if crawford is None:
        crawford = header.get("crawford", "on") not in ("off", "no", "false", "0")
    kind = AutomaticKind.DOUBLE
    if not record.length:
        jacoby = jacoby or on("jacoby")
        beavers = beavers or on("beaver")
        stated = header.get("automaticdoubles", "0")
        automatic_doubles = automatic_doubles or (int(stated) if stated.isdigit() else 0)
        kind = AutomaticKind.ADD if header.get("automaticdoubleskind") == AutomaticKind.ADD else AutomaticKind.DOUBLE
    galaxy = "galaxy" in header.get("site", "")
    variant = header.get("variation", "backgammon")  # the reader refuses a variation not in VARIANTS
    rules = RuleSet.preset(
        "tournament",
        variant=variant,
        name="tournament" if record.length else "money",
        forfeit_valuation=ForfeitValuation.SINGLE if galaxy else ForfeitValuation.BOARD,
        crawford=crawford,
        jacoby=jacoby,
        beavers=beavers,
        raccoons=beavers,
        automatic_doubles=automatic_doubles,
        automatic_doubles_kind=kind,
    )
    rules.validate_for(record.length)
    return rules


def opening_ties(record: GameRecord, rules: RuleSet) -> int:
    """Opening ties that raised the game's cube (RULES G3): the file's recorded count
    (:attr:`~backgammon.matfile.GameRecord.automatic_raises`), else inferred from the game's first double (the count
    before it is ``N / 2``)."""
    if not rules.automatic_doubles:
        return 0
    if record.automatic_raises is not None:
        return record.automatic_raises
    first = next((a for a in record.actions if a.kind == DOUBLE), None)
    if first is None or not first.value or first.value % 2:
        return 0
    before = first.value // 2
    if rules.automatic_doubles_kind != AutomaticKind.DOUBLE:
        return 0  # add-one raises leave the cube's face at 1 (RULES D6): the first double cannot show them
    ties = before.bit_length() - 1 if before & (before - 1) == 0 else 0
    return ties if 0 < ties <= rules.automatic_doubles else 0
