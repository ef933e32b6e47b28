"""A throwaway PostgreSQL server for the tests: ``initdb`` into a temporary folder, ``pg_ctl``
on a Unix socket in that folder (no TCP port), fsync off — one cluster per test session, a fresh database per test
copied from a template (``CREATE DATABASE … TEMPLATE``, a few milliseconds).

PostgreSQL refuses to run as root, and ``.ci/run`` runs as root: then the cluster belongs to the ``postgres`` user
(Debian's package creates it) and its commands run through ``runuser``. The server binaries are looked for in
``$PG_BINDIR``, then ``/usr/lib/postgresql/<version>/bin`` (Debian), then ``$PATH``. :func:`find_bindir` returns None
when there is no server; ``.ci/run`` installs Debian's ``postgresql`` package so that CI always has one.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path


def find_bindir() -> Path | None:
    """The folder of ``initdb``/``pg_ctl``/``postgres``, or None when no PostgreSQL server is installed."""
    candidates = [os.environ.get("PG_BINDIR", "")]
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name), reverse=True)
    found = shutil.which("initdb")
    if found:
        candidates.append(str(Path(found).parent))
    for folder in candidates:
        if folder and (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


class Cluster:
    """A running throwaway cluster: ``socket_dir`` (connect with ``host=socket_dir``), ``port``, ``user``.

    ``url(database)`` is a ``postgresql://`` URL for asyncpg. :meth:`stop` stops it and removes its folder."""

    def __init__(self, bindir: Path, *, port: int = 54329) -> None:
        self.bindir = bindir
        self.port = port
        self.user = "bg"
        self.root = Path(tempfile.mkdtemp(prefix="bg-pg-"))
        self.data = self.root / "data"
        self.socket_dir = self.root
        self._as = []
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            shutil.chown(self.root, "postgres", "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        result = subprocess.run([*self._as, *args], capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed: {result.stdout}\n{result.stderr}")

    def start(self) -> Cluster:
        """initdb and start the server (waits until it accepts connections). Raises ``RuntimeError`` if it fails."""
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", self.user, "-A", "trust", "--no-sync",
                  "-E", "UTF8", "--locale=C")  # fmt: skip
        options = (
            f"-k {self.socket_dir} -p {self.port} -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
            "-c full_page_writes=off -c max_connections=200 -c shared_buffers=32MB"
        )
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w",
                  "-t", "60", "start")  # fmt: skip
        return self

    def url(self, database: str = "postgres") -> str:
        """The asyncpg URL of ``database`` on this cluster (over its Unix socket)."""
        return f"postgresql://{self.user}@/{database}?host={self.socket_dir}&port={self.port}"

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove its folder."""
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
