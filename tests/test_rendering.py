"""Board pictures: tests that decode the PNG and read its pixels.

Checker colours at the layout's checker centres, every one of the 30 checkers found again (points, bar, trays),
stack counts, the cube's place and value (RULES D1, M3), the dice pips, the last play's ghost, arrow and hit marker
(RULES G4), text in any script, themes, determinism, and the sample scenarios of the issue.
"""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from backgammon.moves import Move, legal_plays
from backgammon.position import Position
from rendering import (
    STACK,
    THEMES,
    BoardView,
    ChouetteMember,
    ChouettePanel,
    LayoutError,
    UnknownThemeError,
    ViewError,
    board_layout,
    render_board,
    render_image,
    static_board,
    theme_from_name,
)
from rendering.gallery import main as gallery_main
from rendering.gallery import sample_views
from rendering.lastplay import chain_moves, last_play_paths
from rendering.sprites import cube_label
from rendering.text import EMOJI, FALLBACK, REGULAR, draw_text, font, layout_text
from rendering.view import OPPONENT, VIEWER
from rendering.words import caption_text, match_text, status_text
from tests.randompos import random_position

ROOT = Path(__file__).resolve().parents[1]
THEME = theme_from_name(None)
WIDTH = 900


def decode(data: bytes) -> Image.Image:
    """The PNG bytes as an RGB image (what a Discord client shows)."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def sprite_pixel(centre: tuple[float, float], size: int, offset=(0.0, 0.0)) -> tuple[int, int]:
    """The pixel at ``offset`` (fractions of ``size``) from the middle of a sprite ``size`` px pasted at ``centre``."""
    x0 = round(centre[0] - size / 2)
    y0 = round(centre[1] - size / 2)
    return x0 + int(size / 2 + offset[0] * size), y0 + int(size / 2 + offset[1] * size)


def fill_of(view: BoardView, side: str, theme=THEME):
    return theme.checkers[view.viewer_colour if side == VIEWER else view.opponent_colour].fill


def side_counts(position: Position, side: str) -> tuple[int, ...]:
    return position.player if side == VIEWER else position.opponent


def read_board(image: Image.Image, view: BoardView, layout, theme=THEME) -> dict[str, list[int]]:
    """Count each side's checkers from the pixels: consecutive checker-coloured slots on each of its points 1–24
    and its bar (index 24), and checker-coloured slabs in its tray (index 25)."""
    pixels = image.load()
    found: dict[str, list[int]] = {}
    for side in (VIEWER, OPPONENT):
        fill = fill_of(view, side, theme)
        counts = []
        for point in range(1, 26):
            count = 0
            while (
                count < STACK
                and pixels[sprite_pixel(layout.checker_centre(side, point, count), layout.checker)] == fill
            ):
                count += 1
            counts.append(count)
        off = 0
        while off < 15:
            x, y = layout.tray_slot(side, off)
            if pixels[int(x), int(y)] != fill:
                break
            off += 1
        counts.append(off)
        found[side] = counts
    return found


def positions_without_tall_stacks(seed: int, count: int) -> list[Position]:
    """Random valid positions (contact, bar, bear-off, race) with at most 5 checkers on any point or bar."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = random_position(rng)
        if max(position.player) <= STACK and max(position.opponent) <= STACK:
            found.append(position)
    return found


# -- checkers ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("home", ["right", "left"])
@pytest.mark.parametrize("viewer_colour", [0, 1])
def test_g1_checker_colour_at_computed_centres_of_the_opening(home, viewer_colour):
    """RULES G1: the opening, read back at the layout's centres: each side's colour on its 24, 13, 8 and 6 points,
    the point's own colour (no checker) on empty points, with the viewer's home board on either side."""
    view = BoardView(Position.initial(), viewer_colour=viewer_colour, dice=(3, 1), awaiting="to play 3-1")
    image = decode(render_board(view, width=WIDTH, home=home))
    layout = board_layout(WIDTH, home)
    pixels = image.load()
    fills = {fill_of(view, VIEWER), fill_of(view, OPPONENT)}
    for side in (VIEWER, OPPONENT):
        for point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
            for slot in range(count):
                assert pixels[sprite_pixel(layout.checker_centre(side, point, slot), layout.checker)] == fill_of(
                    view, side
                )
            if count < STACK:
                assert pixels[sprite_pixel(layout.checker_centre(side, point, count), layout.checker)] not in fills
    for point in (2, 3, 4, 5, 7, 9, 10, 11):  # empty in the opening: the point's colour shows at slot 0
        x, y = sprite_pixel(layout.point_slot(point, 0), layout.checker)
        assert pixels[x, y] == THEME.point_colours[point % 2 == 0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_all_30_checkers_accounted_for(seed):
    """Every checker of random positions (points, bar and borne off, RULES G11) is found again in the pixels:
    15 per side, each on the right point."""
    layout = board_layout(WIDTH)
    for index, position in enumerate(positions_without_tall_stacks(seed, 6)):
        view = BoardView(position, viewer_colour=index % 2, on_roll=OPPONENT if index % 3 else VIEWER, dice=(5, 2))
        found = read_board(decode(render_board(view)), view, layout)
        for side in (VIEWER, OPPONENT):
            counts = side_counts(position, side)
            off = position.off_player if side == VIEWER else position.off_opponent
            assert found[side][:25] == list(counts), (side, position.points_dict())
            assert found[side][25] == off
            assert sum(found[side]) == 15


def test_both_bars_and_full_trays_read_back():
    """Checkers on both bars (RULES G6) and fifteen borne off (RULES G11) are drawn where the layout says."""
    layout = board_layout(WIDTH)
    both_bars = Position.from_points({6: 5, 8: 3, 13: 3, 3: 2, 1: -2, 12: -5, 17: -3, 19: -3, 21: -1}, bar=(2, 1))
    finished = Position.from_points({24: -1})  # the viewer has all 15 off; the opponent 14
    for position in (both_bars, finished):
        view = BoardView(position, on_roll=None, awaiting="game over")
        found = read_board(decode(render_board(view)), view, layout)
        assert found[VIEWER][24] == position.player[24] and found[OPPONENT][24] == position.opponent[24]
        assert found[VIEWER][25] == position.off_player and found[OPPONENT][25] == position.off_opponent
    assert read_board(decode(render_board(BoardView(finished))), BoardView(finished), layout)[VIEWER][25] == 15


def _ink(image: Image.Image, box, colour) -> int:
    crop = image.crop(tuple(round(v) for v in box))
    data = crop.load()
    return sum(1 for y in range(crop.height) for x in range(crop.width) if data[x, y] == colour)


def test_tall_stack_shows_its_count_on_the_outermost_checker():
    """More than 5 checkers on a point: 5 drawn, the outermost carrying the count (6, 10, 11 here); a stack of exactly 5
    has no count. The label region differs for 10 and 11."""
    layout = board_layout(WIDTH)
    text = THEME.checkers[0].text
    half = layout.checker * 0.3

    def label_box(view):
        x, y = layout.checker_centre(VIEWER, 6, STACK - 1)
        return x - half, y - half, x + half, y + half

    eleven = BoardView(Position.from_points({6: 11, 5: 4, 24: -15}))
    ten = BoardView(Position.from_points({6: 10, 5: 5, 24: -15}))
    six = BoardView(Position.from_points({6: 6, 5: 9, 24: -15}))
    five = BoardView(Position.from_points({6: 5, 5: 10, 24: -15}))
    images = {name: decode(render_board(v)) for name, v in (("11", eleven), ("10", ten), ("6", six), ("5", five))}
    assert _ink(images["6"], label_box(six), text) > 10
    assert _ink(images["11"], label_box(eleven), text) > 10
    assert _ink(images["10"], label_box(ten), text) > 10
    assert _ink(images["5"], label_box(five), text) == 0
    assert (
        images["11"].crop(tuple(round(v) for v in label_box(eleven))).tobytes()
        != images["10"].crop(tuple(round(v) for v in label_box(ten))).tobytes()
    )
    found = read_board(images["11"], eleven, layout)
    assert found[VIEWER][5] == STACK and found[VIEWER][4] == 4  # 6-point shows 5 checkers, 5-point its 4


# -- cube (RULES D1, D2, M3) -------------------------------------------------------------------------------------------
def _cube_probe(layout, owner):
    """A pixel inside the cube's face but clear of its number (upper-left area)."""
    return sprite_pixel(layout.cube_centre(owner), layout.cube_size, (-0.33, -0.33))


def _components(image: Image.Image, box, colour) -> int:
    """Connected groups (4-neighbour) of pixels of exactly ``colour`` inside ``box``: one per digit."""
    crop = image.crop(box)
    w, h = crop.size
    data = crop.load()
    seen = set()
    groups = 0
    for y in range(h):
        for x in range(w):
            if data[x, y] != colour or (x, y) in seen:
                continue
            groups += 1
            stack = [(x, y)]
            seen.add((x, y))
            while stack:
                cx, cy = stack.pop()
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if 0 <= nx < w and 0 <= ny < h and (nx, ny) not in seen and data[nx, ny] == colour:
                        seen.add((nx, ny))
                        stack.append((nx, ny))
    return groups


def _cube_box(layout, owner, inner: float = 0.5):
    """The cube's square (``inner`` = 0.5) or the part of its face inside the border (``inner`` < 0.5)."""
    x, y = layout.cube_centre(owner)
    half = layout.cube_size * inner
    return (round(x - half), round(y - half), round(x + half), round(y + half))


@pytest.mark.parametrize(
    ("value", "owner", "label"),
    [(1, None, "64"), (2, VIEWER, "2"), (64, OPPONENT, "64"), (16, VIEWER, "16"), (4, None, "4")],
)
def test_d1_cube_place_and_value(value, owner, label):
    """RULES D1/D2: the cube sits mid-height when centred (showing 64 at value 1), at the owner's edge when owned,
    and nowhere else; its face shows the value: as many digits as the value has, and the same pixels as the
    cube drawn alone with that number."""
    layout = board_layout(WIDTH)
    view = BoardView(Position.initial(), cube_value=value, cube_owner=owner)
    image = decode(render_board(view))
    pixels = image.load()
    for place in (None, VIEWER, OPPONENT):
        assert (pixels[_cube_probe(layout, place)] == THEME.cube_fill) == (place == owner), place
    box = _cube_box(layout, owner)
    assert _components(image, _cube_box(layout, owner, 0.4), THEME.cube_text) == len(label)
    assert cube_label(value, owner is None) == label
    # the same cube on the bare static board gives the same pixels
    from rendering.sprites import cube_sprite, paste

    reference = static_board(THEME, layout).copy()
    paste(reference, cube_sprite(THEME, layout.cube_size, label), layout.cube_centre(owner))
    expected = decode(_png(reference)).crop(box)
    assert image.crop(box).tobytes() == expected.tobytes()


def _png(image: Image.Image) -> bytes:
    from rendering.board import _palette, encode_png

    return encode_png(image, _palette(THEME, board_layout(WIDTH)))


def test_cube_values_differ_on_the_picture():
    """Different cube values give different cube faces (2, 4, 8 … 64 are told apart)."""
    layout = board_layout(WIDTH)
    faces = set()
    for value in (2, 4, 8, 16, 32, 64):
        image = decode(render_board(BoardView(Position.initial(), cube_value=value, cube_owner=VIEWER)))
        faces.add(image.crop(_cube_box(layout, VIEWER)).tobytes())
    assert len(faces) == 6


def test_m3_no_cube_in_the_crawford_game():
    """RULES M3: in the Crawford game no cube is drawn, at any of its three places; the header says so."""
    layout = board_layout(WIDTH)
    view = BoardView(Position.initial(), crawford=True, match_length=7, score=(6, 4))
    pixels = decode(render_board(view)).load()
    for place in (None, VIEWER, OPPONENT):
        assert pixels[_cube_probe(layout, place)] != THEME.cube_fill
    assert "Crawford game" in match_text(view)
    assert "post-Crawford" in match_text(BoardView(Position.initial(), post_crawford=True, match_length=7))
    assert match_text(BoardView(Position.initial())) == "Money game"


def test_d1_offered_cube_drawn_on_the_takers_side():
    """RULES D1: a cube being offered is drawn at its new value on the taker's side — in the half of the board where
    the side that must answer throws (the doubler turns the cube and hands it over)."""
    layout = board_layout(WIDTH)
    view = BoardView(Position.initial(), on_roll=OPPONENT, awaiting="to take or drop", offered_cube=4)
    image = decode(render_board(view))
    centre = layout.action_centre(OPPONENT)  # the viewer doubled; the opponent must answer
    assert image.load()[sprite_pixel(centre, layout.cube_size, (-0.33, -0.33))] == THEME.cube_fill
    half = layout.cube_size * 0.4
    box = (round(centre[0] - half), round(centre[1] - half), round(centre[0] + half), round(centre[1] + half))
    assert _components(image, box, THEME.cube_text) == 1


# -- dice ------------------------------------------------------------------------------------------------------------
# Standard die faces on a 3×3 grid read row by row from the top ("o" = pip); the 2 and 3 run from top left.
FACES = {1: "....o....", 2: "o.......o", 3: "o...o...o", 4: "o.o...o.o", 5: "o.o.o.o.o", 6: "o.oo.oo.o"}
PIP_STEP = 0.27  # the grid spacing as a fraction of the die's size


@pytest.mark.parametrize(("dice", "side"), [((6, 4), VIEWER), ((5, 3), OPPONENT), ((1, 2), VIEWER), ((6, 6), OPPONENT)])
def test_dice_pips_read_back(dice, side):
    """The dice just rolled: pips (in the roller's checker-text colour) exactly where the face has them, the die's
    colour on the other spots of the 3×3 grid; the viewer's dice right of the bar, the opponent's left."""
    layout = board_layout(WIDTH)
    view = BoardView(Position.initial(), on_roll=side, dice=dice, awaiting=f"to play {dice[0]}-{dice[1]}")
    pixels = decode(render_board(view)).load()
    colours = THEME.checkers[view.viewer_colour if side == VIEWER else view.opponent_colour]
    centres = layout.dice_centres(side)
    assert (centres[0][0] > layout.bar_x) == (side == VIEWER)
    for die, centre in zip(dice, centres, strict=True):
        seen = ""
        for row in (-1, 0, 1):
            for column in (-1, 0, 1):
                pixel = pixels[sprite_pixel(centre, layout.die_size, (column * PIP_STEP, row * PIP_STEP))]
                assert pixel in (colours.text, colours.fill)
                seen += "o" if pixel == colours.text else "."
        assert seen == FACES[die], (die, seen)
    for centre in layout.dice_centres(VIEWER if side == OPPONENT else OPPONENT):  # no dice on the other side
        assert pixels[sprite_pixel(centre, layout.die_size)] == THEME.felt


# -- last play (RULES G4) --------------------------------------------------------------------------------------------
def _hit_play():
    """Bob (the opponent) plays 6-4 as 24/18* 13/9, hitting the viewer's blot on her 7-point."""
    before = Position.from_points({6: 5, 8: 2, 13: 4, 24: 2, 7: 1, 5: 1, 12: -4, 17: -3, 19: -3, 20: -2, 1: -2, 22: -1})
    plays = [p for p in legal_plays(before.swap(), (6, 4)) if p.notation() == "24/18* 13/9"]
    assert len(plays) == 1
    return plays[0]


def test_g4_last_play_marks_ghost_arrow_and_hit():
    """RULES G4: after Bob's 24/18* 13/9, a see-through ghost stands where each checker came from, arrows lead to
    where they went, the hitting checker carries a hit marker, and the hit checker is on the viewer's bar."""
    layout = board_layout(WIDTH)
    play = _hit_play()
    after = play.position.swap()
    marked = BoardView(after, on_roll=VIEWER, last_play=play.moves, last_mover=OPPONENT, last_dice=(6, 4))
    plain = BoardView(after, on_roll=VIEWER)
    image = decode(render_board(marked))
    bare = decode(render_board(plain))
    pixels, ground = image.load(), bare.load()
    fill = fill_of(marked, OPPONENT)
    alpha = THEME.ghost_alpha / 255
    for origin in (24, 13):  # Bob's points, his numbering; now empty / holding 3
        slot = after.opponent[origin - 1]
        spot = sprite_pixel(layout.checker_centre(OPPONENT, origin, slot), layout.checker)
        below = ground[spot]
        blend = tuple(round(b + (f - b) * alpha) for b, f in zip(below, fill, strict=True))
        assert max(abs(a - b) for a, b in zip(pixels[spot], blend, strict=True)) <= 8, (origin, pixels[spot], blend)
    # the arrow of 13/9 (a straight segment): its middle is the arrow colour
    start = layout.checker_centre(OPPONENT, 13, after.opponent[12])
    end = layout.checker_centre(OPPONENT, 9, after.opponent[8] - 1)
    middle = (round((start[0] + end[0]) / 2), round((start[1] + end[1]) / 2))
    assert pixels[middle] == THEME.arrow and ground[middle] != THEME.arrow
    # hit marker on the checker now on Bob's 18-point (the viewer's 7), clear of its white cross
    cx, cy = layout.checker_centre(OPPONENT, 18, 0)
    badge = (int(cx + layout.checker * 0.36), int(cy - layout.checker * 0.36 - layout.checker * 0.26 * 0.7))
    assert pixels[badge] == THEME.hit_marker and ground[badge] != THEME.hit_marker
    assert read_board(image, marked, layout)[VIEWER][24] == 1  # the hit blot is on the viewer's bar
    assert caption_text(marked) == "Opponent played 6-4: 24/18* 13/9"


def test_last_play_paths_chain_and_slots():
    """Moves of one checker are one path (13/7/5); ghosts of checkers leaving one point stack above those that
    stayed; an entering checker starts at the bar (25) and a borne-off one ends in the tray (0)."""
    assert [len(p) for p in chain_moves((Move(13, 7, 6), Move(7, 5, 2)))] == [2]
    assert [len(p) for p in chain_moves((Move(13, 7, 6), Move(8, 6, 2)))] == [1, 1]
    position = Position.from_points({6: 2, 8: 1, 24: -2})
    paths = last_play_paths(position, (Move(8, 6, 2), Move(8, 6, 2)), True)
    assert [(p.stops[0].point, p.stops[0].slot) for p in paths] == [(8, 1), (8, 2)]
    assert [(p.stops[-1].point, p.stops[-1].slot) for p in paths] == [(6, 1), (6, 0)]
    entering = Position.from_points({22: 1, 6: 5, 1: -2})
    path = last_play_paths(entering, (Move(25, 22, 3, False),), True)[0]
    assert path.stops[0].point == 25 and path.ghost
    bear = Position.from_points({1: 1, 24: -2})  # 14 off after 2/off
    path = last_play_paths(bear, (Move(2, 0, 2),), True)[0]
    assert path.stops[-1].point == 0 and path.stops[-1].slot == 13
    chained = last_play_paths(Position.from_points({5: 1, 24: -2}), (Move(13, 7, 6, True), Move(7, 5, 2)), True)[0]
    assert [s.point for s in chained.stops] == [13, 7, 5] and chained.stops[1].hit


def test_g9_caption_for_no_legal_move():
    """RULES G9: a roll that could not be played is written as such under the board."""
    view = BoardView(Position.initial(), last_mover=OPPONENT, last_dice=(6, 6), opponent_name="Bob")
    assert caption_text(view) == "Bob rolled 6-6 and could not move"


# -- text ------------------------------------------------------------------------------------------------------------
SCRIPTS = [
    "Zoë Ångström",
    "Łukasz Żółć",
    "Дмитрий",
    "Ελένη",
    "東京太郎",
    "김민준",
    "やまだ",
    "Ali 😀",
    "👨‍👩‍👧",
    "🇫🇷 Jean",
]


def test_text_picks_a_font_that_has_each_character():
    """Latin with accents, Cyrillic and Greek come from DejaVu Sans; CJK, Hangul and kana from the bundled
    fallback; an emoji ZWJ sequence or a flag becomes one colour emoji run; bidi overrides are dropped."""
    assert {run.font_path for run in layout_text("Zoë Дмитрий Ελένη", 20).runs} == {REGULAR}
    for text in ("東京太郎", "김민준", "やまだ"):
        assert [run.font_path for run in layout_text(text, 20).runs] == [FALLBACK]
    family = layout_text("👨‍👩‍👧", 20)
    assert [run.font_path for run in family.runs] == [EMOJI]
    flag = layout_text("🇫🇷", 20)
    assert len(flag.runs) == 1 and flag.runs[0].font_path == EMOJI
    assert layout_text("a\u202eb", 20).text == "ab"
    assert layout_text("Jose\u0301", 20).text == "José"


@pytest.mark.parametrize("text", SCRIPTS)
def test_names_in_any_script_leave_ink(text):
    """No name vanishes: every script (and emoji) draws visible pixels, and CJK is not DejaVu's .notdef box."""
    image = Image.new("L", (400, 60), 0)
    line = draw_text(ImageDraw.Draw(image), (5, 40), text, 24, 255)
    assert line.width > 10
    assert image.getbbox() is not None and image.getbbox()[2] - image.getbbox()[0] > 10


def test_cjk_is_not_drawn_as_missing_glyph_boxes():
    """A CJK character drawn through the fallback differs from what DejaVu alone would draw (its .notdef box)."""
    ours = Image.new("L", (60, 60), 0)
    draw_text(ImageDraw.Draw(ours), (5, 40), "東", 30, 255)
    notdef = Image.new("L", (60, 60), 0)
    ImageDraw.Draw(notdef).text((5, 40), "東", font=font(REGULAR, 30), fill=255, anchor="ls")
    assert ours.tobytes() != notdef.tobytes()


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40))
def test_any_text_lays_out_and_draws_without_error(text):
    """Whatever a member calls himself, laying it out and drawing it never raises."""
    image = Image.new("RGB", (300, 40))
    draw_text(ImageDraw.Draw(image), (2, 30), text, 18, (255, 255, 255), max_width=250)


def test_long_names_are_shortened_to_fit():
    """A name too long for its strip is cut with an ellipsis instead of running over the score."""
    line = draw_text(ImageDraw.Draw(Image.new("L", (10, 10))), (0, 0), "Bartholomew " * 8, 22, 255, max_width=200)
    assert line.width <= 200 and line.text.endswith("…")


# -- the whole picture ---------------------------------------------------------------------------------------------
def test_same_input_gives_the_same_bytes():
    """A pure function: the same view gives byte-identical PNGs, whatever was rendered in between."""
    play = _hit_play()
    view = BoardView(
        play.position.swap(),
        viewer_name="Zoë",
        opponent_name="東京",
        last_play=play.moves,
        last_mover=OPPONENT,
        dice=(6, 4),
        dice_side=OPPONENT,
        cube_value=4,
        cube_owner=VIEWER,
    )
    first = render_board(view)
    render_board(BoardView(Position.initial()), "classic")
    render_board(BoardView(Position.initial(), dice=(1, 1)), width=1000)
    assert render_board(view) == first
    assert render_board(view, "classic") != first


def test_same_bytes_in_a_fresh_process():
    """Determinism does not hang on caches or hash seeds: a new interpreter renders the same bytes."""
    view_code = (
        "from backgammon.position import Position; from rendering import BoardView, render_board; import sys; "
        "sys.stdout.buffer.write(render_board(BoardView(Position.from_points({6: 7, 8: 3, 13: 5, 1: -2, 24: 0,"
        " 12: -5, 17: -3, 19: -5}), viewer_name='Zoë 東京 😀', dice=(6, 1), cube_value=8, cube_owner='opponent')))"
    )
    from backgammon.position import Position as P

    here = render_board(
        BoardView(
            P.from_points({6: 7, 8: 3, 13: 5, 1: -2, 24: 0, 12: -5, 17: -3, 19: -5}),
            viewer_name="Zoë 東京 😀",
            dice=(6, 1),
            cube_value=8,
            cube_owner="opponent",
        )
    )
    there = subprocess.run(
        [sys.executable, "-c", view_code],
        cwd=ROOT,
        capture_output=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": "/usr/bin:/bin"},
    ).stdout
    assert there == here


def test_static_board_is_cached_and_never_drawn_on():
    """The static board is drawn once per (theme, width, home) and each render works on a copy."""
    layout = board_layout(WIDTH)
    static = static_board(THEME, layout)
    before = static.tobytes()
    render_board(BoardView(Position.initial(), dice=(6, 5), cube_owner=VIEWER, cube_value=2))
    assert static_board(THEME, layout) is static
    assert static.tobytes() == before


def test_gallery_scenarios_render_small_and_wide_enough(tmp_path):
    """The issue's scenarios — the opening, a finished bear-off with full trays, 10+ on a point, both bars, a
    64-cube owned, a Crawford game, names in several scripts with emoji, a chouette panel, other themes — render
    without error as PNGs at least 800 px wide and at most 100 KB."""
    assert gallery_main([str(tmp_path)]) == 0
    files = sorted(tmp_path.glob("*.png"))
    assert len(files) == len(sample_views()) >= 10
    for path in files:
        data = path.read_bytes()
        image = Image.open(io.BytesIO(data))
        assert image.width >= 800 and len(data) <= 100 * 1024, path.name


def test_chouette_panel_adds_rows_under_the_board():
    """RULES C3/C5: the chouette panel (Box, Captain, Team members with their cubes) is drawn under the board;
    the board itself is where it always is (below the header, which names the chouette)."""
    panel = ChouettePanel(
        "Carmen",
        ChouetteMember("Oleg", 2, "taken"),
        (ChouetteMember("Priya", 2, "offered"), ChouetteMember("山田"), ChouetteMember("Dmitri", 4, "dropped")),
    )
    layout = board_layout(WIDTH)
    with_panel = decode(render_board(BoardView(Position.initial(), chouette=panel)))
    without = decode(render_board(BoardView(Position.initial())))
    assert with_panel.height == layout.height(2) > without.height == layout.base_height
    below_header = (0, layout.header_top + layout.header_height, WIDTH, layout.panel_top)
    assert with_panel.crop(below_header).tobytes() == without.crop(below_header).tobytes()
    assert _ink(with_panel, (0, layout.panel_top, WIDTH, with_panel.height), THEME.cube_fill) > 100


def test_status_lines():
    """The header says who must act and what is awaited; the position ID defaults to the side on roll's view."""
    view = BoardView(
        Position.initial(), viewer_name="Ann", opponent_name="Bob", on_roll=OPPONENT, awaiting="to take or drop"
    )
    assert status_text(view) == "Bob to take or drop"
    assert status_text(BoardView(Position.initial(), on_roll=None, awaiting="Ann wins 2 points")) == "Ann wins 2 points"
    assert view.resolved_position_id() == "4HPwATDgc/ABMA"
    lopsided = Position.from_points({6: 15, 1: -15})
    assert BoardView(lopsided, on_roll=OPPONENT).resolved_position_id() == lopsided.swap().position_id()
    assert BoardView(lopsided, position_id="").resolved_position_id() == ""


# -- themes, layout and bad input ---------------------------------------------------------------------------------------
def _simulate(colour, kind):
    """Colour as seen with protanopia / deuteranopia (Viénot, Brettel & Mollon 1999, in linear RGB)."""

    def lin(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in colour)
    if kind == "protan":
        return (0.11238 * r + 0.88762 * g, 0.11238 * r + 0.88762 * g, 0.00401 * r - 0.00401 * g + b)
    return (0.29275 * r + 0.70725 * g, 0.29275 * r + 0.70725 * g, -0.02234 * r + 0.02234 * g + b)


def _distance(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5


@pytest.mark.parametrize("kind", ["protan", "deutan"])
def test_default_theme_is_colour_blind_safe(kind):
    """The default theme keeps the two sides' checkers, and each checker against both point colours, and the two
    point colours, clearly apart under red-green colour blindness (no red/green contrast is relied on)."""
    theme = THEMES["colourblind"]
    fills = [c.fill for c in theme.checkers]
    pairs = [(fills[0], fills[1]), (theme.point_colours[0], theme.point_colours[1])]
    pairs += [(f, p) for f in fills for p in theme.point_colours]
    for a, b in pairs:
        assert _distance(_simulate(a, kind), _simulate(b, kind)) > 0.25, (a, b)


def test_theme_from_name():
    """Themes are chosen by name from the config; unknown names list the known ones."""
    assert theme_from_name(None) is THEMES["colourblind"] is theme_from_name("default")
    assert theme_from_name("Classic") is THEMES["classic"]
    assert theme_from_name("high_contrast") is THEMES["high-contrast"]
    with pytest.raises(UnknownThemeError, match="classic"):
        theme_from_name("neon")
    for theme in THEMES.values():
        colours = [theme.felt, theme.frame, *theme.point_colours, *(c.fill for c in theme.checkers)]
        assert all(channel % 4 == 0 for colour in colours for channel in colour)


def test_layout_geometry():
    """The viewer's points run 1–6 bottom right, 7–12 bottom left, 13–18 top left, 19–24 top right (RULES G1
    numbering from the bottom side); slots stay inside the board and clear of the centre band; bad sizes fail."""
    layout = board_layout(WIDTH)
    xs = {point: layout.point_slot(point, 0)[0] for point in range(1, 25)}
    assert xs[1] > xs[6] > layout.bar_x > xs[7] > xs[12]
    assert xs[13] < xs[18] < layout.bar_x < xs[19] < xs[24]
    assert xs[1] == xs[24] and xs[12] == xs[13]
    for point in range(1, 25):
        y = layout.point_slot(point, STACK - 1)[1]
        assert (
            (y + layout.checker / 2 <= layout.mid_y - layout.gap / 2 + 1)
            if point >= 13
            else (y - layout.checker / 2 >= layout.mid_y + layout.gap / 2 - 1)
        )
    assert layout.checker_centre(OPPONENT, 1, 0) == layout.point_slot(24, 0)
    mirrored = board_layout(WIDTH, "left")
    assert mirrored.point_slot(1, 0)[0] < mirrored.bar_x < mirrored.point_slot(7, 0)[0]
    assert board_layout(800).width == 800 and board_layout(800).checker > 40
    with pytest.raises(LayoutError):
        board_layout(100)
    with pytest.raises(LayoutError):
        board_layout(900, "top")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"dice": (0, 3)},
        {"cube_value": 3},
        {"cube_owner": "left"},
        {"on_roll": "both"},
        {"viewer_colour": 2},
        {"score": (-1, 0), "match_length": 5},  # negative only in money play
        {"match_length": -3},
        {"resignation": 4},
        {"last_play": (Move(13, 7, 6),)},  # no last_mover
        {"last_play": (Move(3, 7, 4),), "last_mover": VIEWER},  # backwards
    ],
)
def test_bad_views_are_refused(kwargs):
    """A view with an out-of-range field raises ViewError naming the field."""
    with pytest.raises(ViewError):
        BoardView(Position.initial(), **kwargs)


def test_render_width_is_honoured():
    """The picture is as wide as asked; an unknown theme name is refused."""
    assert decode(render_board(BoardView(Position.initial()), width=800)).width == 800
    assert render_image(BoardView(Position.initial()), width=1200).width == 1200
    with pytest.raises(UnknownThemeError):
        render_board(BoardView(Position.initial()), "neon")


def test_money_session_totals_may_be_negative_and_show_signed():
    """A money session's net totals (e.g. -4 / +4) are drawn signed, never clipped to 0 (found by a user test)."""
    from rendering.words import _score_text

    view = BoardView(Position.initial(), score=(-4, 4))
    assert _score_text(view, "viewer") == "Score -4"
    assert _score_text(view, "opponent") == "Score +4"
    assert render_board(view)[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_chouette_board_says_chouette_and_its_stake_not_money_game():
    """RULES C6: the header of a chouette's board names the chouette and its stake per point."""
    captain = ChouetteMember("Bob")
    staked = BoardView(Position.initial(), chouette=ChouettePanel("Ann", captain, stake=5))
    assert match_text(staked) == "Chouette · 5 a point"
    assert match_text(BoardView(Position.initial(), chouette=ChouettePanel("Ann", captain))) == "Chouette"
    assert match_text(BoardView(Position.initial())) == "Money game"
