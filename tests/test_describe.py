"""What the club says is awaited, in words (RULES D2, D3)."""

from club.describe import pending_words


def test_answers_to_a_double_read_as_english():
    """RULES D2/D3: "take or drop", with a beaver "take, drop or beaver" — never "take, drop the double"."""
    assert pending_words("answer_double") == "take or drop the double"
    assert pending_words("answer_double", beaver=True) == "take, drop or beaver the double"
    assert pending_words("answer_beaver") == "take or drop the beaver"
    assert pending_words("answer_beaver", raccoon=True) == "take, drop or raccoon the beaver"
    assert pending_words(None) == "nothing"
