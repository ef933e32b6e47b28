"""What the club says is awaited, in words (RULES D2, D3)."""

from club.describe import pending_words


def test_answers_to_a_double_read_as_english():
    """RULES D2/D3: "take or drop", with a beaver "take, drop or beaver" — never "take, drop the double"."""
    assert pending_words("answer_double") == "take or drop the double"
    assert pending_words("answer_double", beaver=True) == "take, drop or beaver the double"
    assert pending_words("answer_beaver") == "take or drop the beaver"
    assert pending_words("answer_beaver", raccoon=True) == "take, drop or raccoon the beaver"
    assert pending_words(None) == "nothing"


def test_shorten_cuts_long_names_at_a_word_with_an_ellipsis():
    """Found by a user: names were cut at 100 characters in the middle of a word. ``shorten`` keeps short text
    whole and cuts long text at a word boundary with "…", within the limit."""
    from club.describe import shorten

    assert shorten("Match #1 · Ann vs Bob", 100) == "Match #1 · Ann vs Bob"
    long = "Match #12 · " + "Bartholomew Maximilian Fitzgerald-Worthington " * 3 + "vs Ann · 7-point match"
    short = shorten(long, 100)
    assert len(short) <= 100 and short.endswith("…") and long.startswith(short[:-1])
    assert long[len(short) - 1] == " ", "cut between words"
    assert shorten("x" * 150, 100) == "x" * 99 + "…"
