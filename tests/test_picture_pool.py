"""Board pictures drawn in the picture worker processes (:mod:`club.picture_pool`): the same PNG as one drawn here,
made in another process, and drawn in a thread when no worker can be had."""

from __future__ import annotations

import os

from club import picture_pool
from club.boards import BoardOptions, render_table, render_table_async
from tests.clubkit import club_service, new_table

SMALL = BoardOptions(width=400)


async def test_a_board_is_drawn_in_a_worker_process_exactly_as_here(tmp_path):
    async with club_service(tmp_path / "p.sqlite3") as service:
        view = (await new_table(service)).view
        drawn = await render_table_async(view, view.players[0], SMALL)
    assert drawn == render_table(view, view.players[0], SMALL) and drawn.startswith(b"\x89PNG")
    worker = await picture_pool.draw(os.getpid)
    assert worker != os.getpid() and worker in picture_pool.worker_pids()


async def test_without_a_worker_process_the_picture_is_drawn_in_a_thread(monkeypatch, caplog):
    def cannot_start():
        raise OSError("no processes left")

    monkeypatch.setattr(picture_pool.POOL, "_executor", cannot_start)
    assert await picture_pool.draw(os.getpid) == os.getpid()
    assert "no picture worker: running getpid in a thread" in caplog.text
