"""The live-message index of the Discord front end (:class:`cogs.publish.LiveIndex`): one read per table, kept
current as messages are posted, and only the most recently used tables held."""

from __future__ import annotations

from dataclasses import dataclass

from cogs.publish import LiveIndex


@dataclass
class Record:
    purpose: str
    message_id: int


async def test_only_the_most_recent_tables_are_held_and_a_dropped_one_is_read_again():
    reads: list[int] = []

    def loader(table: int):
        async def load():
            reads.append(table)
            return [Record("home", table * 10), Record("board", table * 10 + 1), Record("board", table * 10 + 2)]

        return load

    index = LiveIndex(size=2)
    assert (await index.get(("match", 1), "board", loader(1))).message_id == 12
    assert (await index.get(("match", 1), "home", loader(1))).message_id == 10
    index.set(("match", 1), "board", Record("board", 13))
    await index.get(("match", 2), "board", loader(2))
    await index.get(("match", 1), "board", loader(1))  # 1 used again: 2 is now the oldest
    await index.get(("match", 3), "board", loader(3))
    assert reads == [1, 2, 3]
    assert (await index.get(("match", 1), "board", loader(1))).message_id == 13  # still held, as set
    assert (await index.get(("match", 2), "board", loader(2))).message_id == 22 and reads == [1, 2, 3, 2]


async def test_a_message_posted_while_the_table_is_read_is_the_live_one():
    index = LiveIndex()

    async def load():
        index.set(("match", 5), "board", Record("board", 99))  # posted meanwhile
        return [Record("board", 51)]

    assert (await index.get(("match", 5), "board", load)).message_id == 99
