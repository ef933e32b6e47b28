"""The words of the front ends' input and refusals: the legal plays filtered by what a member typed
(:func:`filter_plays`, :func:`closest_plays`) and errors in words under Discord's 2,000 characters (:func:`explain`,
:func:`clip`). Pure functions, no Discord types; :mod:`club.frontend` re-exports them.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from backgammon.errors import AmbiguousPlayError, BackgammonError, IllegalPlayError, InvalidPlayError

MAX_CHOICES = 25
"""Discord shows at most 25 autocomplete choices or menu options."""


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word`` in the right number: ``plural(1, "blunder")`` is "1 blunder", ``plural(2, "blunder")``
    "2 blunders"; ``many`` the plural when it is not ``word + "s"`` (``plural(3, "match", "matches")``)."""
    return f"{count} {word if count == 1 else many or word + 's'}"


# -- plays ---------------------------------------------------------------------------------------------------------------
def _normal_tokens(text: str) -> list[str]:
    text = text.lower().replace("*", " ").replace(",", " ")
    tokens = []
    for token in text.split():
        token = token.replace("bar", "25").replace("off", "0")
        tokens.append(token)
    return tokens


def filter_plays(plays: Sequence[str], typed: str, limit: int = MAX_CHOICES) -> list[str]:
    """The legal plays (notation, in their given order) that match what the member has typed so far, at most
    ``limit``: every typed move must begin one of the play's moves (``bar``/``25`` and ``off``/``0`` alike, ``*``
    ignored, any order), so ``13/7 8`` offers ``13/7 8/7`` and ``8/2 13/7``. Nothing typed: the first ``limit``."""
    typed_tokens = _normal_tokens(typed)
    chosen = []
    for play in plays:
        tokens = _normal_tokens(play)
        remaining = list(tokens)
        for want in typed_tokens:
            for index, token in enumerate(remaining):
                if token.startswith(want):
                    del remaining[index]
                    break
            else:
                break
        else:
            chosen.append(play)
            if len(chosen) == limit:
                break
    return chosen


# -- errors in words -----------------------------------------------------------------------------------------------
MAX_MESSAGE = 1900
"""The longest refusal :func:`explain` returns (Discord cuts a message at 2,000 characters)."""

MAX_PLAYS_SHOWN = 25
"""An illegal play's message lists all legal plays up to this many (a menu's worth, well under 2,000 characters),
else their count and the :data:`MAX_CLOSEST` closest ones."""

MAX_CLOSEST = 10

_LONG_QUOTE = re.compile(r"(?<!\w)(['\"])([^'\"\n]{80})[^'\"\n]{20,}\1(?!\w)")
"""A quoted value (``'…'`` / ``"…"``, as ``repr`` writes it) over 100 characters — not the apostrophes of names
("Carol's turn … Bob's turn")."""


def closest_plays(legal: Sequence[str], typed: str, limit: int = MAX_CLOSEST) -> list[str]:
    """The ``limit`` legal plays (notation) most like ``typed`` (by their moves, ``bar``/``off`` alike, order
    ignored; ties keep the given order)."""
    want = " ".join(sorted(_normal_tokens(typed)))

    def likeness(item: tuple[int, str]) -> tuple[float, int]:
        index, play = item
        ratio = difflib.SequenceMatcher(None, want, " ".join(sorted(_normal_tokens(play)))).ratio()
        return (-ratio, index)

    return [play for _, play in sorted(enumerate(legal), key=likeness)[:limit]]


def _short_illegal(text: str, legal: Sequence[str], typed: str | None) -> str:
    head = text.split("; the legal plays are:")[0].split("\nThe legal plays are:")[0].strip()
    if not legal:
        return head
    if len(legal) <= MAX_PLAYS_SHOWN:
        return f"{head}\nThe legal plays are: {', '.join(legal)}."
    typed = typed if typed is not None else head.split(" is not")[0]
    closest = ", ".join(closest_plays(legal, typed, MAX_CLOSEST))
    return (
        f"{head}\nThe legal plays are: {closest} … ({len(legal)} legal plays in all; these are the closest to yours, "
        "and all of them are suggested as you type in /bg move or offered in the menu of the board)."
    )


def clip(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` with every quoted value over 100 characters cut and at most ``limit`` characters long."""
    text = _LONG_QUOTE.sub(lambda m: f"{m[1]}{m[2]}…{m[1]} (cut)", text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def explain(error: BaseException, legal: Sequence[str] | None = None, *, typed: str | None = None) -> str:
    """The message for a refused request: what was wrong and what is possible, under Discord's 2,000 characters
    (:func:`clip`). An illegal or garbled play lists the legal plays (the error's own list, else ``legal``) — when
    there are more than :data:`MAX_PLAYS_SHOWN`, their count and the :data:`MAX_CLOSEST` closest to ``typed``;
    an ambiguous one lists the candidates."""
    text = str(error).strip() or type(error).__name__
    if isinstance(error, IllegalPlayError):
        return clip(_short_illegal(text, error.legal or legal or (), typed))
    if isinstance(error, AmbiguousPlayError) and error.candidates and "candidates" not in text:
        candidates = ", ".join(error.candidates[:MAX_PLAYS_SHOWN])
        return clip(f"{text}\nIt could mean: {candidates}. Write the whole route (e.g. 24/18/13).")
    if isinstance(error, InvalidPlayError):
        return clip(_short_illegal(text, legal or (), typed))
    return clip(text)


def is_refusal(error: BaseException) -> bool:
    """True for errors meant for the member (rules and use-case refusals), False for bugs."""
    return isinstance(error, BackgammonError)


# -- read-only texts -----------------------------------------------------------------------------------------------------
