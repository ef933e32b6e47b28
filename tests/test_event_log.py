"""The payloads of an event's log: each kind of action has its typed payload, stored as the same JSON as ever, and
a log written before replays to the same event and standings."""

from __future__ import annotations

import json

import pytest

from club.events.log import (
    PAYLOADS,
    EventAction,
    LiveNight,
    Status,
    live_from,
    live_json,
    pairing_from,
    pairing_json,
    replay,
    result_from,
    result_json,
    settings_from,
    settings_json,
)
from club.events.standings import standings
from storage import dumps
from storage.events import EventAction as LoggedAction

# A Swiss event's log as the event store wrote it before its payloads were typed: (member, kind, args, at).
OLD_LOG = [
    (
        101,
        "create",
        '{"cap":5,"channel":null,"entry":0,"name":"Old","rules":null,"seeding":"rating","settings":{"consolation":false,"cycles":1,"division_size":8,"down":2,"final_length":0,"format":"swiss","lengths":[1],"out_after":0,"reach":3,"round_hours":24,"rounds":3,"up":2}}',
        1700000000.0,
    ),
    (101, "join", '{"member":101}', 1700000000.0),
    (102, "join", '{"member":102}', 1700000000.0),
    (103, "join", '{"member":103}', 1700000000.0),
    (104, "join", '{"member":104}', 1700000000.0),
    (105, "join", '{"member":105}', 1700000000.0),
    (106, "join", '{"member":106}', 1700000000.0),
    (103, "leave", '{"member":103}', 1700000000.0),
    (101, "checkin_open", '{"until":1700007200.0}', 1700000000.0),
    (101, "checkin", '{"member":101}', 1700000000.0),
    (102, "checkin", '{"member":102}', 1700000000.0),
    (104, "checkin", '{"member":104}', 1700000000.0),
    (105, "checkin", '{"member":105}', 1700000000.0),
    (106, "checkin", '{"member":106}', 1700000000.0),
    (101, "start", '{"seeds":[101,102,104,105,106]}', 1700000000.0),
    (
        None,
        "pair",
        '{"pairings":[{"a":101,"b":104,"deadline":1700086400,"final":false,"key":"S1-1","round":1,"why":"score group 0 wins"},{"a":102,"b":105,"deadline":1700086400,"final":false,"key":"S1-2","round":1,"why":"score group 0 wins"},{"a":106,"b":null,"deadline":0,"final":false,"key":"S1-3","round":1,"why":"Bye: the lowest record (0–0) among those with the fewest byes (0)."}]}',
        1700000000.0,
    ),
    (None, "post", '{"id":555,"what":"forum"}', 1700000000.0),
    (101, "live", '{"end":1700007200.0,"id":777,"start":1700003600.0,"where":"Voice"}', 1700000000.0),
    (101, "replay", '{"deadline":1700086400,"key":"S1-1"}', 1700000000.0),
    (None, "result", '{"how":"played","key":"S1-1","loser":104,"lost":0,"winner":101,"won":1}', 1700000000.0),
    (None, "result", '{"how":"played","key":"S1-2","loser":105,"lost":0,"winner":102,"won":1}', 1700000000.0),
    (
        None,
        "pair",
        '{"pairings":[{"a":101,"b":102,"deadline":1700086400,"final":false,"key":"S2-1","round":2,"why":"score group 1 win"},{"a":106,"b":104,"deadline":1700086400,"final":false,"key":"S2-2","round":2,"why":"score group 0 wins; <@106> floated down from 1"},{"a":105,"b":null,"deadline":0,"final":false,"key":"S2-3","round":2,"why":"Bye: the lowest record (0–1) among those with the fewest byes (0)."}]}',
        1700000000.0,
    ),
    (None, "ask", '{"default_at":1700176400.0,"key":"S2-1"}', 1700090000.0),
    (None, "ask", '{"default_at":1700176400.0,"key":"S2-2"}', 1700090000.0),
    (None, "result", '{"how":"both_out","key":"S2-1","loser":null,"lost":0,"winner":null,"won":0}', 1700180000.0),
    (None, "result", '{"how":"both_out","key":"S2-2","loser":null,"lost":0,"winner":null,"won":0}', 1700180000.0),
    (
        None,
        "pair",
        '{"pairings":[{"a":101,"b":105,"deadline":1700266400,"final":false,"key":"S3-1","round":3,"why":"score group 1 win"},{"a":102,"b":106,"deadline":1700266400,"final":false,"key":"S3-2","round":3,"why":"score group 1 win"},{"a":104,"b":null,"deadline":0,"final":false,"key":"S3-3","round":3,"why":"Bye: the lowest record (0–2) among those with the fewest byes (0)."}]}',
        1700180000.0,
    ),
    (101, "result", '{"how":"forfeit","key":"S3-1","loser":105,"lost":0,"winner":101,"won":0}', 1700180000.0),
    (None, "result", '{"how":"played","key":"S3-2","loser":106,"lost":0,"winner":102,"won":1}', 1700180000.0),
    (None, "close", "{}", 1700180000.0),
]

# Payloads of the other kinds, and of optional keys, as older logs hold them.
OLD_PAYLOADS = [
    ("create", '{"name":"Older","settings":{"format":"single","lengths":[3]}}'),
    ("start", '{"divisions":[[101,102],[104,105]],"seeds":[101,102,104,105]}'),
    ("ask", '{"claim":true,"default_at":1700176400.0,"key":"S2-1","late":104}'),
    ("withdraw", '{"member":104}'),
    ("next", '{"name":"Old 2"}'),
    ("cancel", "{}"),
]


def _log(rows):
    return [LoggedAction(seq, member, kind, json.loads(args), at) for seq, (member, kind, args, at) in
            enumerate(rows, 1)]  # fmt: skip


def test_an_old_log_replays_to_the_same_event_and_standings():
    event = replay(7, 1, _log(OLD_LOG))
    assert event.status is Status.OVER and event.version == len(OLD_LOG)
    assert event.entrants == [101, 102, 104, 105, 106] and event.checked_in == {101, 102, 104, 105, 106}
    assert event.posts == {"forum": 555} and event.replays == {"S1-1": 1} and event.asked == {}
    assert event.live == [LiveNight(777, 1700003600.0, 1700007200.0, "Voice")]
    rows = [(r.place, r.player, r.played, r.wins, r.losses, r.buchholz, r.won, r.lost) for r in standings(event.state)]
    assert rows == [
        (1, 102, 3, 2, 1, 3, 2, 0),
        (2, 101, 3, 2, 1, 3, 1, 0),
        (3, 104, 2, 1, 2, 2, 0, 1),
        (3, 105, 2, 1, 2, 2, 0, 1),
        (3, 106, 2, 1, 2, 2, 0, 1),
    ]


def test_every_kind_has_a_payload_type_that_fits_the_old_payloads():
    assert set(PAYLOADS) == set(EventAction)
    seen = set()
    for kind, args in [(kind, args) for _, kind, args, _ in OLD_LOG] + OLD_PAYLOADS:
        payload = PAYLOADS[EventAction(kind)]
        keys = set(json.loads(args))
        assert payload.__required_keys__ <= keys <= payload.__required_keys__ | payload.__optional_keys__, kind
        seen.add(EventAction(kind))
    assert seen == set(EventAction)


ROUND_TRIPS = {
    "result": lambda args: result_json(result_from(args)),
    "live": lambda args: live_json(live_from(args)),
    "pair": lambda args: {"pairings": [pairing_json(pairing_from(p)) for p in args["pairings"]]},
    "create": lambda args: args | {"settings": settings_json(settings_from(args["settings"]))},
}


@pytest.mark.parametrize("kind", sorted(ROUND_TRIPS))
def test_typed_payloads_are_stored_byte_for_byte_as_before(kind):
    logged = [args for _, k, args, _ in OLD_LOG if k == kind]
    assert logged
    for args in logged:
        assert dumps(ROUND_TRIPS[kind](json.loads(args))) == args
