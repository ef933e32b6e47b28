"""The real bot in a process of its own, against the fake Discord of the process that started it.

:class:`BotProcess` starts ``python -m tests.botprocess``: the bot as ``bot.py`` runs it — :class:`bot.BgBot` with
discord.py, Pillow and every cog, logged in with ``Client.login`` (the REST API is the fake Discord of
:mod:`tests.discord_fake`, served by the parent on 127.0.0.1), the start-up heap settled
(:func:`botapp.heap.settle_heap`), its own settings (``[storage] synchronous = FULL``, 900-px boards). Its gateway is
its standard input: the parent writes one JSON line per gateway event (``GUILD_CREATE``, ``INTERACTION_CREATE`` …),
which the child hands to discord.py's parser as the websocket would. So what is measured in the child — its memory,
its CPU time — is the bot's own, without the fake Discord, and a SIGKILL kills the bot only.

Control lines (parent → child, one JSON object a line): ``{"t": EVENT, "d": payload}`` (a gateway event),
``{"op": "settle", "id": n}`` (answered on standard output, once every task the bot started has finished, by
``{"settled": n, "rss_kb": …, "cpu_s": …, "answered": {interaction id: when the bot sent its initial response,
time.monotonic()}}`` for the interactions answered since the last settle), ``{"op": "profile", "on": bool}`` (see :data:`PROFILE`),
``{"op": "ready"}`` (dispatch ``on_ready``: the scheduler loop
starts), ``{"op": "exit"}``. The child's first line on standard output is ``{"ready": pid}`` once it is logged in.

:class:`Gateway` is the parent's side of the fake Discord for one or more bot processes: the world, its guild and
members, the interaction payloads (commands and button presses), the answers read back from the world.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import signal
import sys
import time
from pathlib import Path

CHILD_TOKEN = "bench-token"
MENTION = re.compile(r"<@!?(\d+)>")


# -- the child: the bot --------------------------------------------------------------------------------------------
def _quiet(task: asyncio.Task) -> bool:
    """Tasks that never finish on their own: discord.py's view timers and the scheduler loop."""
    coro = task.get_coro()
    code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
    filename = getattr(code, "co_filename", "") or ""
    return ("discord/ui/view.py" in filename and "timeout" in code.co_name) or "discord/ext/tasks" in filename


async def _settle(me: asyncio.Task) -> None:
    """Wait until every task but ``me`` and the never-ending ones has finished."""
    while True:
        pending = [t for t in asyncio.all_tasks() if t is not me and not t.done() and not _quiet(t)]
        if not pending:
            return
        await asyncio.wait(pending, timeout=60)


def cpu_seconds(pid: int | str = "self") -> float:
    """User plus system CPU seconds of process ``pid`` so far (Linux ``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def processes_cpu(pids) -> float:
    """User plus system CPU seconds of the processes ``pids`` so far, together; one that has ended counts 0."""
    return sum(_or_zero(cpu_seconds, pid) for pid in pids)


def children(pid: int) -> list[int]:
    """The ids of process ``pid``'s child processes (its picture worker and the resource tracker), alive now."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # the thread ended meanwhile
            found += [int(child) for child in (task / "children").read_text().split()]
    return found


def rss_kb(pid: int | str = "self") -> int:
    """Resident set size of process ``pid`` in KB (Linux ``/proc/PID/status``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _note_answers(answered: dict[str, float]) -> None:
    """From now on, note in ``answered`` when the bot sends each interaction's initial response (interaction id →
    ``time.monotonic()``, the clock the parent's fake Discord reads too): what the bot did, apart from how long the
    fake Discord — sharing the machine's cores — takes to read it."""
    from discord.webhook.async_ import AsyncWebhookAdapter

    send = AsyncWebhookAdapter.create_interaction_response

    def noted(self, interaction_id, *args, **kwargs):
        answered[str(interaction_id)] = time.monotonic()
        return send(self, interaction_id, *args, **kwargs)

    AsyncWebhookAdapter.create_interaction_response = noted  # type: ignore[method-assign]


async def _child(args: argparse.Namespace) -> None:
    from discord.http import Route

    import bot as botmod
    from botapp.heap import settle_heap

    Route.BASE = args.discord
    answered: dict[str, float] = {}
    _note_answers(answered)
    options: dict = {"token": CHILD_TOKEN, **json.loads(args.settings)}
    if args.url:
        options["database_url"] = args.url
    else:
        options["database"] = Path(args.db)
    settings = botmod.Settings(**options)
    bot = botmod.BgBot(settings)
    await bot.login(CHILD_TOKEN)  # GET /users/@me, the application, then the real setup_hook
    settle_heap()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=256 * 1024 * 1024)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    out = sys.stdout
    out.write(json.dumps({"ready": os.getpid()}) + "\n")
    out.flush()
    me = asyncio.current_task()
    try:
        while line := await reader.readline():
            message = json.loads(line)
            if "t" in message:
                getattr(bot._connection, "parse_" + message["t"].lower())(message["d"])
            elif message.get("op") == "settle":
                await asyncio.sleep(0)  # the events just parsed start their tasks
                await _settle(me)
                settled = {"settled": message["id"], "rss_kb": rss_kb(), "cpu_s": cpu_seconds(), "answered": answered}
                out.write(json.dumps(settled) + "\n")
                answered.clear()
                out.flush()
            elif message.get("op") == "profile" and args.profile is not None:
                if message["on"]:
                    args.profile.enable()
                else:
                    args.profile.disable()
            elif message.get("op") == "ready":
                bot.dispatch("ready")
            elif message.get("op") == "exit":
                break
    finally:
        await _settle(me)
        await bot.close()


def _or_zero(read, pid: int):
    """``read(pid)``, or 0 when the process has ended meanwhile."""
    try:
        return read(pid)
    except OSError:
        return 0


# -- the parent: the process and its gateway -------------------------------------------------------------------------
class BotProcess:
    """One bot process (see the module docstring): :meth:`start` it, :meth:`send` gateway events, :meth:`settle`,
    read :meth:`rss_kb` and :meth:`cpu_seconds`, :meth:`stop` it or :meth:`kill` it (SIGKILL)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.pid = process.pid
        self._settles = 0

    @classmethod
    async def start(cls, discord_base: str, *, db: Path | None = None, url: str = "",
                    settings: dict | None = None, env: dict | None = None) -> BotProcess:  # fmt: skip
        """Start the bot on the SQLite file ``db`` (or the PostgreSQL ``url``) against the fake Discord at
        ``discord_base`` with ``settings`` (keyword arguments of :class:`bot.Settings`; the bot's defaults
        otherwise); returns once it is logged in. RuntimeError with its standard error if it exits first."""
        root = Path(__file__).resolve().parent.parent
        command = [sys.executable, "-m", "tests.botprocess", "--discord", discord_base,
                   "--settings", json.dumps(settings or {})]  # fmt: skip
        command += ["--url", url] if url else ["--db", str(db)]
        process = await asyncio.create_subprocess_exec(
            *command, cwd=root, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            env={**os.environ, **(env or {})}, limit=16 * 1024 * 1024, start_new_session=True,
        )  # fmt: skip
        line = await process.stdout.readline()
        if not line:
            await process.wait()
            raise RuntimeError(f"the bot process exited ({process.returncode}) before it was ready")
        return cls(process)

    def send(self, event: str, data: dict) -> None:
        """Deliver the gateway event ``event`` with ``data`` to the bot."""
        self._write({"t": event, "d": data})

    def _write(self, message: dict) -> None:
        self.process.stdin.write(json.dumps(message).encode() + b"\n")

    async def settle(self) -> dict:
        """Wait until the bot has finished everything it started; returns ``{"rss_kb", "cpu_s", "answered"}`` as it
        then saw them (``answered``: see the module docstring)."""
        self._settles += 1
        self._write({"op": "settle", "id": self._settles})
        await self.process.stdin.drain()
        while True:
            line = await self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the bot process {self.pid} exited while settling")
            answer = json.loads(line)
            if answer.get("settled") == self._settles:
                return answer

    def profile(self, on: bool) -> None:
        """Start (``on``) or stop the bot's own profiling; nothing unless it was started with :data:`PROFILE` set."""
        self._write({"op": "profile", "on": on})

    def ready(self) -> None:
        """Dispatch ``on_ready`` (the scheduler's loop starts)."""
        self._write({"op": "ready"})

    def rss_kb(self) -> int:
        """The bot process's resident set size now, in KB."""
        return rss_kb(self.pid)

    def cpu_seconds(self) -> float:
        """The bot process's CPU time so far (user + system), in seconds."""
        return cpu_seconds(self.pid)

    def children_cpu_seconds(self) -> float:
        """The CPU time so far of the bot's child processes (its picture worker), in seconds."""
        return processes_cpu(children(self.pid))

    def children_rss_kb(self) -> int:
        """The resident memory of the bot's child processes now (its picture worker, the resource tracker), in KB."""
        return sum(_or_zero(rss_kb, child) for child in children(self.pid))

    async def stop(self) -> int:
        """Ask the bot to finish its work and close; returns its exit code."""
        if self.process.returncode is None:
            self._write({"op": "exit"})
            await self.process.stdin.drain()
            self.process.stdin.close()
        return await self.process.wait()

    async def kill(self) -> None:
        """SIGKILL the bot process and its picture worker (its process group, as a service manager stops it):
        nothing of its own is flushed or closed."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGKILL)
        await self.process.wait()


class Gateway:
    """The fake Discord's side for bot processes: the world on a server (:meth:`open`), one guild whose members
    (:meth:`member`) and channels (:meth:`channel`) exist there, and interactions sent to a chosen bot process
    (:meth:`command`, :meth:`press`), each answered in the world (its :class:`~tests.discord_fake.InteractionRecord`).
    Gateway events the world makes (threads created, updated) go to every attached process."""

    def __init__(self) -> None:
        from tests.discord_fake import FakeDiscordServer, World
        from tests.discordkit import BOT_ID, GUILD

        bot_user = {"id": str(BOT_ID), "username": "bgclub", "global_name": None, "discriminator": "0000",
                    "avatar": None, "bot": True, "verified": True, "mfa_enabled": False, "flags": 0}  # fmt: skip
        self.world = World(guild_id=GUILD, bot_user=bot_user, application_id=BOT_ID)
        self.world.gateway = self._gateway
        self.server = FakeDiscordServer(self.world)
        self.processes: list[BotProcess] = []
        self.members: dict[int, object] = {}
        self.base = ""
        self._ids = 100_000_000_000_000_000

    async def open(self) -> str:
        """Start the fake Discord; returns its API base URL (for :meth:`BotProcess.start`)."""
        self.base = await self.server.start()
        return self.base

    async def close(self) -> None:
        """Stop the fake Discord."""
        await self.server.stop()

    def attach(self, process: BotProcess) -> None:
        """``process`` receives the gateway's events from now on, starting with the guild (``GUILD_CREATE``)."""
        self.processes.append(process)
        process.send("GUILD_CREATE", self.guild_payload())

    def detach(self, process: BotProcess) -> None:
        """``process`` receives no more events (it was stopped or killed)."""
        self.processes.remove(process)

    def guild_payload(self) -> dict:
        """The guild as Discord sends it at connection (its channels and active threads)."""
        from tests.discordkit import Harness

        return Harness._guild_payload(self)  # type: ignore[arg-type]

    def _gateway(self, event: str, data: dict) -> None:
        for process in self.processes:
            process.send(event, data)

    def member(self, name: str):
        """A new member of the guild (:class:`tests.discordkit.Member`)."""
        from tests.discordkit import Member

        self._ids += 1
        member = Member(self._ids, name)
        self.members[member.id] = member
        self.world.users[member.id] = member.user_payload()
        return member

    def channel(self, name: str = "games") -> int:
        """A new text channel; returns its id."""
        channel = self.world.add_channel(name)
        self._gateway("CHANNEL_CREATE", channel)
        return int(channel["id"])

    def _interaction(self, user, channel_id: int, kind: int, data: dict, label: str):
        from tests.discordkit import Harness

        return Harness._base(self, user, channel_id, kind, data, label)  # type: ignore[arg-type]  # world, guild

    @property
    def guild(self) -> int:
        """The guild's id."""
        return self.world.guild_id

    def command(self, process: BotProcess, user, group: str, name: str, channel_id: int, options: list[dict],
                resolved: dict | None = None):  # fmt: skip
        """Send ``/group name`` with raw ``options`` (Discord's option objects) to ``process``; returns the
        interaction's record (answered in the world as the bot answers)."""
        data = {"id": str(self.world.snowflake()), "name": group, "type": 1,
                "options": [{"type": 1, "name": name, "options": options}]}  # fmt: skip
        if resolved:
            data["resolved"] = resolved
        payload, record = self._interaction(user, channel_id, 2, data, f"/{group} {name}")
        record.sent_at = time.monotonic()
        process.send("INTERACTION_CREATE", payload)
        return record

    def challenge(self, process: BotProcess, user, opponent, channel_id: int, length: str = "money"):
        """``user`` runs ``/bg challenge opponent length`` through ``process``; returns the record."""
        resolved = {"users": {str(opponent.id): opponent.user_payload()},
                    "members": {str(opponent.id): opponent.member_payload(with_user=False)}}  # fmt: skip
        options = [{"type": 6, "name": "opponent", "value": str(opponent.id)},
                   {"type": 3, "name": "length", "value": length}]  # fmt: skip
        return self.command(process, user, "bg", "challenge", channel_id, options, resolved)

    def press(self, process: BotProcess, user, message_id: int, custom_id: str, values: list[str] | None = None):
        """``user`` presses the component ``custom_id`` of message ``message_id`` (choosing ``values`` in a
        select) through ``process``; returns the record."""
        import copy

        message = self.world.messages[message_id]
        kind = next(item["type"] for row in message.get("components") or [] for item in row["components"]
                    if item.get("custom_id") == custom_id)  # fmt: skip
        data: dict = {"custom_id": custom_id, "component_type": kind}
        if kind == 3:
            data["values"] = list(values or [])
        payload, record = self._interaction(user, int(message["channel_id"]), 3, data, f"component {custom_id}")
        payload["message"] = copy.deepcopy(message)
        record.message_id = message_id
        record.sent_at = time.monotonic()
        process.send("INTERACTION_CREATE", payload)
        return record

    async def open_games(self, process: BotProcess, pairs: list, channel_id: int) -> None:
        """Each ``(challenger, challenged)`` of ``pairs`` plays a money session through ``process``: ``/bg challenge``
        in ``channel_id``, then *Accept* on the challenge (its thread and first board). Returns once the bot has
        finished."""
        known = set(self.boards("t:m:"))
        for challenger, challenged in pairs:
            self.challenge(process, challenger, challenged, channel_id)
        await process.settle()
        for match_id, message in self.boards("t:m:").items():
            if match_id not in known:  # a new challenge: the member it mentions accepts
                member = self.members[int(MENTION.search(message["content"]).group(1))]
                accept = next(c for c in self.custom_ids(message) if c.endswith(":accept"))
                self.press(process, member, int(message["id"]), accept)
        await process.settle()

    @staticmethod
    def custom_ids(message: dict) -> list[str]:
        """The custom_id of every component of ``message`` (a message's JSON)."""
        return [item["custom_id"] for row in message.get("components") or [] for item in row.get("components") or []
                if item.get("custom_id")]  # fmt: skip

    def boards(self, prefix: str) -> dict[int, dict]:
        """The newest message carrying a component whose custom_id starts with ``prefix`` + ``<table id>:``, by
        table id (``"t:m:"``: each match's live board or challenge)."""
        found: dict[int, dict] = {}
        for message in self.world.messages.values():
            for custom_id in self.custom_ids(message):
                if custom_id.startswith(prefix):
                    found[int(custom_id[len(prefix) :].split(":")[0])] = message
        return found


PROFILE = "BGCLUB_PROFILE"
"""Environment variable: when set to a file name, the bot process profiles itself with :mod:`cProfile` between the
control lines ``{"op": "profile", "on": true}`` and ``… false}`` (:meth:`BotProcess.profile`; ``bench.load`` sends
them around its bursts) and writes the statistics there as it exits (``BGCLUB_PROFILE=/tmp/bot.prof python -m
bench.load``; read them with ``python -m pstats``)."""


def main() -> None:
    """The child's entry point (``python -m tests.botprocess``)."""
    parser = argparse.ArgumentParser(description="the bot, its gateway on standard input (tests/botprocess.py)")
    parser.add_argument("--discord", required=True, help="the fake Discord's API base URL")
    parser.add_argument("--db", default="", help="SQLite database file")
    parser.add_argument("--url", default="", help="PostgreSQL URL (instead of --db)")
    parser.add_argument("--settings", default="{}", help="bot.Settings keyword arguments, as JSON")
    args = parser.parse_args()
    args.profile = None
    if os.environ.get(PROFILE):
        import cProfile

        args.profile = cProfile.Profile(time.thread_time)  # the event loop's own CPU time, not waits
    try:
        asyncio.run(_child(args))
    finally:
        if args.profile is not None:
            args.profile.dump_stats(os.environ[PROFILE])


if __name__ == "__main__":
    main()
