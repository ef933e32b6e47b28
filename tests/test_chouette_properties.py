"""Properties of chouette sessions under random sequences of events (RULES C1–C11, both families).

After any sequence of cube decisions, settlements, joins, absences and game results: every game on the sheet sums to
zero, the running totals sum to zero, the rotation is a permutation of the members, a refused event changes nothing,
the session round-trips through JSON and its history replays to the same state.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backgammon.chouette import ChouetteRules, ChouetteSession
from backgammon.errors import ChouetteError


@st.composite
def chouette_rules(draw) -> ChouetteRules:
    """A random rule set of either family, with its options (RULES "Rule sets")."""
    preset = draw(st.sampled_from(["chouette-classic", "chouette-classic-1931", "chouette-atlanta"]))
    options = {
        "automatic_doubles": draw(st.integers(0, 2)),
        "automatic_doubles_kind": draw(st.sampled_from(["double", "add"])),
        "jacoby": draw(st.booleans()),
        "box_partner": draw(st.booleans()),
        "box_partner_min_members": draw(st.integers(4, 6)),
        "settlements": draw(st.booleans()),
        "break_even_rule": draw(st.booleans()),
    }
    if preset == "chouette-atlanta":
        options |= {
            "beavers": draw(st.booleans()),
            "raccoons": draw(st.booleans()),
            "extras": draw(st.sampled_from(["off", "5.7", "5.7a", "5.7b", "5.7c"])),
            "rule_5_10a": draw(st.booleans()),
            "half_rule": draw(st.booleans()),
        }
    else:
        options |= {
            "partners_may_refuse_team_double": draw(st.booleans()),
            "captain_takes_over_refusers": draw(st.booleans()),
            "refuser_forfeit_to": draw(st.sampled_from(["box", "captain"])),
        }
    return ChouetteRules.preset(preset, **options)


def candidates(session: ChouetteSession, rnd: random.Random) -> list[tuple[str, tuple, dict]]:
    """Events that may be legal now (from ``awaiting``/``may_double``), plus a few that usually are not."""
    events: list[tuple[str, tuple, dict]] = []
    members = session.members
    newcomer = f"N{len(session.sheet().members) + 1}"
    if session.phase == "ready":
        events += [("start_game", (), {})] * 4 + [("join", ([newcomer],), {}), ("relinquish_box", (), {})]
        if session.rules.stakes:
            events.append(("set_stake", (rnd.choice(members), rnd.choice([1, 2, 4])), {}))
        return events
    game = session.game
    waiting = session.awaiting()
    for item in waiting:
        by = {} if item.actor == item.member else {"by": item.actor}
        for action in item.actions:
            if item.member == game.box:
                events.append(("box_answer", (action,), {}))
                events.append(("box_answer", ({k: rnd.choice(item.actions) for k in item.cubes},), {}))
            elif action in ("double", "no_double"):
                name = "team_double" if action == "double" else "no_double"
                events.append((name, (item.member,), {"cube": item.cubes[0], **by}))
            elif action in ("offer_extra", "no_extra"):
                events.append((action, (item.member,), by))
            else:
                events.append(("answer", (item.member, action), by))
    if waiting:
        events.append(("close_window", (), {}))
    else:
        side = "box" if game.on_roll != "box" else "team"
        events += [("turn", (side,), {})] * 6
        result = (rnd.choice(["box", "team"]), rnd.choice(["single", "gammon", "backgammon"]))
        events.append(("game_over", result, {}))
        if game.on_roll is None:
            events.append(("opening_tie", (), {}))
        if game.on_roll == "box":
            choices = session.may_double(game.box)
            if choices:
                subset = rnd.sample(choices, rnd.randint(1, len(choices)))
                events += [("box_double", (subset,), {"in_order": rnd.random() < 0.3})] * 3
            events += [("extra_double", (s.box,), {"cube": s.key}) for s in game.live_cubes() if s.extra]
        if game.on_roll == "team" and session.rules.single_cube:
            events += [("team_double", (game.captain,), {})] * 3
        playing = [m for m in game.team if game.in_play(m)]
        if playing:
            events.append(("settle", (rnd.choice(playing), rnd.randint(-4, 4)), {}))
    someone = rnd.choice(members)
    events += [
        ("leave", (someone,), {"proxy": rnd.choice([None, *members])}),
        ("come_back", (someone,), {}),
        ("join", ([newcomer],), {}),
        ("answer", (someone, rnd.choice(["take", "drop", "beaver", "raccoon"])), {}),
        ("box_double", ([someone],), {}),
        ("team_double", (someone,), {}),
    ]
    return events


def check_invariants(session: ChouetteSession) -> None:
    """Zero sums (RULES C11), the rotation a permutation (C8), a Captain in play (C4, C8), JSON round trip."""
    sheet = session.sheet()
    for row in sheet.rows:
        assert sum(row.points.values()) == 0, row
        assert sorted(row.next_order) == sorted(set(row.next_order))
    assert sum(sheet.totals().values()) == 0
    everyone = session.order + session.waiting
    assert len(everyone) == len(set(everyone))
    assert set(everyone) == set(sheet.members)
    if session.phase == "playing":
        game = session.game
        assert sorted(game.order) == sorted(session.order)
        classic_round_open = session.rules.single_cube and game.round is not None  # 000 Ch.10: after all answers
        assert classic_round_open or game.in_play(game.captain) or not any(game.in_play(m) for m in game.team)
        assert all((slot.responder is not None) == slot.pending for slot in game.cubes.values())
    data = session.to_json()
    assert ChouetteSession.from_json(data).to_json() == data


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=chouette_rules(), size=st.integers(3, 6), steps=st.integers(10, 90), data=st.data())
def test_random_sessions_keep_the_sheet_zero_sum_and_the_rotation_a_permutation(rules, size, steps, data):
    """RULES C8, C11 (and every other C rule along the way): random events, legal or not."""
    rnd = data.draw(st.randoms(use_true_random=False), label="arguments")
    session = ChouetteSession(rules)
    session.seat({f"P{i}": 6 * rules.seating_dice - i for i in range(size)})
    for _ in range(steps):
        events = candidates(session, rnd)
        name, args, kwargs = events[data.draw(st.integers(0, 10**6), label="event") % len(events)]
        before = session.to_json()
        try:
            getattr(session, name)(*args, **kwargs)
        except ChouetteError:
            assert session.to_json() == before, f"refused {name}{args}{kwargs} changed the session"
        check_invariants(session)
    assert ChouetteSession.replay(rules, session.history).to_json() == session.to_json()
