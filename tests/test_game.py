"""The game state machine (backgammon.game): RULES G1–G12 through the actions, the cube D1–D6 in play, M3/M4 flags,
the Point Game M6, typed refusals that change nothing, JSON round trips and history replay."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backgammon.errors import (
    AmbiguousPlayError,
    BackgammonError,
    CubeError,
    GameError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPlayError,
    RuleSetError,
    WrongPhaseError,
    WrongTurnError,
)
from backgammon.game import ACTIONS, Game, GameResult, Phase, point_game_count, result_level
from backgammon.ids import GAME_DROP, GAME_OVER, GAME_RESIGNED, decode_match_id, encode_match_id
from backgammon.moves import Play, legal_plays
from backgammon.position import Position
from backgammon.rules import RuleSet
from tests.casekit import load_cases
from tests.game_helpers import (
    A,
    B,
    advance_to,
    assert_rejected,
    board_from_case,
    copy_game,
    final_board,
    finish_by_bearing_off,
    play_first_legal,
    random_action,
)

MONEY = RuleSet.preset("money", automatic_doubles=0, jacoby=False)
PLAIN = RuleSet.preset("tournament")
MOVE_CASES = {c["id"]: c for c in load_cases("positions.json")}


def opened(rules=PLAIN, dice=(6, 1), **kwargs) -> Game:
    game = Game(rules, **kwargs)
    game.opening_roll(*dice)
    return game


# -- G1, G2, G3: set-up and the opening roll ---------------------------------------------------------------------------
def test_g1_new_game_starts_from_the_set_up_position():
    """RULES G1: a new game has 2/5/3/5 on the 24/13/8/6 points for each side, cube 1 centred, opening roll due."""
    game = Game(PLAIN)
    assert game.phase == Phase.OPENING and game.turn is None and game.on_roll is None
    assert game.board_for(A) == game.board_for(B) == Position.initial()
    assert (game.cube_value, game.cube_owner, game.result, game.history) == (1, None, None, [])
    assert game.legal_actions(A) == game.legal_actions(B) == {"opening_roll", "forfeit"}
    assert game.legal_plays() == []


@pytest.mark.parametrize("dice, mover", [((6, 1), A), ((2, 5), B), ((1, 3), B)])
def test_g2_opening_roll_higher_die_plays_both_numbers(dice, mover):
    """RULES G2: each side rolls one die; the higher moves first and plays both numbers (phase PLAY at once)."""
    game = opened(dice=dice)
    assert (game.phase, game.on_roll, game.turn, game.dice) == (Phase.PLAY, mover, mover, dice)
    assert {p.position for p in game.legal_plays()} == {p.position for p in legal_plays(Position.initial(), dice)}
    assert game.legal_actions(mover) == {"play", "resign", "forfeit"}
    assert game.legal_actions(1 - mover) == {"resign", "forfeit"}
    game.play(mover, game.legal_plays()[0])
    assert (game.phase, game.on_roll) == (Phase.ROLL, 1 - mover)


def test_g2_ties_reroll_and_g3_no_raise_without_automatic_doubles():
    """RULES G2/G3: a tie re-rolls; without automatic doubles (tournament preset) the cube stays at 1."""
    game = Game(PLAIN)
    game.opening_roll(4, 4)
    assert (game.phase, game.opening_ties, game.cube_value, game.automatic_raises) == (Phase.OPENING, 1, 1, 0)
    assert game.history == [{"action": "opening_roll", "dice": [4, 4]}]


def test_g3_automatic_doubles_double_kind_up_to_the_limit():
    """RULES G3 (000 §20a, 001 §15): each tie doubles the count up to the limit; the cube stays centred."""
    game = Game(RuleSet.preset("money", automatic_doubles=3, jacoby=False))
    values = []
    for _ in range(5):
        game.opening_roll(2, 2)
        values.append((game.cube_value, game.cube_owner))
    assert values == [(2, None), (4, None), (8, None), (8, None), (8, None)]
    assert (game.automatic_raises, game.opening_ties) == (3, 5)


def test_g3_automatic_doubles_add_one_kind_then_a_voluntary_double_doubles_the_count():
    """RULES G3 (000 §20b "add one to the previous count") and D1/D6 (score = cube × multiplier × automatic factor):
    1 → 2 → 3 is a factor of 3 beside a cube still at 1; a double turns the cube to 2 (the count 6), a single after
    the take is worth 6 = cube 2 × factor 3. The Match ID carries the power-of-two cube (gnubg has no factor)."""
    rules = RuleSet.preset("money", automatic_doubles=2, automatic_doubles_kind="add", jacoby=False, beavers=False)
    game = Game(rules)
    game.opening_roll(5, 5)
    game.opening_roll(1, 1)
    game.opening_roll(3, 3)
    assert (game.cube_value, game.automatic_factor, game.cube_count) == (1, 3, 3)
    assert decode_match_id(encode_match_id(game.match_state())).cube == 1
    game.opening_roll(3, 1)
    play_first_legal(game)
    game.double(B)
    assert game.offered_value == 2 and game.cube.offered_count == 6
    game.take(A)
    assert (game.cube_value, game.cube_count) == (2, 6)
    won = finish_by_bearing_off(game, final_board(2, False), A)
    assert (won.result.points, won.result.cube, won.result.factor) == (6, 2, 3)
    assert GameResult.from_json(won.result.to_json()) == won.result
    assert Game.from_json(won.to_json()) == won


def test_d6_add_one_factor_prices_drops_resignations_and_forfeits():
    """RULES D2/D6: a drop costs the count before the double (cube × factor), a resignation and a forfeit the count
    times the level; a result without a factor stores no 'factor' key (older results read the same)."""
    rules = RuleSet.preset("money", automatic_doubles=1, automatic_doubles_kind="add", jacoby=False, beavers=False,
                           forfeit_valuation="board")  # fmt: skip

    def tied() -> Game:
        game = Game(rules)
        game.opening_roll(4, 4)
        game.opening_roll(3, 1)
        return game

    game = tied()
    play_first_legal(game)
    game.double(B)
    assert game.drop(A) == GameResult(B, 2, "single", "drop", 1, 1, 2)
    game = tied()
    game.resign(A, 2)
    assert game.accept_resignation(B).points == 4
    assert tied().forfeit(B).points == 2 * 3  # a backgammon as the board stands (B is in A's home board), count 2
    assert "factor" not in GameResult(A, 2, "single", "drop", 2, 1).to_json()


def test_g3_automatic_doubles_stop_at_the_cube_cap_and_never_in_a_match():
    """RULES G3 with D5: an automatic raise never passes the cap; G3/004: a match with automatic doubles is refused."""
    game = Game(RuleSet.preset("money", automatic_doubles=5, cube_cap=4))
    for _ in range(4):
        game.opening_roll(6, 6)
    assert (game.cube_value, game.automatic_raises) == (4, 2)
    with pytest.raises(RuleSetError, match="automatic doubles"):
        Game(RuleSet.preset("tournament", automatic_doubles=1), match_length=5)


def test_opening_roll_refuses_bad_dice_and_a_second_opening():
    """RULES G2: the opening roll is two dice 1–6, once; bad dice raise InvalidDiceError and change nothing."""
    game = Game(PLAIN)
    assert_rejected(game, lambda: game.opening_roll(0, 3), InvalidDiceError)
    assert_rejected(game, lambda: game.opening_roll(3, 7), InvalidDiceError)
    game.opening_roll(3, 1)
    assert_rejected(game, lambda: game.opening_roll(5, 2), WrongPhaseError)


# -- G4–G10: playing ---------------------------------------------------------------------------------------------------
def test_g4_hitting_through_the_game_sends_the_blot_to_the_bar():
    """RULES G4: landing on a single opposing checker hits it; the other side then sees it on its bar."""
    position = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5, 3: -1, 12: -5, 19: -5, 17: -3, 1: -1})
    game = Game.from_position(PLAIN, position, on_roll=A, dice=(5, 3))
    game.play(A, "8/3* 6/3")
    assert game.board_for(B).player[24] == 1
    assert game.board_for(A).at(3) == 2
    assert game.position == game.board_for(B)  # B is on roll now and sees the checker on his bar


def test_g5_doublets_give_four_moves():
    """RULES G5: 6-6 from the opening plays four sixes."""
    game = Game.from_position(PLAIN, Position.initial(), on_roll=B, dice=(6, 6))
    chosen = game.play(B, "24/18(2) 13/7(2)")
    assert len(chosen.moves) == 4
    assert game.board_for(B).at(18) == 2 and game.board_for(B).at(7) == 2


def test_g6_bar_first():
    """RULES G6: with a checker on the bar no other checker may move; the refusal changes nothing (BG05 position)."""
    case = MOVE_CASES["BG05"]
    game = Game.from_position(PLAIN, board_from_case(case["position"]), on_roll=B, dice=case["dice"])
    assert_rejected(game, lambda: game.play(B, "6/1 6/3"), IllegalPlayError)
    game.play(B, "bar/20 24/21")
    assert game.board_for(B).player[24] == 0


def test_g7_both_dice_must_be_played():
    """RULES G7: with 6-2 in BG01 the play 8/2 alone is illegal (both dice can be used); the error lists the legal
    play and the state is unchanged."""
    case = MOVE_CASES["BG01"]
    game = Game.from_position(PLAIN, board_from_case(case["position"]), on_roll=A, dice=case["dice"])
    error = assert_rejected(game, lambda: game.play(A, "8/2"), IllegalPlayError)
    assert error.legal == ["24/22 8/2"]
    game.play(A, "24/22 8/2")


def test_g8_bearing_off_ends_the_game_when_the_last_checker_is_off():
    """RULES G8, G11: bearing off the last checker ends the game at once; the loser cannot act any more."""
    position = Position.from_points({2: 1, 1: 1, 20: -3}, off=(13, 12))
    game = Game.from_position(PLAIN, position, on_roll=A, dice=(6, 5), match_length=3)
    game.play(A, "2/off 1/off")
    assert game.phase == Phase.OVER and game.result == GameResult(A, 1, "single", "play", 1, 1)
    assert game.legal_actions(B) == set()


def test_g9_no_legal_play_is_an_empty_play_that_passes_the_turn():
    """RULES G9: closed out on the bar, the player on roll has one legal play, the empty one; ``play(side, "")``
    and an empty Play pass the turn; "" is refused when a move is possible."""
    closed = Position.from_points({19: -2, 20: -2, 21: -2, 22: -2, 23: -2, 24: -2, 6: 5, 8: 4}, bar=(1, 0))
    game = Game.from_position(PLAIN, closed, on_roll=A, dice=(6, 3))
    plays = game.legal_plays()
    assert len(plays) == 1 and plays[0].moves == ()
    for empty in ("", Play((), closed)):
        trial = copy_game(game)
        trial.play(A, empty)
        assert (trial.phase, trial.on_roll, trial.board_for(A)) == (Phase.ROLL, B, closed)
        assert trial.history[-1] == {"action": "play", "side": A, "moves": []}
    normal = opened()
    assert_rejected(normal, lambda: normal.play(A, ""), IllegalPlayError)
    assert_rejected(normal, lambda: normal.play(A, Play((), Position.initial())), IllegalPlayError)


def test_g10_a_play_is_final_and_illegal_input_is_refused_without_change():
    """RULES G10: after a play the mover cannot play again; illegal or invalid plays raise typed errors and change
    nothing; a Play from another position is refused."""
    game = opened(dice=(3, 1))
    assert_rejected(game, lambda: game.play(A, "24/18"), IllegalPlayError)
    assert_rejected(game, lambda: game.play(A, "24:21"), InvalidPlayError)
    assert_rejected(game, lambda: game.play(A, 42), InvalidPlayError)
    other = legal_plays(Position.initial(), (6, 5))[0]
    assert_rejected(game, lambda: game.play(A, other), IllegalPlayError)
    chosen = game.play(A, "8/5 6/5")
    assert chosen.position.at(5) == 2
    assert_rejected(game, lambda: game.play(A, "8/5 6/5"), WrongTurnError)


def test_play_accepts_a_play_object_with_moves_in_any_order():
    """RULES G10: a legal Play object is accepted and recorded with its own moves."""
    game = opened(dice=(3, 1))
    play = next(p for p in game.legal_plays() if p.position.at(5) == 2)
    game.play(A, play)
    assert game.history[-1]["moves"] == [[m.source, m.target, m.die, m.hit] for m in play.moves]


# -- G11, D6: results ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "loser_off, in_home, kind, multiplier",
    [(3, False, "single", 1), (0, False, "gammon", 2), (0, True, "backgammon", 3)],
)
def test_g11_result_kinds_and_d6_points(loser_off, in_home, kind, multiplier):
    """RULES G11, D6: single/gammon/backgammon score cube × 1/2/3."""
    game = Game.from_position(MONEY, Position.initial(), on_roll=A, cube_value=4, cube_owner=A)
    won = finish_by_bearing_off(game, final_board(loser_off, in_home), B)
    assert (won.result.kind, won.result.multiplier, won.result.points) == (kind, multiplier, 4 * multiplier)
    assert result_level(won.board_for(A).player) == multiplier


def test_g11_result_level_bar_counts_for_backgammon():
    """RULES G11: a loser's checker on the bar makes a backgammon when he has borne off none."""
    loser = [0] * 25
    loser[0], loser[24] = 14, 1
    assert result_level(loser) == 3
    loser[24], loser[17] = 0, 1
    assert result_level(loser) == 2
    loser[0] = 13  # one off
    assert result_level(loser) == 1


def test_m6_point_game_count_weights():
    """RULES M6 (000 §21): 1 per checker in the loser's home board, 2 in his outer board, 3 in the winner's outer
    board, 4 in the winner's home board or on the bar."""
    for index, weight in ((0, 1), (5, 1), (6, 2), (11, 2), (12, 3), (17, 3), (18, 4), (23, 4), (24, 4)):
        board = [0] * 25
        board[index] = 2
        assert point_game_count(board) == 2 * weight


def test_m6_point_game_replaces_the_multiplier():
    """RULES M6 with D6: in the Point Game the winner scores the count × cube; kind still names the board result."""
    rules = RuleSet.preset("money", point_game=True, jacoby=False, automatic_doubles=0)
    game = Game.from_position(rules, Position.initial(), on_roll=A, cube_value=2, cube_owner=B)
    won = finish_by_bearing_off(game, final_board(0, True), A)
    assert won.result.kind == "backgammon"
    assert won.result.multiplier == point_game_count(won.board_for(B).player) == 4 + 14 * 1
    assert won.result.points == 2 * won.result.multiplier
    with pytest.raises(RuleSetError, match="Point Game"):
        Game(rules, match_length=7)


# -- G12: resignations -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("during", [Phase.ROLL, Phase.PLAY])
def test_g12_resignation_refused_returns_to_where_the_game_was(during):
    """RULES G12: a refused resignation binds nobody: the game continues in the same phase with the same dice."""
    game = Game.from_position(MONEY, Position.initial(), on_roll=A, dice=(3, 1) if during == Phase.PLAY else None)
    before = game.to_json()
    game.resign(B, 2)
    assert (game.phase, game.turn, game.resignation) == (Phase.RESIGNATION_OFFERED, A, (B, 2))
    assert game.legal_actions(A) == {"accept_resignation", "reject_resignation", "forfeit"}
    assert game.legal_actions(B) == {"forfeit"}
    assert decode_match_id(encode_match_id(game.match_state())).resignation == 2
    assert_rejected(game, lambda: game.accept_resignation(B), WrongTurnError)
    assert_rejected(game, lambda: game.roll(A, (3, 1)), WrongPhaseError)
    game.reject_resignation(A)
    after = game.to_json()
    assert after["history"][-2:] == [
        {"action": "resign", "side": B, "level": 2},
        {"action": "reject_resignation", "side": A},
    ]
    assert {k: v for k, v in after.items() if k != "history"} == {k: v for k, v in before.items() if k != "history"}


def test_g12_a_refused_resignation_is_not_offered_again_in_the_same_turn():
    """RULES G12, as GNU Backgammon ("has already declined your offer"): once the opponent refused, the same or a
    lower resignation is refused for the rest of that turn, unchanged; a higher one may be offered; after the turn
    passes, any may be offered again."""
    game = Game.from_position(MONEY, Position.initial(), on_roll=A)
    game.resign(A, 2)
    game.reject_resignation(B)
    for level in (2, 1):
        assert_rejected(game, lambda lv=level: game.resign(A, lv), GameError)
    with pytest.raises(GameError, match="already declined.*G12"):
        game.resign(A, 1)
    game.roll(A, (3, 1))
    assert_rejected(game, lambda: game.resign(A, 2), GameError)
    game.resign(A, 3)
    game.reject_resignation(B)
    play_first_legal(game)
    game.roll(B, (5, 2))
    play_first_legal(game)
    game.resign(A, 2)  # a new turn: the offer may be made again
    assert game.resignation == (A, 2)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_g12_accepted_resignation_scores_level_times_cube(level):
    """RULES G12, D6: an accepted resignation of level 1/2/3 scores level × cube (no Jacoby here)."""
    game = Game.from_position(MONEY, Position.initial(), on_roll=B, cube_value=2, cube_owner=B)
    game.resign(B, level)
    result = game.accept_resignation(A)
    assert result == GameResult(
        A, 2 * level, {1: "single", 2: "gammon", 3: "backgammon"}[level], "resignation", 2, level
    )
    state = decode_match_id(encode_match_id(game.match_state()))
    assert (state.game_state, state.resignation) == (GAME_RESIGNED, level)


def test_g12_resignation_levels_and_phases_are_checked():
    """RULES G12: the level is 1–3; no resignation before the opening roll or while a double awaits an answer."""
    game = Game(MONEY)
    assert_rejected(game, lambda: game.resign(A, 1), WrongPhaseError)
    game.opening_roll(3, 1)
    for bad in (0, 4, "2", True):
        assert_rejected(game, lambda b=bad: game.resign(A, b), GameError)
    play_first_legal(game)
    game.double(B)
    assert_rejected(game, lambda: game.resign(A, 1), WrongPhaseError)


def test_max_resignation_follows_g11():
    """RULES G11 (BG15): once a checker is off only a single can be lost; in a race with everything out of the
    opponent's home board a backgammon is impossible; with contact it is still possible."""
    game = Game(PLAIN)
    assert game.max_resignation(A) == 3
    race = Position.from_points({5: 5, 4: 5, 3: 5, 20: -5, 19: -5, 18: -5})
    game = Game.from_position(PLAIN, race, on_roll=A)
    assert game.max_resignation(B) == 2
    off = Position.from_points({5: 5, 4: 5, 3: 5, 20: -5, 19: -5, 2: -4})
    assert Game.from_position(PLAIN, off, on_roll=A).max_resignation(B) == 1


# -- forfeit (RULES A2/M5 with G11) ------------------------------------------------------------------------------------
def test_forfeit_is_valued_per_g11_at_the_current_cube():
    """RULES M5/A2 with G11, D4, forfeit_valuation='board' (a club's choice): a forfeit loses the game as the board
    stands at the current cube: from the start a backgammon (checkers in the winner's home board); a forfeiter with one off loses a single; Jacoby counts it 1."""
    board = replace(MONEY, forfeit_valuation="board")
    game = Game.from_position(board, Position.initial(), on_roll=A, cube_value=2, cube_owner=B)
    result = game.forfeit(B)
    assert result == GameResult(A, 6, "backgammon", "forfeit", 2, 3)
    assert_rejected(game, lambda: game.forfeit(A), WrongPhaseError)
    position = Position.from_points({5: 5, 4: 5, 3: 5, 20: -5, 19: -5, 2: -4})
    assert Game.from_position(board, position, on_roll=A).forfeit(B).kind == "single"
    jacoby = Game(RuleSet.preset("money", forfeit_valuation="board"))
    assert jacoby.forfeit(A).points == 1
    waiting = opened()
    waiting.play(A, waiting.legal_plays()[0])
    waiting.double(B)
    assert waiting.forfeit(A).winner == B  # the side to answer a double may forfeit (time limit) too


def test_forfeit_as_a_single_game_when_the_club_says_so():
    """RULES A2/M5 option forfeit_valuation='single' (and the older forfeit_scores_board=False it replaces): a
    forfeit counts single at the current cube (Galaxy style)."""
    for rules in (
        RuleSet.preset("tournament", forfeit_valuation="single"),
        RuleSet.preset("tournament", forfeit_scores_board=False),
    ):
        assert rules.forfeit_valuation == "single" and not rules.forfeit_scores_board
        game = Game.from_position(rules, Position.initial(), on_roll=A, cube_value=2, cube_owner=B)
        assert game.forfeit(B) == GameResult(A, 2, "single", "forfeit", 2, 1)


# a race: B has borne off none, no checker in A's home board or on the bar, but a backgammon is no longer possible
# (no contact) and a gammon is: the board says gammon, the worst still possible is a gammon too; with contact and
# B's checker in A's outer board the board says gammon while a backgammon is still possible.
CONTACT = {6: 5, 5: 5, 4: 3, 24: 2, 10: -15}  # seen by A: B's 15 checkers on A's 10-point, A's back checkers behind


@pytest.mark.parametrize(
    ("valuation", "level"),
    [("board", "gammon"), ("single", "single"), ("worst", "backgammon")],
)
def test_forfeit_valuation_three_readings(valuation, level):
    """RULES A2/M5 (a club's choice, rules.py ``forfeit_valuation``): B forfeits with none of his checkers off and
    contact left — the board as it stands is a gammon (G11), 'single' a single game, 'worst' the worst result still
    possible for him: a backgammon (Game.max_resignation, BG15)."""
    rules = RuleSet.preset("tournament", forfeit_valuation=valuation)
    game = Game.from_position(rules, Position.from_points(CONTACT), on_roll=A)
    assert game.max_resignation(B) == 3
    result = game.forfeit(B)
    assert (result.winner, result.kind, result.points) == (A, level, {"single": 1, "gammon": 2, "backgammon": 3}[level])


def test_forfeit_valuation_reads_old_stored_rule_sets():
    """Stored rule sets with the older ``forfeit_scores_board`` boolean still load (True → 'board', False →
    'single'); a new set stores ``forfeit_valuation`` only; a contradiction or a bad value is refused."""
    old = RuleSet.preset("tournament").to_json()
    del old["forfeit_valuation"]
    assert RuleSet.from_json({**old, "forfeit_scores_board": True}).forfeit_valuation == "board"
    assert RuleSet.from_json({**old, "forfeit_scores_board": False}).forfeit_valuation == "single"
    assert "forfeit_scores_board" not in RuleSet.preset("money").to_json()
    with pytest.raises(RuleSetError):
        RuleSet.from_json({**old, "forfeit_scores_board": False, "forfeit_valuation": "board"})
    with pytest.raises(RuleSetError):
        RuleSet.preset("tournament", forfeit_valuation="half")
    assert all(RuleSet.preset(name).forfeit_valuation == "single" for name in ("tournament", "money"))
    assert all(RuleSet.preset(name).forfeit_valuation == "board" for name in ("classic-1931", "chouette-atlanta"))


# -- D1–D5 in play -------------------------------------------------------------------------------------------------------
def test_d1_double_only_on_own_turn_before_rolling_and_only_by_the_owner():
    """RULES D1: the first double by either side; only before rolling; only on one's own turn; then only the owner."""
    game = opened(MONEY)
    assert_rejected(game, lambda: game.double(A), WrongPhaseError)  # A has rolled (the opening roll)
    assert_rejected(game, lambda: game.double(B), WrongTurnError)
    play_first_legal(game)
    assert "double" in game.legal_actions(B)
    assert_rejected(game, lambda: game.double(A), WrongTurnError)
    game.double(B)
    assert (game.phase, game.turn, game.on_roll, game.offered_value) == (Phase.CUBE_OFFERED, A, B, 2)
    state = decode_match_id(encode_match_id(game.match_state()))
    assert (state.double_offered, state.turn, state.on_roll, state.cube) == (True, A, B, 1)
    game.take(A)
    assert (game.phase, game.turn, game.cube_value, game.cube_owner) == (Phase.ROLL, B, 2, A)
    assert_rejected(game, lambda: game.double(B), CubeError)
    assert game.legal_actions(B) == {"roll", "resign", "forfeit"}
    advance_to(game, A)
    game.double(A)
    game.take(B)
    assert (game.cube_value, game.cube_owner) == (4, B)


def test_d2_drop_loses_the_value_before_the_double():
    """RULES D2: a drop ends the game and the dropper loses the value before the double."""
    game = Game.from_position(MONEY, Position.initial(), on_roll=A, cube_value=4, cube_owner=A)
    game.double(A)
    result = game.drop(B)
    assert result == GameResult(A, 4, "single", "drop", 4, 1)
    assert decode_match_id(encode_match_id(game.match_state())).game_state == GAME_DROP
    assert (game.offered_value, game.cube_value) == (None, 4)


def test_d3_beavers_and_raccoons_need_the_rule_set():
    """RULES D3: without beavers a beaver is a CubeError; without raccoons a raccoon is; a raccoon answers only a
    beaver, and only the right side may answer."""
    game = Game.from_position(PLAIN, Position.initial(), on_roll=A, match_length=0)
    game.double(A)
    assert_rejected(game, lambda: game.beaver(B), CubeError)
    assert_rejected(game, lambda: game.raccoon(A), WrongTurnError)
    beavers = Game.from_position(RuleSet.preset("money"), Position.initial(), on_roll=A)
    beavers.double(A)
    assert_rejected(beavers, lambda: beavers.raccoon(B), CubeError)
    beavers.beaver(B)
    assert (beavers.phase, beavers.turn, beavers.cube_value, beavers.cube_owner) == (Phase.BEAVER_OFFERED, A, 2, B)
    assert_rejected(beavers, lambda: beavers.raccoon(A), CubeError)  # the money preset has no raccoons (5.4)
    assert_rejected(beavers, lambda: beavers.take(B), WrongTurnError)
    beavers.take(A)
    assert (beavers.phase, beavers.turn, beavers.cube_value, beavers.cube_owner) == (Phase.ROLL, A, 4, B)


def test_d4_jacoby_gammon_counts_single_until_a_double_is_taken():
    """RULES D4: with Jacoby in money play a gammon with the cube never turned counts 1 × cube; a beaver turns it."""
    rules = RuleSet.preset("money", automatic_doubles=0)
    game = Game.from_position(rules, Position.initial(), on_roll=A)
    won = finish_by_bearing_off(copy_game(game), final_board(0, True), A)
    assert (won.result.kind, won.result.multiplier, won.result.points) == ("backgammon", 1, 1)
    game.double(A)
    game.beaver(B)
    game.take(A)
    won = finish_by_bearing_off(game, final_board(0, False), A)
    assert (won.result.multiplier, won.result.points) == (2, 8)


def test_d5_cube_cap():
    """RULES D5: with a cap of 4 the cube goes 1 → 2 → 4 and no further; a beaver past the cap is refused."""
    rules = RuleSet.preset("money", cube_cap=4, automatic_doubles=0)
    game = Game.from_position(rules, Position.initial(), on_roll=A)
    game.double(A)
    game.take(B)
    advance_to(game, B)
    game.double(B)
    assert_rejected(game, lambda: game.beaver(A), CubeError)
    game.take(A)
    advance_to(game, A)
    assert "double" not in game.legal_actions(A)
    error = assert_rejected(game, lambda: game.double(A), CubeError)
    assert "limited to 4" in str(error)


def test_m3_crawford_game_has_no_cube():
    """RULES M3: in the Crawford game neither side may double; a Crawford game needs a match with the rule and a side
    at N−1; its cube is 1, centred."""
    game = Game(PLAIN, match_length=5, score=(4, 2), crawford_game=True)
    game.opening_roll(6, 1)
    play_first_legal(game)
    error = assert_rejected(game, lambda: game.double(B), CubeError)
    assert "Crawford" in str(error)
    assert decode_match_id(encode_match_id(game.match_state())).crawford
    with pytest.raises(RuleSetError):
        Game(PLAIN, crawford_game=True)
    with pytest.raises(RuleSetError):
        Game(RuleSet.preset("tournament", crawford=False), match_length=5, score=(4, 2), crawford_game=True)
    with pytest.raises(GameError):
        Game(PLAIN, match_length=5, score=(3, 2), crawford_game=True)
    with pytest.raises(GameError):
        Game.from_position(
            PLAIN, Position.initial(), on_roll=A, cube_value=2, match_length=5, score=(4, 0), crawford_game=True
        )


def test_m4_dead_cube_in_a_game():
    """RULES M4: at 3-3 in a 5-point match with A owning 2 the cube decides the match: A may not redouble."""
    game = Game.from_position(
        PLAIN, Position.initial(), on_roll=A, cube_value=2, cube_owner=A, match_length=5, score=(3, 3)
    )
    assert_rejected(game, lambda: game.double(A), CubeError)
    live = Game.from_position(PLAIN, Position.initial(), on_roll=A, cube_value=1, match_length=5, score=(3, 3))
    live.double(A)


def test_constructor_and_setup_checks():
    """Bad construction raises typed errors: not a RuleSet, a finished score (RULES M1), a bad side, a finished
    position (G11), a cube over the cap (D5)."""
    with pytest.raises(RuleSetError):
        Game({"name": "money"})
    with pytest.raises(GameError):
        Game(PLAIN, match_length=5, score=(5, 0))
    with pytest.raises(GameError):
        Game(PLAIN, score=(-1, 0))
    with pytest.raises(GameError):
        Game.from_position(PLAIN, Position.initial(), on_roll=2)
    with pytest.raises(GameError):
        Game.from_position(PLAIN, Position.from_points({20: -15}), on_roll=A)
    with pytest.raises(GameError):
        Game.from_position(RuleSet.preset("money", cube_cap=2), Position.initial(), on_roll=A, cube_value=4)
    with pytest.raises(InvalidDiceError):
        Game.from_position(PLAIN, Position.initial(), on_roll=A, dice=(0, 1))
    with pytest.raises(GameError):
        Game(PLAIN).board_for(3)


# -- every refusal changes nothing; legal_actions is exactly what succeeds -----------------------------------------------
def _states() -> dict[str, Game]:
    rules = RuleSet.preset("money", raccoons=True, automatic_doubles=0)
    states = {"opening": Game(rules)}
    game = Game(rules)
    game.opening_roll(6, 1)
    states["play"] = copy_game(game)
    play_first_legal(game)
    states["roll"] = copy_game(game)
    game.double(B)
    states["cube_offered"] = copy_game(game)
    game.beaver(A)
    states["beaver_offered"] = copy_game(game)
    game.raccoon(B)
    states["raccoon_offered"] = copy_game(game)
    game.take(A)
    states["roll_after_take"] = copy_game(game)
    game.resign(A, 2)
    states["resignation_offered"] = copy_game(game)
    game.accept_resignation(B)
    states["over"] = game
    return states


def _call(game: Game, action: str, side: int):
    if action == "opening_roll":
        return lambda: game.opening_roll(5, 2)
    if action == "roll":
        return lambda: game.roll(side, (3, 1))
    if action == "play":
        plays = game.legal_plays() or legal_plays(game.position, (3, 1))
        return lambda: game.play(side, plays[0])
    if action == "resign":
        return lambda: game.resign(side, 1)
    return lambda: getattr(game, action)(side)


@pytest.mark.parametrize(
    "name",
    [
        "opening",
        "play",
        "roll",
        "cube_offered",
        "beaver_offered",
        "raccoon_offered",
        "roll_after_take",
        "resignation_offered",
        "over",
    ],
)
def test_wrong_side_or_phase_changes_nothing_in_every_phase(name):
    """For every phase, side and action: an action not in legal_actions raises a typed GameError (WrongTurnError,
    WrongPhaseError or CubeError) and to_json() is unchanged; every listed action succeeds (RULES G10, D1–D3, G12)."""
    game = _states()[name]
    for side in (A, B):
        allowed = game.legal_actions(side)
        for action in ACTIONS:
            if action in allowed:
                trial = copy_game(game)
                _call(trial, action, side)()
                assert trial != game
            else:
                error = assert_rejected(game, _call(game, action, side), GameError)
                assert isinstance(error, WrongTurnError | WrongPhaseError | CubeError), (action, side, error)


# -- JSON, history replay, Match ID --------------------------------------------------------------------------------------
def test_to_json_is_json_and_round_trips_in_every_phase():
    """to_json() is plain JSON, deterministic, and from_json() rebuilds an equal game in every phase; so does
    replaying the history (RULES G10: the action log is the record)."""
    for name, game in _states().items():
        data = game.to_json()
        assert json.loads(json.dumps(data)) == data
        rebuilt = Game.from_json(data)
        assert rebuilt == game and rebuilt.to_json() == data, name
        assert json.dumps(data) == json.dumps(copy_game(game).to_json())
        assert Game.replay_history(game.rules, game.history) == game, name
        assert rebuilt.legal_actions(A) == game.legal_actions(A) and rebuilt.legal_plays() == game.legal_plays()


def test_replay_of_a_set_up_game_and_apply():
    """A game set up from a position records the set-up first; replay_history rebuilds it; apply() refuses unknown
    or malformed actions with GameError and illegal recorded moves with IllegalPlayError."""
    position = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5, 3: -1, 12: -5, 19: -5, 17: -3, 1: -1})
    game = Game.from_position(MONEY, position, on_roll=B, dice=(5, 3), cube_value=2, cube_owner=A)
    play_first_legal(game)
    game.double(A)
    game.take(B)
    assert game.history[0]["action"] == "setup"
    assert Game.replay_history(MONEY, game.history) == game
    fresh = Game(MONEY)
    with pytest.raises(GameError):
        fresh.apply({"action": "shuffle"})
    with pytest.raises(GameError):
        fresh.apply({"action": "roll"})
    trial = Game.from_position(MONEY, Position.initial(), on_roll=A, dice=(3, 1))
    with pytest.raises(IllegalPlayError):
        trial.apply({"action": "play", "side": A, "moves": [[24, 18, 6, False]]})
    with pytest.raises(IllegalPlayError):
        trial.apply({"action": "play", "side": A, "moves": [[10, 7, 3, False]]})
    with pytest.raises(WrongPhaseError):
        game.apply(game.history[0])


def test_from_json_rejects_malformed_or_inconsistent_records():
    """from_json raises GameError (or a more specific BackgammonError) for missing keys or impossible states."""
    data = opened().to_json()
    for broken in (
        {k: v for k, v in data.items() if k != "cube"},
        {**data, "phase": "dancing"},
        {**data, "dice": None},
        {**data, "phase": "over"},
        {**data, "board": "nonsense"},
        {**data, "on_roll": 7},
    ):
        with pytest.raises(BackgammonError):
            Game.from_json(broken)


def test_match_state_after_a_game_won_by_play_matches_gnubg_convention():
    """After the last checker is off: gnubg game state 'over', the loser shown on roll, dice cleared, score added."""
    position = Position.from_points({1: 1, 20: -3}, off=(14, 12))
    game = Game.from_position(PLAIN, position, on_roll=A, dice=(6, 5), match_length=7, score=(2, 3))
    game.play(A, "1/off")
    state = game.match_state()
    assert (state.game_state, state.on_roll, state.dice, state.score) == (GAME_OVER, B, (0, 0), (3, 3))
    assert game.score_after() == (3, 3) and game.score == (2, 3)


# -- random games (hypothesis) ---------------------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(["money", "tournament", "classic-1931"]))
def test_random_games_keep_the_invariants(seed, preset):
    """Random games with random dice, plays and cube actions, to the end: 15 checkers a side always and the borne-off
    counts never fall (RULES G4–G8); JSON round-trips at every step; the turn-taker always has an action; the result's
    points = cube × multiplier (RULES D6, G11); replaying the history rebuilds the game."""
    rng = random.Random(seed)
    rules = RuleSet.preset(preset, raccoons=preset == "money") if preset == "money" else RuleSet.preset(preset)
    game = Game(rules, match_length=5 if preset == "tournament" else 0)
    off = [0, 0]
    for _ in range(2000):
        if game.is_over:
            break
        random_action(game, rng, cube_rate=0.05, resign_rate=0.003)
        for side in (A, B):
            board = game.board_for(side)
            assert sum(board.player) + board.off_player == 15
            assert board.off_player >= off[side]
            off[side] = board.off_player
        assert Game.from_json(game.to_json()) == game
        if not game.is_over and game.turn is not None:
            assert game.legal_actions(game.turn) - {"resign", "forfeit"}
    assert game.is_over
    result = game.result
    assert result.points == result.cube * result.multiplier
    assert result.multiplier in (1, 2, 3)
    assert Game.replay_history(rules, game.history, game.match_length) == game
    assert game.legal_actions(A) == game.legal_actions(B) == set()


def test_g10_ambiguous_notation_is_refused_unless_the_route_policy_says_otherwise():
    """RULES G4, G10 (positions.json BG13): "24/13" with 6-5 could hit on the way or not; by default the game refuses
    it (AmbiguousPlayError, nothing changed); with ``route_policy="no_hit"`` it is gnubg's non-hitting play."""
    case = MOVE_CASES["BG13"]
    game = Game.from_position(PLAIN, board_from_case(case["position"]), on_roll=A, dice=case["dice"])
    error = assert_rejected(game, lambda: game.play(A, "24/13"), AmbiguousPlayError)
    assert set(error.candidates) == set(case["expected"]["legal_plays"])
    game.play(A, "24/13", route_policy="no_hit")
    assert game.board_for(A).at(13) == 1 and game.board_for(B).player[24] == 0


TEST_FILES = ["test_rules_sets.py", "test_cube.py", "test_game.py", "test_match.py", "test_scoring_cases.py"]


def test_every_g_d_m_rule_is_named_by_a_test():
    """Every G, D and M rule of docs/rules.md is named (e.g. "G3") in the name or docstring of at least one test of the
    game layer's test files."""
    import ast
    import re
    from pathlib import Path

    from tests.casekit import RULES

    here = Path(__file__).resolve().parent
    rules_text = RULES.read_text(encoding="utf-8")
    rules = set(re.findall(r"^- \*\*([GDM]\d+) ", rules_text, flags=re.MULTILINE))
    assert {"G1", "G12", "D6", "M6"} <= rules
    named = ""
    for name in TEST_FILES:
        tree = ast.parse((here / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                named += f" {node.name.upper().replace('_', ' ')} {ast.get_docstring(node) or ''} "
    missing = {rule for rule in rules if not re.search(rf"\b{rule}\b", named)}
    assert not missing, f"rules named by no test: {sorted(missing)}"
