"""Board picture benchmark: median milliseconds per render + PNG encode, and the PNG size.

Usage: ``python -m bench.render [--renders 200] [--width 900] [--theme colourblind] [--seed 1]``

The views come from random games (seeded): after each play the board is drawn from the next player's side with the
last play marked, dice, cube and score varied, as the bot would draw it after every turn. The static board, sprites
and palette are built once before timing (as in a running bot). Target:
≤ 25 ms and ≤ 100 KB at a width of at least 800 px.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from backgammon.moves import legal_plays
from backgammon.position import Position
from rendering import BoardView, render_board
from rendering.view import OPPONENT, VIEWER

NAMES = ["Ann", "Bob", "Zoë Ångström", "Дмитрий", "東京太郎", "김민준", "Priya 🎲", "Łukasz"]


def random_views(count: int, seed: int) -> list[BoardView]:
    """``count`` views from random games played with a seeded generator."""
    rng = random.Random(seed)
    views: list[BoardView] = []
    while len(views) < count:
        position = Position.initial()
        names = rng.sample(NAMES, 2)
        cube = 1
        owner = None
        while not position.is_over() and len(views) < count:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            play = rng.choice(legal_plays(position, dice))
            after = play.position.swap()  # the next player's view; he is the viewer, on roll
            if rng.random() < 0.05 and cube < 64:
                cube *= 2
                owner = rng.choice([VIEWER, OPPONENT])
            views.append(
                BoardView(
                    after,
                    viewer_name=names[len(views) % 2],
                    opponent_name=names[(len(views) + 1) % 2],
                    viewer_colour=len(views) % 2,
                    on_roll=VIEWER,
                    awaiting="to roll or double",
                    cube_value=cube,
                    cube_owner=owner,
                    dice=dice,
                    dice_side=OPPONENT,
                    score=(rng.randint(0, 6), rng.randint(0, 6)),
                    match_length=7,
                    last_play=play.moves,
                    last_mover=OPPONENT,
                    last_dice=dice,
                    match_id="cAkAAAAAAAAA",
                )
            )
            position = after
    return views


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the median time and PNG sizes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=200)
    parser.add_argument("--width", type=int, default=900)
    parser.add_argument("--theme", default="colourblind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rgb", action="store_true", help="encode full-colour PNG instead of the 256-colour palette")
    args = parser.parse_args(argv)
    views = random_views(args.renders, args.seed)
    started = time.perf_counter()
    render_board(views[0], args.theme, width=args.width, palette=not args.rgb)  # build the caches
    warmup = (time.perf_counter() - started) * 1000
    times: list[float] = []
    sizes: list[int] = []
    for view in views:
        start = time.perf_counter()
        data = render_board(view, args.theme, width=args.width, palette=not args.rgb)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(data))
    times.sort()
    p95 = times[int(len(times) * 0.95) - 1]
    print(f"renders: {len(views)} at width {args.width} px, theme {args.theme}, {'RGB' if args.rgb else 'palette'} PNG")
    print(f"first render (builds static board, sprites, palette): {warmup:.1f} ms")
    print(f"median render+encode: {statistics.median(times):.2f} ms  (p95 {p95:.2f} ms, max {times[-1]:.2f} ms)")
    print(f"PNG size: median {statistics.median(sizes) / 1024:.1f} KB, max {max(sizes) / 1024:.1f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
