"""Board pictures with Pillow: a pure function from a :class:`BoardView` to PNG bytes (no Discord types).

>>> from backgammon.position import Position
>>> from rendering import BoardView, render_board
>>> png = render_board(BoardView(Position.initial(), viewer_name="Ann", opponent_name="Bob",
...                              awaiting="to play 3-1", dice=(3, 1)))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True

Modules: :mod:`.view` (what to draw), :mod:`.layout` (where), :mod:`.themes` (colours), :mod:`.board` (drawing and
PNG encoding), :mod:`.words` (header, strips, caption and the chouette panel), :mod:`.text` (font fallback for any
name: colour emoji, right-to-left scripts), :mod:`.lastplay` (last-play marks and arrow routing), :mod:`.gallery`
(``python -m rendering.gallery OUTDIR``: also at 390 px).
"""

from .board import DEFAULT_WIDTH, map_big_blocks, render_board, render_image, static_board, warm_up
from .layout import STACK, BoardLayout, LayoutError, board_layout
from .themes import THEMES, CheckerColours, Theme, UnknownThemeError, theme_from_name
from .view import OPPONENT, VIEWER, BoardView, ChouetteMember, ChouettePanel, ViewError

__all__ = [
    "DEFAULT_WIDTH",
    "OPPONENT",
    "STACK",
    "THEMES",
    "VIEWER",
    "BoardLayout",
    "BoardView",
    "CheckerColours",
    "ChouetteMember",
    "ChouettePanel",
    "LayoutError",
    "Theme",
    "UnknownThemeError",
    "ViewError",
    "board_layout",
    "map_big_blocks",
    "render_board",
    "render_image",
    "static_board",
    "theme_from_name",
    "warm_up",
]
