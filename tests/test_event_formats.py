"""The pure event formats (club/events/formats.py, standings.py): every format to the end with 2, 3, 5, 8 and 13
players, byes, withdrawals, no-shows, a bracket reset, MoreSwiss eliminations, league promotion and relegation,
ladder challenges; property tests on pairing (nobody twice in a round, no avoidable Swiss rematch, byes spread
evenly, every match with its deadline) and the tie-breaks' explanations."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from club.events.formats import (
    EventError,
    EventState,
    Format,
    How,
    Result,
    Settings,
    apply_due,
    berger_rounds,
    bracket_placings,
    bracket_view,
    challenge,
    divide,
    finished,
    meetings,
    pair_swiss,
    promote,
    seed_positions,
    settle,
    swiss_active,
)
from club.events.standings import standings

SIZES = (2, 3, 5, 8, 13)
NOW = 1_800_000_000

FORMATS = [
    Settings(Format.SINGLE),
    Settings(Format.SINGLE, consolation=True),
    Settings(Format.DOUBLE),
    Settings(Format.ROUND_ROBIN),
    Settings(Format.ROUND_ROBIN, cycles=2),
    Settings(Format.SWISS, rounds=5),
    Settings(Format.SWISS, out_after=2),
    Settings(Format.SWISS, rounds=6, out_after=3),
    Settings(Format.LEAGUE, division_size=4),
]


def play_out(
    config: Settings, n: int, rng: random.Random, *, withdraw: float = 0.0, no_show: float = 0.0, checks=None
) -> EventState:
    """Run an event to the end with random results; ``checks(state, due, now)`` sees every settle."""
    state = EventState(config, tuple(range(1, n + 1)))
    now = NOW
    for _ in range(5000):
        due = settle(state, now)
        if checks:
            checks(state, due, now)
        apply_due(state, due)
        pending = state.pending()
        if not pending:
            break
        pairing = rng.choice(pending)
        roll = rng.random()
        if roll < withdraw and len(state.withdrawn) < n - 1:
            state.withdrawn.add(rng.choice(pairing.players))
            continue
        winner = rng.choice(pairing.players)
        loser = pairing.other(winner)
        if roll < withdraw + no_show:
            how = rng.choice([How.FORFEIT, How.CLAIM, How.BOTH_OUT])
            if how is How.BOTH_OUT:
                state.decide(Result(pairing.key, None, None, 0, 0, how))
            else:
                state.decide(Result(pairing.key, winner, loser, 0, 0, how))
        else:
            state.decide(Result(pairing.key, winner, loser, 5, rng.randint(0, 4)))
        now += 3600
    assert finished(state)
    return state


def check_round_integrity(state: EventState, due, now: int) -> None:
    """Nobody twice in one round of one stage; every real match has its deadline; a bye has none."""
    seen: dict[tuple[str, int], set[int]] = {}
    for pairing in list(state.pairings.values()) + list(due.pairings):
        stage = pairing.key.split("-")[0].rstrip("0123456789") if "R" not in pairing.key else pairing.key.split("R")[0]
        if pairing.key.startswith("GF"):
            stage = pairing.key
        group = seen.setdefault((stage, pairing.round), set())
        for p in pairing.players:
            assert p not in group, f"{p} twice in {stage} round {pairing.round}"
            group.add(p)
    for pairing in due.pairings:
        if pairing.b is None:
            assert pairing.deadline == 0
        else:
            assert pairing.deadline == now + state.settings.round_hours * 3600


@pytest.mark.parametrize(
    ("config", "n"),
    [(c, n) for c in FORMATS for n in SIZES if n >= c.min_players],
    ids=lambda v: str(v) if isinstance(v, int) else f"{v.format}-{v.consolation}-{v.cycles}-{v.out_after}",
)
def test_every_format_to_the_end(config, n):
    for seed in range(3):
        state = play_out(config, n, random.Random(seed), checks=check_round_integrity)
        rows = standings(state)
        assert sorted(r.player for r in rows) == list(range(1, n + 1))
        assert [r.place for r in rows] == sorted(r.place for r in rows)
        assert rows[0].place == 1
        if config.format in (Format.SINGLE, Format.DOUBLE):
            champions = [p for place, p in bracket_placings(state) if place == 1]
            assert len(champions) == 1


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(FORMATS), st.sampled_from(SIZES), st.integers(0, 10**6), st.floats(0, 0.2), st.floats(0, 0.3))
def test_withdrawals_and_no_shows_still_finish(config, n, seed, withdraw, no_show):
    if config.format is Format.LEAGUE and n < 3:
        n = 3
    state = play_out(config, n, random.Random(seed), withdraw=withdraw, no_show=no_show, checks=check_round_integrity)
    for key in state.pairings:
        result = state.results[key]
        if result.how is How.WALKOVER:
            assert result.loser in state.withdrawn


def test_single_elimination_byes_go_to_the_top_seeds():
    state = EventState(Settings(Format.SINGLE), tuple(range(1, 7)))
    due = settle(state, NOW)
    assert sorted(p.players for p in due.pairings) == [(3, 6), (4, 5)]
    rows = {m.key: (a, b) for m, a, b, _ in bracket_view(state)}
    assert rows["W1-1"] == (1, -1) and rows["W1-3"] == (2, -1)
    assert seed_positions(8) == (0, 7, 3, 4, 1, 6, 2, 5)


def decide(state: EventState, key: str, winner: int, how: How = How.PLAYED) -> None:
    pairing = state.pairings[key]
    state.decide(
        Result(key, winner, pairing.other(winner), 5 if how is How.PLAYED else 0, 2 if how is How.PLAYED else 0, how)
    )
    apply_due(state, settle(state, NOW))


def test_double_elimination_bracket_reset():
    state = EventState(Settings(Format.DOUBLE, lengths=(5,), final_length=11), (1, 2, 3, 4))
    apply_due(state, settle(state, NOW))
    decide(state, "W1-1", 1)
    decide(state, "W1-2", 2)
    decide(state, "W2-1", 1)
    decide(state, "L1-1", 3)  # 4 is out
    decide(state, "L2-1", 3)  # 2 (winners' final loser) is out
    gf = state.pairings["GF"]
    assert gf.players == (1, 3) and gf.final and state.settings.length(gf) == 11
    decide(state, "GF", 3)
    reset = state.pairings["GF2"]
    assert reset.players == (1, 3) and "reset" in reset.why.lower()
    assert not finished(state)
    decide(state, "GF2", 3)
    assert finished(state)
    assert bracket_placings(state) == [(1, 3), (2, 1), (3, 2), (4, 4)]


def test_double_elimination_no_reset_when_the_winners_champion_wins():
    state = EventState(Settings(Format.DOUBLE), (1, 2))
    apply_due(state, settle(state, NOW))
    decide(state, "W1-1", 2)
    assert state.pairings["GF"].players == (2, 1)
    decide(state, "GF", 2)
    assert "GF2" not in state.pairings and finished(state)


def test_progressive_consolation_takes_the_first_two_rounds_losers():
    state = play_out(Settings(Format.SINGLE, consolation=True), 8, random.Random(1))
    consolation = [p for k, p in state.pairings.items() if k.startswith("C")]
    main_losers = {state.results[k].loser for k in state.results if k.startswith(("W1-", "W2-"))}
    entrants = {p for pairing in consolation for p in pairing.players}
    assert entrants == main_losers
    final_losers = {state.results[k].loser for k in state.results if k.startswith("W3-")}
    assert not entrants & final_losers


def test_berger_tables_meet_everyone_once():
    for n in range(2, 15):
        rounds = berger_rounds(n)
        assert len(rounds) == n - 1 + n % 2
        pairs = [frozenset(p) for r in rounds for p in r if p[1] is not None]
        assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
        for r in rounds:
            players = [p for pair in r for p in pair if p is not None]
            assert len(players) == len(set(players))
    assert berger_rounds(4) == [[(0, 3), (1, 2)], [(2, 3), (0, 1)], [(1, 3), (2, 0)]]


def test_moreswiss_out_at_the_nth_loss():
    config = Settings(Format.SWISS, out_after=2)
    rng = random.Random(7)

    def checks(state, due, now):
        losses = {p: 0 for p in state.seeds}
        for key, r in state.results.items():
            for p in state.pairings[key].players if r.how is How.BOTH_OUT else (r.loser,):
                if p is not None:
                    losses[p] += 1
        for pairing in due.pairings:
            for p in pairing.players:
                assert losses[p] < 2, f"{p} paired after his second loss"

    state = play_out(config, 13, rng, checks=checks)
    assert len(swiss_active(state)) <= 1


def rematch_free_exists(players, met) -> bool:
    if not players:
        return True
    a = players[0]
    return any(b not in met[a] and rematch_free_exists([p for p in players[1:] if p != b], met) for b in players[1:])


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 10), st.integers(0, 10**6), st.integers(1, 6), st.sampled_from((0, 2, 3)))
def test_swiss_avoids_rematches_and_spreads_byes(n, seed, rounds, out_after):
    """Swiss and MoreSwiss (``out_after``): everyone still in is paired once a round, no rematch when one can be
    avoided, the bye to one of those with the fewest byes; in a plain Swiss byes differ by at most one at the end."""
    rng = random.Random(seed)
    state = EventState(Settings(Format.SWISS, rounds=rounds, out_after=out_after), tuple(range(1, n + 1)))
    for round_no in range(1, rounds + 1):
        active = swiss_active(state)
        if len(active) < 2:
            break
        met, byes = meetings(state)
        pairings = pair_swiss(state, active, round_no)
        bye = [p.a for p in pairings if p.b is None]
        assert len(bye) == len(active) % 2
        if bye:
            assert byes[bye[0]] == min(byes[p] for p in active)
        real = [p for p in pairings if p.b is not None]
        everyone = [x for p in pairings for x in p.players]
        assert sorted(everyone) == sorted(active)
        others = [p for p in active if p not in bye]
        if rematch_free_exists(others, met):
            assert all(p.b not in met[p.a] for p in real), [p.why for p in real]
        for pairing in pairings:
            state.record(pairing)
        for pairing in real:
            w = rng.choice(pairing.players)
            state.decide(Result(pairing.key, w, pairing.other(w), 3, 1))
    _, counts = meetings(state)
    if not out_after:
        assert max(counts.values()) - min(counts.values()) <= 1


def test_swiss_pairing_says_why():
    state = EventState(Settings(Format.SWISS, rounds=3), (1, 2, 3, 4, 5))
    first = settle(state, NOW)
    apply_due(state, first)
    whys = [p.why for p in first.pairings]
    assert any(w.startswith("Bye: the lowest record (0–0)") for w in whys)
    assert all(w for w in whys)
    for pairing in state.pending():
        state.decide(Result(pairing.key, pairing.a, pairing.b, 5, 0))
    second = settle(state, NOW)
    assert any("score group 1 win" in p.why for p in second.pairings)
    assert any("Bye" in p.why for p in second.pairings)
    bye = next(p.a for p in second.pairings if p.b is None)
    assert bye != next(p.a for p in first.pairings if p.b is None)


def test_swiss_rematch_avoided_is_explained():
    state = EventState(Settings(Format.SWISS, rounds=3), (1, 2, 3, 4))
    apply_due(state, settle(state, NOW))
    assert sorted(p.players for p in state.pending()) == [(1, 3), (2, 4)]
    state.decide(Result("S1-1", 1, 3, 5, 0))
    state.decide(Result("S1-2", 2, 4, 5, 0))
    apply_due(state, settle(state, NOW))
    assert sorted(p.players for p in state.pending()) == [(1, 2), (3, 4)]
    state.decide(Result("S2-1", 1, 2, 5, 0))
    state.decide(Result("S2-2", 3, 4, 5, 0))
    apply_due(state, settle(state, NOW))
    pairs = sorted(tuple(sorted(p.players)) for p in state.pending())
    assert pairs == [(1, 4), (2, 3)]
    assert any("rematch" in p.why or "floated" in p.why for p in state.pending())


def test_league_divisions_and_promotion():
    assert divide(tuple(range(1, 14)), 6) == ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13))
    final = ((1, 2, 3, 4, 5, 6), (7, 8, 9, 10, 11, 12), (13, 14, 15, 16, 17, 18))
    assert promote(final, 2, 2) == ((1, 2, 3, 4, 7, 8), (5, 6, 9, 10, 13, 14), (11, 12, 15, 16, 17, 18))
    state = play_out(Settings(Format.LEAGUE, division_size=6), 12, random.Random(3))
    tables = [[r.player for r in standings(state, division)] for division in state.divisions]
    nxt = promote(tables, 2, 2)
    assert set(nxt[0]) == set(tables[0][:4]) | set(tables[1][:2])
    assert set(nxt[1]) == set(tables[0][4:]) | set(tables[1][2:])


def test_ladder_challenges():
    state = EventState(Settings(Format.LADDER, reach=3), (1, 2, 3, 4, 5, 6))
    with pytest.raises(EventError, match="1 to 3 places above"):
        challenge(state, 6, 2, 1)
    with pytest.raises(EventError, match="1 to 3 places above"):
        challenge(state, 2, 3, 1)
    state.record(challenge(state, 5, 2, 1))
    with pytest.raises(EventError, match="already has a ladder match"):
        challenge(state, 3, 2, 2)
    state.decide(Result("X1", 5, 2, 5, 3))
    assert state.ladder == [1, 5, 2, 3, 4, 6]
    with pytest.raises(EventError, match="rematch waits"):
        challenge(state, 2, 5, 2)
    state.record(challenge(state, 3, 2, 2))
    state.decide(Result("X2", 2, 3, 5, 1))
    assert state.ladder == [1, 5, 2, 3, 4, 6]
    state.record(challenge(state, 2, 5, 3))
    assert [r.player for r in standings(state)] == [1, 5, 2, 3, 4, 6]
    assert not finished(state)


def round_robin_of(results: dict) -> EventState:
    state = EventState(Settings(Format.ROUND_ROBIN), (1, 2, 3, 4))
    apply_due(state, settle(state, NOW))
    while state.pending():
        for pairing in state.pending():
            winner, won, lost = results[frozenset(pairing.players)]
            state.decide(Result(pairing.key, winner, pairing.other(winner), won, lost))
        apply_due(state, settle(state, NOW))
    return state


def test_tie_breaks_explained():
    circle = round_robin_of(
        {
            frozenset((1, 2)): (1, 5, 0),
            frozenset((2, 3)): (2, 5, 3),
            frozenset((1, 3)): (3, 5, 4),
            frozenset((1, 4)): (1, 5, 1),
            frozenset((2, 4)): (2, 5, 1),
            frozenset((3, 4)): (3, 5, 2),
        }
    )
    rows = standings(circle)
    assert [(r.player, r.wins, r.head_to_head, r.buchholz) for r in rows] == [
        (1, 2, 1, 4),
        (3, 2, 1, 4),
        (2, 2, 1, 4),
        (4, 0, 0, 4),
    ]
    assert rows[0].why == "ahead on points won minus lost, +8 to +2"
    assert rows[1].why == "ahead on points won minus lost, +2 to +1"
    assert rows[2].why == "ahead on match wins, 2 to 0"
    assert rows[3].why == "" and [r.place for r in rows] == [1, 2, 3, 4]
    direct = round_robin_of(
        {
            frozenset((1, 2)): (1, 5, 0),
            frozenset((2, 3)): (2, 5, 3),
            frozenset((1, 3)): (3, 5, 4),
            frozenset((1, 4)): (1, 5, 1),
            frozenset((2, 4)): (4, 5, 1),
            frozenset((3, 4)): (4, 5, 2),
        }
    )
    rows = standings(direct)
    assert [r.player for r in rows][:2] == [1, 4] or [r.player for r in rows][:2] == [4, 1]
    two = [r for r in rows if r.wins == 2]
    assert two[0].why.startswith(("ahead on head-to-head", "ahead on Buchholz"))


def test_buchholz_decides_when_head_to_head_is_level():
    state = EventState(Settings(Format.SWISS, rounds=2), (1, 2, 3, 4, 5, 6))
    apply_due(state, settle(state, NOW))
    assert sorted(p.players for p in state.pending()) == [(1, 4), (2, 5), (3, 6)]
    for key, winner in (("S1-1", 1), ("S1-2", 2), ("S1-3", 6)):
        pairing = state.pairings[key]
        state.decide(Result(key, winner, pairing.other(winner), 5, 3))
    apply_due(state, settle(state, NOW))
    for pairing in state.pending():
        winner = min(pairing.players)
        state.decide(Result(pairing.key, winner, pairing.other(winner), 5, 3))
    rows = standings(state)
    ones = [r for r in rows if r.wins == 1]
    assert ones[0].buchholz > ones[-1].buchholz
    assert any(r.why.startswith("ahead on Buchholz (worst opponent cut)") for r in rows)


def test_bad_results_are_refused():
    state = EventState(Settings(Format.SINGLE), (1, 2, 3, 4))
    apply_due(state, settle(state, NOW))
    with pytest.raises(EventError, match="between other players"):
        state.decide(Result("W1-1", 2, 3))
    with pytest.raises(EventError, match="No match W9-9"):
        state.decide(Result("W9-9", 1, 4))
    state.decide(Result("W1-1", 1, 4))
    with pytest.raises(EventError, match="already decided"):
        state.decide(Result("W1-1", 1, 4))
    with pytest.raises(EventError, match="Swiss needs"):
        Settings(Format.SWISS)


def test_pairing_is_deterministic():
    for config in FORMATS:
        first = play_out(config, 8, random.Random(5))
        second = play_out(config, 8, random.Random(5))
        assert first.pairings == second.pairings


def test_placings_share_a_place_for_the_same_stage():
    state = play_out(Settings(Format.SINGLE), 8, random.Random(2))
    places = [place for place, _ in bracket_placings(state)]
    assert places == [1, 2, 3, 3, 5, 5, 5, 5]
