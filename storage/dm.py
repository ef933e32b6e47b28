"""Each member's Discord direct-message channel (table ``dm_channels``, schema version 4), a mixin of
:class:`storage.database.Database`: a direct message then costs one request, not a user look-up and a channel
opening each time."""

from __future__ import annotations


class DirectMessageChannels:
    """``dm_channel`` for :class:`~storage.database.Database` (uses its ``transaction`` and ``_fetchone``)."""

    async def dm_channel(self, user_id: int, channel_id: int | None = None, now: float = 0.0) -> int | None:
        """The direct-message channel of ``user_id`` remembered so far (0: he accepts no direct messages), None if
        unknown; with ``channel_id``, remember that one first (at ``now``, Unix seconds; ``-1`` forgets it)."""
        if channel_id is not None:
            async with self.transaction() as tx:
                if channel_id < 0:
                    await tx.execute("DELETE FROM dm_channels WHERE user_id = ?", (user_id,))
                    return None
                await tx.execute(
                    "INSERT INTO dm_channels (user_id, channel_id, updated_at) VALUES (?, ?, ?) ON CONFLICT (user_id)"
                    " DO UPDATE SET channel_id = excluded.channel_id, updated_at = excluded.updated_at",
                    (user_id, channel_id, now),
                )
            return channel_id
        row = await self._fetchone("SELECT channel_id FROM dm_channels WHERE user_id = ?", (user_id,))
        return None if row is None else int(row[0])
