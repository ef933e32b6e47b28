"""The console's loop: read a line, print the reply, until EOF, Ctrl-C or ``quit``. Standard input is read as
bytes and decoded line by line, so a line that is not UTF-8 is refused (one line saying so) instead of ending the
console; a reply that cannot be printed (a full disk behind standard output) ends it quietly with exit code 0."""

from __future__ import annotations

import signal
import threading
from typing import TextIO

from club.service import ClubService

from .core import Console
from .parse import MAX_LINE, strip_comment

BANNER = "Backgammon club console — type help for the commands, quit to leave."


def _read_line(stdin, stdout: TextIO, prompt: str | None) -> str | bytes:
    """Show ``prompt`` (None: none) and read one line of ``stdin`` (bytes from its buffer when it has one; empty at
    EOF). Ctrl-C raises ``KeyboardInterrupt`` here: asyncio's own SIGINT handler would only cancel the task once a
    line arrived, so Python's default one is in place while the console waits."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.default_int_handler) if main else None
    try:
        if prompt is not None:
            stdout.write(prompt)
            stdout.flush()
        source = getattr(stdin, "buffer", None)
        if source is not None:
            return source.readline(MAX_LINE * 4 + 1)
        return stdin.readline(MAX_LINE * 4 + 1)
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


def decode(raw: str | bytes) -> tuple[str, str | None]:
    """``(text, problem)``: a line read as bytes decoded as UTF-8, or the problem in words (text then shows the
    bytes as replacement characters)."""
    if isinstance(raw, str):
        return raw, None
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as error:
        shown = raw.decode("utf-8", "replace")
        return shown, (f"Refused: that line is not UTF-8 text (byte 0x{raw[error.start]:02x} at position "
                       f"{error.start + 1}): type it again in plain text.")  # fmt: skip


async def run_console(service: ClubService, stdin, stdout: TextIO, **options) -> int:
    """The REPL: read lines from ``stdin`` until EOF (Ctrl-D), Ctrl-C or ``quit``, print each reply to ``stdout``
    and ``Bye.`` at the end. With a terminal the prompt shows the acting member; a script's lines are echoed after
    the prompt. ``options`` go to :class:`Console`. Returns 0."""
    console = Console(service, **options)
    interactive = stdin.isatty()
    try:
        print(BANNER, file=stdout)
        while True:
            try:
                raw = _read_line(stdin, stdout, console.prompt if interactive else None)
            except KeyboardInterrupt:
                raw = ""
            if not raw:
                if interactive:
                    print(file=stdout)  # end the prompt's line
                break
            line, problem = decode(raw)
            if len(line) > MAX_LINE and not line.endswith("\n"):  # the rest of an over-long line: skip it
                while raw and not (raw.endswith(b"\n") if isinstance(raw, bytes) else raw.endswith("\n")):
                    raw = _read_line(stdin, stdout, None)
                problem = f"Refused: that line is longer than {MAX_LINE:,} characters; commands are short."
            if not interactive and strip_comment(line.strip()):
                print(f"{console.prompt}{line.rstrip()[:200]}", file=stdout)
            if problem is not None:
                print(problem, file=stdout)
                continue
            try:
                reply = await console.handle(line)
            except EOFError:
                break
            if reply:
                print(reply, file=stdout)
        for text in await console.finished_reviews(wait=True):  # a review still being computed: printed before Bye
            print(text, file=stdout)
        print("Bye.", file=stdout)
        stdout.flush()
    except OSError:  # standard output is gone or full: nothing more can be said
        pass
    finally:
        console.close()  # the engine's worker processes and the review thread (console.study)
    return 0
