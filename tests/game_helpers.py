"""Helpers for the game, match and scoring-case tests (test code only: nothing here is part of the rules layer)."""

from __future__ import annotations

import random

import pytest

from backgammon.game import Game, Phase
from backgammon.match import Match
from backgammon.position import Position

A, B = 0, 1
SIDE = {"A": A, "B": B}
LEVEL = {"single": 1, "gammon": 2, "backgammon": 3}


def board_from_case(spec: dict) -> Position:
    """A position from the cases' ``{"points", "bar", "off"}`` form, seen by the player on roll ("me")."""
    return Position.from_points(spec["points"], spec["bar"], spec.get("off"))


def copy_game(game: Game) -> Game:
    """An independent copy through the public JSON round trip."""
    return Game.from_json(game.to_json())


def jump_to_final_roll(game: Game, board: Position, side: int) -> Game:
    """TEST HELPER — not a game action: the same game (rules, score, cube, history) with the board replaced by
    ``board`` (seen by ``side``) and ``side`` to roll (phase ROLL). Used where a case describes only how a game
    ended ("play continues … B wins a gammon"): the test builds a position one roll from that end and lets the real
    ``roll``/``play`` actions produce the result."""
    data = game.to_json()
    data.update(
        board=(board if side == A else board.swap()).position_id(),
        phase=Phase.ROLL.value,
        on_roll=side,
        turn=side,
        dice=None,
        resignation=None,
    )
    return Game.from_json(data)


def final_board(loser_off: int, loser_in_winner_home_or_bar: bool) -> Position:
    """A finished position seen by the winner (all 15 off) where the loser has ``loser_off`` checkers off and, if
    asked, one checker on the winner's 3-point (the rest in the loser's home board)."""
    left = 15 - loser_off
    points: dict[int, int] = {}
    if loser_in_winner_home_or_bar and left:
        points[3] = -1
        left -= 1
    for point in (19, 20, 21, 22, 23, 24):
        take = min(left, 5)
        if take:
            points[point] = -take
            left -= take
    assert left == 0
    return Position.from_points(points)


def one_roll_before(final: Position) -> Position:
    """``final`` (seen by the winner, who has borne off all 15) with the winner's last checker put back on the
    lowest home point the loser does not hold, so that any roll bears it off."""
    assert final.off_player == 15
    for point in range(1, 7):
        if final.at(point) == 0:
            player = list(final.player)
            player[point - 1] = 1
            return Position(tuple(player), final.opponent)
    raise AssertionError("no free home point to put the last checker on")


def finish_by_bearing_off(game: Game, final: Position, winner: int) -> Game:
    """Jump (test helper) to one roll before ``final`` with ``winner`` to roll, then roll 6-5 and bear off."""
    game = jump_to_final_roll(game, one_roll_before(final), winner)
    game.roll(winner, (6, 5))
    plays = game.legal_plays()
    assert len(plays) == 1
    game.play(winner, plays[0])
    assert game.is_over
    return game


def play_first_legal(game: Game) -> None:
    """The player on roll plays the first legal play (the cases' "any legal play")."""
    game.play(game.on_roll, game.legal_plays()[0])


def advance_to(game: Game, side: int, dice=(4, 2), on_step=None) -> None:
    """Finish turns (rolling ``dice``, playing the first legal play) until ``side`` is on roll before rolling."""
    for _ in range(8):
        if game.phase == Phase.ROLL and game.on_roll == side:
            return
        if game.phase == Phase.ROLL:
            game.roll(game.on_roll, dice)
        elif game.phase == Phase.PLAY:
            play_first_legal(game)
        else:
            raise AssertionError(f"cannot advance from phase {game.phase}")
        if on_step:
            on_step(game)
    raise AssertionError("side never came on roll")


def snapshot(game: Game, match: Match | None = None):
    """Everything observable about the state, for "changes nothing" assertions."""
    return (game.to_json(), None if match is None else match.to_json())


def assert_rejected(game: Game, call, error_type, match: Match | None = None):
    """``call()`` raises ``error_type`` and leaves ``game`` (and ``match``) exactly as they were."""
    before = snapshot(game, match)
    with pytest.raises(error_type) as info:
        call()
    assert snapshot(game, match) == before
    return info.value


def random_action(game: Game, rng: random.Random, *, cube_rate=0.15, resign_rate=0.01):
    """Take one random legal action (random dice, random legal play, random cube decisions); returns its name."""
    if game.phase == Phase.OPENING:
        game.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        return "opening_roll"
    side = game.turn
    actions = game.legal_actions(side)
    if "resign" in actions and rng.random() < resign_rate:
        level = rng.randint(1, 3)
        if level > game.declined_resignation(side):  # RULES G12: not the refused offer again this turn
            game.resign(side, level)
            return "resign"
    if game.phase == Phase.ROLL:
        if "double" in actions and rng.random() < cube_rate:
            game.double(side)
            return "double"
        game.roll(side, (rng.randint(1, 6), rng.randint(1, 6)))
        return "roll"
    if game.phase == Phase.PLAY:
        game.play(side, rng.choice(game.legal_plays()))
        return "play"
    if game.phase == Phase.RESIGNATION_OFFERED:
        name = rng.choice(["accept_resignation", "reject_resignation", "reject_resignation"])
    else:
        choices = [a for a in ("take",) * 8 + ("drop", "beaver", "raccoon") if a in actions]
        name = rng.choice(choices)
    getattr(game, name)(side)
    return name
