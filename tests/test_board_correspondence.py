"""Board pictures a correspondence player reads on his phone: one cube while a double is pending
(the offered value, marked as offered, on the taker's side; a beaver or raccoon says so), arrows clear of the cube
and the dice, the action always in the title, emoji in colour, right-to-left names in order, every text readable at
390 px, and the gallery showing all of it."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageDraw

import rendering.board as board_module
import rendering.words as words_module
from backgammon.moves import legal_plays
from backgammon.position import Position
from rendering import BoardView, board_layout, render_board, theme_from_name
from rendering.board import arrow_obstacles, last_play_routes, offered_cube_box
from rendering.gallery import main as gallery_main
from rendering.gallery import sample_views
from rendering.lastplay import crosses, route_around
from rendering.layout import MIN_TEXT_PX
from rendering.text import BOLD, EMOJI, REGULAR, draw_text, font, has_emoji, layout_text
from rendering.view import OPPONENT, VIEWER
from rendering.words import fit_status, match_text
from tests.randompos import random_position

THEME = theme_from_name(None)


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def big_components(image: Image.Image, colour, min_area: int, box=None) -> list[tuple[int, int, int, int]]:
    """Bounding boxes of the connected groups of pixels of exactly ``colour`` with at least ``min_area`` pixels."""
    crop = image.crop(box) if box else image
    w, h = crop.size
    data = crop.load()
    seen = set()
    found = []
    for y in range(h):
        for x in range(w):
            if (x, y) in seen or data[x, y] != colour:
                continue
            stack, area = [(x, y)], 0
            seen.add((x, y))
            x0, y0, x1, y1 = x, y, x, y
            while stack:
                cx, cy = stack.pop()
                area += 1
                x0, y0, x1, y1 = min(x0, cx), min(y0, cy), max(x1, cx), max(y1, cy)
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if 0 <= nx < w and 0 <= ny < h and (nx, ny) not in seen and data[nx, ny] == colour:
                        seen.add((nx, ny))
                        stack.append((nx, ny))
            if area >= min_area:
                found.append((x0, y0, x1, y1))
    return found


def cube_faces(image: Image.Image, layout) -> list[tuple[int, int, int, int]]:
    """Every doubling cube drawn on the picture (its face, in the theme's cube colour)."""
    return big_components(image, THEME.cube_fill, int(0.3 * layout.cube_size**2))


def texts_drawn(monkeypatch, view: BoardView, **options) -> list[tuple[str, int]]:
    """Render ``view`` and return every text the board drew with its size (the static board's point numbers too)."""
    drawn = []
    real = board_module.draw_text

    def spy(draw, xy, text, size, fill, **kwargs):
        drawn.append((text, size))
        return real(draw, xy, text, size, fill, **kwargs)

    monkeypatch.setattr(board_module, "draw_text", spy)
    monkeypatch.setattr(words_module, "draw_text", spy)
    board_module.static_board.cache_clear()
    board_module.render_image(view, **options)
    board_module.static_board.cache_clear()
    return drawn


# -- one cube while a double is pending (RULES D1, D3) ------------------------------------------------------------
@pytest.mark.parametrize(("taker", "owner"), [(OPPONENT, None), (VIEWER, OPPONENT), (OPPONENT, VIEWER)])
def test_a_pending_double_draws_one_cube_on_the_takers_side(taker, owner):
    """While a double is pending the picture holds exactly one cube — at the offered value, in the taker's half,
    ringed in the accent colour — never the centred "64" beside the offered "2"."""
    layout = board_layout(900)
    value = 2 if owner is None else 4
    view = BoardView(
        Position.initial(), on_roll=taker, awaiting="to take or drop", offered_cube=value,
        cube_value=value // 2, cube_owner=owner, match_length=7,
    )  # fmt: skip
    image = decode(render_board(view))
    faces = cube_faces(image, layout)
    assert len(faces) == 1, f"one cube while the double is pending, found {len(faces)}"
    x0, y0, x1, y1 = faces[0]
    cx, cy = layout.action_centre(taker)
    assert x0 <= cx <= x1 and y0 <= cy <= y1, "the offered cube sits in the taker's throwing area"
    ring = image.getpixel((round(cx), round(cy - layout.cube_size / 2 - 3)))
    assert ring == THEME.accent, "the offered cube is marked as offered"
    plain = decode(render_board(BoardView(Position.initial(), cube_value=value // 2, cube_owner=owner)))
    assert len(cube_faces(plain, layout)) == 1 and faces[0] != cube_faces(plain, layout)[0]


@pytest.mark.parametrize("offer", ["double", "beaver", "raccoon"])
def test_a_beaver_or_raccoon_says_so(monkeypatch, offer):
    """RULES D3: the words under the offered cube name the offer (a beaver says beaver, not "4 doubles")."""
    view = BoardView(Position.initial(), on_roll=VIEWER, awaiting="to take or drop", offered_cube=4, offer=offer)
    texts = [text for text, _size in texts_drawn(monkeypatch, view)]
    assert offer in texts and "offered" in texts and "doubles" not in texts


# -- arrows clear of the cube and the dice ----------------------------------------------------------------------------
def test_route_bends_around_a_box():
    """A segment through a rectangle is bent around its nearer side; one beside it is left straight."""
    box = (100.0, 100.0, 140.0, 120.0)
    bent = route_around([(110.0, 0.0), (120.0, 300.0)], [box], 6.0)
    assert len(bent) == 4 and all(not crosses(a, b, box) for a, b in zip(bent, bent[1:], strict=False))
    assert route_around([(10.0, 0.0), (10.0, 300.0)], [box], 6.0) == [(10.0, 0.0), (10.0, 300.0)]


@pytest.mark.parametrize("seed", range(6))
def test_last_play_arrows_never_cross_the_dice_or_the_offered_cube(seed):
    """The last-play arrows keep clear of what a reader must see. Random last plays with dice shown or a
    double pending, at phone and desktop widths, home on either side: no arrow segment passes through the dice, the
    cube or the offered cube (each rectangle, shrunk by a pixel for rounding)."""
    rng = random.Random(seed)
    layout = board_layout(rng.choice([390, 900]), rng.choice(["right", "left"]))
    checked = 0
    while checked < 40:
        before = random_position(rng)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = [p for p in legal_plays(before, dice) if p.moves]
        if not plays:
            continue
        play = rng.choice(plays)
        after = play.position.swap()  # the viewer moved; the opponent is on roll now
        pending = rng.random() < 0.5
        view = BoardView(
            after, on_roll=OPPONENT, last_play=play.moves, last_mover=VIEWER, last_dice=dice,
            dice=None if pending else (rng.randint(1, 6), rng.randint(1, 6)),
            offered_cube=2 if pending else None, awaiting="to take or drop" if pending else "to play",
            cube_value=2, cube_owner=rng.choice([None, VIEWER, OPPONENT]) if not pending else None,
        )  # fmt: skip
        obstacles = arrow_obstacles(layout, view)
        assert obstacles, "the dice or the offered cube are there to avoid"
        for route in last_play_routes(layout, view):
            for a, b in zip(route, route[1:], strict=False):
                for x0, y0, x1, y1 in obstacles:
                    assert not crosses(a, b, (x0 + 1, y0 + 1, x1 - 1, y1 - 1)), (route, (x0, y0, x1, y1))
        checked += 1


def test_the_offered_cube_box_is_in_the_takers_half():
    """The box the arrows avoid is the one the offered cube is drawn in: the taker's half of the board."""
    layout = board_layout(900)
    view = BoardView(Position.initial(), on_roll=VIEWER, offered_cube=2, awaiting="to take or drop")
    x0, _y0, x1, _y1 = offered_cube_box(layout, view)
    assert x0 > layout.bar_x and offered_cube_box(layout, BoardView(Position.initial())) is None


# -- the title always says whose action it is -------------------------------------------------------------------------
LONG = "Bartholomew Maximilian Fitzgerald-Worthington the Third of Upper Snodsbury"


@pytest.mark.parametrize("width", [390, 900])
def test_a_long_name_never_pushes_the_action_out_of_the_title(monkeypatch, width):
    """A long name never pushes "to play 3-2" out of the header: the name is shortened with "…" and the
    action is drawn whole; the header's pixels are exactly that line (read back from the picture)."""
    layout = board_layout(width)
    view = BoardView(Position.initial(), viewer_name=LONG, on_roll=VIEWER, awaiting="to play 3-2", dice=(3, 2),
                     match_length=7)  # fmt: skip
    texts = texts_drawn(monkeypatch, view, width=width)
    title = next(text for text, _size in texts if text.endswith("to play 3-2"))
    assert title.startswith("Bartholomew") and "…" in title and title != f"{LONG} to play 3-2"
    assert any(text == LONG or text.startswith("Bartholomew Maximilian") for text, _ in texts[1:]), "strip keeps more"
    monkeypatch.undo()
    image = board_module.render_image(view, width=width)  # the pixels before the PNG's palette
    top, bottom = layout.header_top, layout.header_top + layout.header_height
    expected = board_module.static_board(THEME, layout).copy()
    draw = ImageDraw.Draw(expected)
    s, m = layout.scale, layout.margin
    head = layout.text(26)
    baseline = layout.header_top + layout.header_height / 2 + head * 0.4
    right = draw_text(draw, (width - m, baseline), match_text(view), layout.text(18), THEME.text_muted, align="right")
    room = width - 2 * m - right.width - max(20 * s, 8)
    line = draw_text(draw, (m + 4 * s, baseline), fit_status(view, head, room), head, THEME.accent, bold=True)
    assert line.width <= room
    assert image.crop((0, top, width, bottom)).tobytes() == expected.crop((0, top, width, bottom)).tobytes()


def test_fit_status_keeps_short_titles_whole():
    """A title that fits is left as it is; nobody on roll: the result alone."""
    view = BoardView(Position.initial(), viewer_name="Ann", on_roll=VIEWER, awaiting="to roll or double")
    assert fit_status(view, 26, 600) == "Ann to roll or double"
    over = BoardView(Position.initial(), on_roll=None, awaiting="Ann wins game 2: gammon, 4 points")
    assert fit_status(over, 26, 600) == "Ann wins game 2: gammon, 4 points"


# -- emoji and right-to-left names ------------------------------------------------------------------------------------
def test_emoji_are_drawn_in_colour_not_as_boxes():
    """Emoji in names are drawn, not empty boxes: a die, a thumbs-up with a skin tone and a flag are each one
    colour run from the bundled Noto Color Emoji, drawn with many colours (not one outline colour)."""
    line = layout_text("Ann 🎲 👍🏽 🇫🇷", 24)
    emoji = [run.text for run in line.runs if run.font_path == EMOJI]
    assert emoji == ["🎲", "👍🏽", "🇫🇷"]
    assert has_emoji("Ann 🎲") and not has_emoji("Zoë Дмитрий 東京")
    image = Image.new("RGB", (300, 40), (0, 0, 0))
    draw_text(ImageDraw.Draw(image), (4, 30), "🇫🇷", 24, (255, 255, 255))
    colours = {colour for _count, colour in image.getcolors(1 << 16)}
    assert (0, 85, 164) in {(r & 0xF0, g & 0xF0, b & 0xF0) for r, g, b in colours} or len(colours) > 20
    reds = [c for c in colours if c[0] > 180 and c[1] < 90 and c[2] < 90]
    blues = [c for c in colours if c[2] > 120 and c[0] < 60]
    assert reds and blues, "the French flag has red and blue"


def test_an_emoji_name_keeps_its_colours_on_the_board():
    """The board PNG with an emoji name is not mapped to the theme's palette (which would grey the emoji): the
    red of the die survives in the PNG."""
    view = BoardView(Position.initial(), viewer_name="Ann 🎲", opponent_name="Bob")
    image = decode(render_board(view))
    plain = decode(render_board(BoardView(Position.initial(), viewer_name="Ann", opponent_name="Bob")))
    reds = {c for _n, c in image.getcolors(1 << 20) if c[0] > 180 and c[1] < 80 and c[2] < 80}
    assert reds - {c for _n, c in plain.getcolors(1 << 20)}, "the emoji's red is in the picture"


def test_right_to_left_names_are_laid_out_right_to_left_and_shaped():
    """Hebrew and Arabic names are one right-to-left run each (drawn in reading order, Arabic letters joined), and
    the rest of the line stays left to right."""
    hebrew = layout_text("שלום to play 3-2", 24)
    assert [(run.text, run.rtl) for run in hebrew.runs] == [("שלום", True), (" to play 3-2", False)]
    arabic = layout_text("محمد علي", 24, True)
    assert [run.rtl for run in arabic.runs] == [True]
    ours = Image.new("L", (300, 40), 0)
    draw_text(ImageDraw.Draw(ours), (4, 30), "שלום", 24, 255)
    naive = Image.new("L", (300, 40), 0)
    ImageDraw.Draw(naive).text((4, 30), "שלום", font=font(REGULAR, 24), fill=255, anchor="ls")
    assert ours.getbbox() is not None and ours.tobytes() != naive.tobytes(), "not drawn in logical order"
    joined = font(BOLD, 24, True).getlength("محمد", direction="rtl")
    isolated = sum(font(BOLD, 24).getlength(ch) for ch in "محمد")
    assert joined != isolated, "Arabic letters take their joined forms"


# -- every text readable at 390 px ------------------------------------------------------------------------------------
def test_every_text_is_readable_at_390_px(monkeypatch):
    """Every text is readable at phone width: at 390 px no text on any
    gallery board is smaller than MIN_TEXT_PX (12 px: its capitals measure 8 px or more on the picture), and every
    text line fits the picture."""
    smallest = None
    for name, (view, options) in sample_views().items():
        texts = texts_drawn(monkeypatch, view, width=390, **options)
        assert texts, name
        size = min(size for _text, size in texts)
        assert size >= MIN_TEXT_PX, (name, [t for t in texts if t[1] < MIN_TEXT_PX])
        smallest = size if smallest is None else min(smallest, size)
    ink = Image.new("L", (60, 60), 0)
    ImageDraw.Draw(ink).text((5, 40), "H", font=font(REGULAR, smallest), fill=255, anchor="ls")
    x0, y0, x1, y1 = ink.getbbox()
    assert y1 - y0 >= 8, f"capital height {y1 - y0} px at {smallest} px"
    layout = board_layout(390)
    view = BoardView(Position.initial(), viewer_name=LONG, opponent_name="Bob", on_roll=VIEWER, awaiting="to play 6-4",
                     match_id="cAkAAAAAAAAA", match_length=7)  # fmt: skip
    image = render_board(view, width=390)
    assert decode(image).width == 390 and layout.width == 390


# -- the gallery ----------------------------------------------------------------------------------------------------
def test_the_gallery_shows_the_correspondence_boards(tmp_path, capsys):
    """``python -m rendering.gallery OUT`` writes a final position with its result, a pending double, a beaver, a
    long name, emoji and right-to-left names, and a 390-px version of each."""
    assert gallery_main([str(tmp_path)]) == 0
    names = {path.name for path in tmp_path.glob("*.png")}
    for wanted in ("final-position", "double-offered", "beaver", "long-name", "emoji", "right-to-left"):
        assert any(wanted in name for name in names), (wanted, sorted(names))
    phone = {path.name for path in (tmp_path / "390px").glob("*.png")}
    assert phone and {name for name in phone} == names
    assert all(Image.open(tmp_path / "390px" / name).width == 390 for name in phone)
    final = next(view for name, (view, _o) in sample_views().items() if "final-position" in name)
    assert final.on_roll is None and "wins" in final.awaiting


def test_a_match_end_title_is_drawn_whole_at_390_px(monkeypatch):
    """At a phone's 390 px the header's result ("Open Sage wins the match 3–2 (single, 1 point)") is drawn whole —
    the match length on the header's right gives way to it (the strips say how far each side is) — not cut to "Open
    Sage wins the match 3-2 (single,…"; the dice are drawn at least 20 px."""
    from rendering.text import layout_text

    result = "Open Sage wins the match 3–2 (single, 1 point)"
    view = BoardView(Position.initial(), viewer_name="Open Sage", on_roll=None, awaiting=result, match_length=3,
                     score=(3, 2))  # fmt: skip
    drawn = []
    real = words_module.draw_text

    def spy(draw, xy, text, size, fill, **kwargs):
        drawn.append((text, size, kwargs))
        return real(draw, xy, text, size, fill, **kwargs)

    monkeypatch.setattr(words_module, "draw_text", spy)
    board_module.render_image(view, width=390)
    size, options = next((size, options) for text, size, options in drawn if text == result)
    assert layout_text(result, size, bold=True).width <= options["max_width"], "drawn whole, not cut with …"
    assert board_layout(390).die_size >= 20
