"""A club organiser's first session from the README (the newcomer's report of 2026-12-02): each test is one of its
repros, run in the console as he typed it, and failed before its fix."""

from __future__ import annotations

import pytest

from club.analysis import engine_available
from console import member_id
from storage.prs import pr_totals
from tests.consolekit import console_in

needs_engine = pytest.mark.skipif(not engine_available(), reason="the optional engine (bgsage) is not installed")


async def run(console, lines: str) -> list[str]:
    """Each ``;``-separated line of ``lines`` typed in turn; their replies."""
    return [await console.handle(line.strip()) for line in lines.split(";")]


async def first_mover(console):
    """Match 1 as it stands, the name of the member to act first, and his legal plays."""
    view = await console.service.state(1)
    return (
        view,
        view.names[view.players.index(view.waiting_for)],
        await console.service.legal_plays(1, view.waiting_for),
    )


async def test_a_jacoby_reduced_result_says_counted_single(tmp_path):
    """A gammon resigned with the cube in the middle under the Jacoby rule scores a single (RULES D4): the game's
    line and the sheet say so, not "a gammon, 1 point" and "resigned gammon | +1"."""
    async with console_in(tmp_path) as console:
        out = await run(console, "as erin; challenge bob money money 10; as bob; accept; as erin; resign gammon; "
                                 "as bob; accept; club sheet")  # fmt: skip
        accepted, sheet = out[-2], out[-1]
        assert "bob wins game 1 (resignation): a gammon, counted single (Jacoby), 1 point" in accepted, accepted
        assert "resigned gammon, counted single (Jacoby)" in sheet, sheet


@needs_engine
async def test_the_pr_leaderboard_ranks_nobody_below_the_reviews_minimum(tmp_path):
    """A member with 1 decision ranked first at 0.00 while his review said fewer than 20 decisions give no PR, and a
    forfeited match with 0 decisions counted as a match: now a member below the review's minimum is not ranked but
    named under the board, and a match without a decision is not counted."""
    async with console_in(tmp_path) as console:
        await run(console, "as erin; config move_hours 1 expiry claim; challenge bob 3; as bob; accept")
        view, mover, plays = await first_mover(console)
        out = await run(console, f"as {mover}; move {plays[0]}; wait 2h; claim match; review 1; "
                                 "club leaderboard pr")  # fmt: skip
        review, board = out[-2], out[-1]
        assert f"{mover} made only 1 counted decision (fewer than 20)" in review, review
        assert f"1  {mover}" not in board and f"Not ranked (fewer than 20 decisions): {mover} (1)" in board, board
        totals = await pr_totals(console.service.db, view.club_id)
        assert {member: total.matches for member, total in totals.items()} == {member_id(mover): 1}


async def test_reminders_follow_the_clubs_setting_after_every_extension(tmp_path):
    """After an automatic away day, and after more time given on a claim, the club's reminders (12 h and 2 h here)
    come before the new deadline — not one reminder 4 hours before it (RULES A2)."""
    async with console_in(tmp_path) as console:
        await run(console, "as erin; config move_hours 24 reminders 12,2 away_days 5; challenge bob 3; as bob; accept")
        view, mover, plays = await first_mover(console)
        late = "bob" if mover == "erin" else "erin"
        out = await run(console, f"as {mover}; move {plays[0]}; wait 25h; wait 25h")
        assert "one away day was used automatically" in out[-2], out[-2]
        after = out[-1]
        assert "12.0 hours left" in after and "2.0 hours left" in after and "4.0 hours left" not in after, after
        out = await run(console, f"as {mover}; config away_days 0 expiry claim; wait 25h; more-time; wait 25h")
        assert f"gives {late} 24 hours more" in out[-2], out[-2]
        assert "12.0 hours left" in out[-1] and "2.0 hours left" in out[-1], out[-1]


async def test_every_games_ending_is_drawn_before_the_next_opening(tmp_path):
    """A game that ends while the session goes on: its final board — text and PNG, with the result in its header —
    comes before the next game's opening, not only the match's last game's (the final board of games 1–4 was never
    shown)."""
    async with console_in(tmp_path, images=tmp_path / "images") as console:
        await run(console, "challenge bob money money 10; as bob; accept")
        view = await console.service.state(1)
        resigner = view.names[view.players.index(view.waiting_for)]
        winner = "bob" if resigner == "alice" else "alice"
        before = len(console.written)
        out = await run(console, f"as {resigner}; resign single; as {winner}; accept")
        reply = out[-1]
        header = f"{winner} wins game 1: single, "
        assert header in reply, reply
        names = [path.name for path in console.written[before:]]
        assert any(name.startswith("match1-game1-") for name in names), names
        assert any(name.startswith("match1-game2-") for name in names), names
        assert reply.index(header) < reply.index("match1-game1-") < reply.index("match1-game2-"), reply


async def test_a_chouettes_text_and_png_give_the_same_position_id(tmp_path):
    """The chouette's text board printed the Position ID from one side and its PNG from the other while cube
    decisions were pending: both now give gnubg's, seen by the side on roll, at every step of a game with doubles."""
    from club.chouette.images import board_view

    names = ("alice", "bob", "cy", "di")
    async with console_in(tmp_path, cast=names[1:]) as console:
        await console.handle("chouette start stake=1")
        for name in names[1:]:
            await run(console, f"as {name}; chouette join")
        await console.handle("chouette seat")
        doubled = set()
        for _ in range(60):
            view = await console.chouettes.state(1)
            if not view.board_live:
                break
            game = view.board
            side = game.on_roll if game.on_roll is not None else (game.turn or 0)
            expected = game.board_for(side).position_id()
            shown = await console.handle("chouette status")
            assert f"Position ID: {expected}" in shown, (view.decisions[0].pending, shown)
            for viewer in (view.box, view.captain):
                assert board_view(view, viewer).resolved_position_id() == expected
            decision = view.decisions[0]
            await console.handle(f"as {view.name(decision.actor)}")
            if decision.pending == "play":
                plays = await console.chouettes.legal_plays(1, decision.actor)
                out = await console.handle(f"move {plays[0]}")
            elif decision.pending == "double":
                out = await console.handle("double" if decision.subject not in doubled else "no-double")
                doubled.add(decision.subject)
            elif decision.pending == "answer":
                out = await console.handle("take")
            else:
                out = await console.handle("roll" if "roll" in decision.actions else decision.actions[0])
            assert not out.startswith("Refused"), out
        assert doubled, "the game had a Team window"


async def test_claims_say_what_they_score_and_claim_game_is_not_claim_match(tmp_path):
    """``claim game`` after one move of a 3-point match scored a backgammon and ended the match like ``claim match``,
    unannounced: the notice now says what each claim scores under the club's valuation — by default a single game at
    the cube, so the match goes on; a club that values forfeits as the board stands is told so beforehand."""
    async with console_in(tmp_path) as console:
        await run(console, "as erin; config move_hours 1 expiry claim; challenge bob 3; as bob; accept")
        view, mover, plays = await first_mover(console)
        out = await run(console, f"as {mover}; move {plays[0]}; wait 2h; claim game")
        assert "you may claim the game (1 point (single, a single game at the cube)), claim the match (the match is " \
               "yours)" in out[-2], out[-2]  # fmt: skip
        assert "Match #1 is over" not in out[-1] and (await console.service.state(1)).status == "active", out[-1]
    (tmp_path / "board").mkdir()
    async with console_in(tmp_path / "board") as console:
        out = await run(console, "as erin; config move_hours 1 expiry claim; config rule_overrides "
                                 """'{ forfeit_valuation = "board" }'; challenge bob 3; as bob; accept""")  # fmt: skip
        assert not any(line.startswith("Refused") for line in out), out
        view, mover, plays = await first_mover(console)
        out = await run(console, f"as {mover}; move {plays[0]}; wait 2h")
        assert "claim the game (3 points (backgammon, as the board stands): that ends the match)" in out[-1], out[-1]


async def test_a_member_who_left_a_chouette_still_sees_its_sheet(tmp_path):
    """A member who left during a game is out once it ends, but he is on the sheet: ``chouette sheet`` and
    ``chouette status`` find the chouette for him (they said "No chouette here for you")."""
    async with console_in(tmp_path, cast=("ann", "ben", "cy")) as console:
        await run(console, "as ann; config expiry forfeit_game; chouette start; as ben; chouette join; as cy; "
                           "chouette join; chouette seat; chouette leave; wait 150h")  # fmt: skip
        # a late Captain gets an Acting Captain (RULES C9); when he is late too, nobody present is left: forfeit
        assert member_id("cy") not in (await console.chouettes.state(1)).members, "cy is out after the game"
        sheet = await console.handle("chouette sheet")
        assert not sheet.startswith("Refused") and "cy" in sheet, sheet
        assert not (await console.handle("chouette status")).startswith("Refused")


async def test_a_team_settlement_shows_on_the_panel(tmp_path):
    """After cy buys dee's interest (003 Atlanta 4.4) the panel still said "Team dee — cube 1 centred": the text
    panel and the PNG's now say that cy holds dee's cube, settled."""
    from club.chouette.images import panel

    async with console_in(tmp_path, cast=("ann", "ben", "cy", "dee")) as console:
        await run(console, "as ann; chouette start; as ben; chouette join; as cy; chouette join; as dee; "
                           "chouette join; chouette seat")  # fmt: skip
        view = await console.chouettes.state(1)
        buyer, seller = (view.names[m] for m in view.team[1:3])  # two Team members, whatever the seat roll
        await run(console, f"as {buyer}; chouette team-settle offer {seller} 1; as {seller}; "
                           "chouette team-settle accept")  # fmt: skip
        status = await console.handle("chouette status")
        assert f"Team {seller} — cube 1 centred, held by {buyer} (settled)" in status, status
        members = panel(await console.chouettes.state(1))
        labels = [members.captain.name, *(member.name for member in members.team)]
        assert f"{buyer} ({seller}'s cube, settled)" in labels, labels


def test_a_long_review_is_cut_between_lines_and_says_how_many_more():
    """The review's text was cut at 3,500 characters mid-word ("equities: no doubl"): it ends on a whole line and
    says how many lines were left out."""
    from club.analysis.review import Review

    lines = ["**Review**", *(f"{n}. game 1, erin: no double, right was double (−0.286; equities: no double …)"
                             for n in range(1, 200))]  # fmt: skip
    text = Review("title", lines, None).text
    assert len(text) <= 3500
    shown = text.splitlines()
    assert shown[:-1] == lines[: len(shown) - 1], "whole lines only"
    assert shown[-1] == f"… and {len(lines) - len(shown) + 1} more lines", shown[-1]


async def test_a_cube_action_in_a_chouettes_lobby_says_what_the_lobby_waits_for(tmp_path):
    """A member doubling in a chouette's lobby was told "The chouette is lobby.": now what it waits for."""
    async with console_in(tmp_path, cast=("ann", "ben")) as console:
        out = await run(console, "as ann; chouette start; as ben; chouette join; double chouette=1")
        assert "is lobby" not in out[-1] and "waiting for the seat roll" in out[-1], out[-1]
