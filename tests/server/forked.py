"""``rummikub serve`` processes forked from a warm parent, for the tests.

A server process spends most of its start importing (about 1,000 modules: FastAPI, SQLAlchemy,
pydantic, uvicorn, the package), 0.8 of its 1.1 CPU seconds, and the suite starts over a
hundred and fifty of them. So each test process keeps one *parent*: a Python process that has
imported the command line and the server once and, asked for a server, forks. The child is then
a server process like any other — its own pid, environment, working directory and log, the same
``rummikub serve`` command line run by :func:`rummikub.cli.main.main` — whose start is the
server's own work (the application, the database, the port). Only the imports are shared.

Run as ``python -m tests.server.forked EXITS``: it reads one request a line on its standard
input (JSON: ``args``, ``env``, ``cwd``, ``log``), answers the child's pid on its standard
output, and writes each child's exit code, when it has reaped it, to the file ``EXITS/<pid>``.
:func:`spawn` is the test processes' side (a :class:`Forked` works as the ``Popen`` it
replaces). Under coverage (``make coverage``: :data:`COVERAGE_ENV`) servers are started as
fresh processes, as coverage measures each process from its start.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import IO, Any

__all__ = ["Forked", "spawn"]

ROOT = Path(__file__).resolve().parents[2]
#: what the parent imports before it forks: the command line, the server and what uvicorn
#: loads when it starts (its protocols, its loop, the lifespan)
PRELOAD = (
    "rummikub.cli.main",
    "rummikub.cli.serve",
    "rummikub.server",
    "rummikub.server.web.run",
    "rummikub.server.web.app",
    "uvicorn.lifespan.on",
    "uvicorn.loops.auto",
    "uvicorn.loops.uvloop",
    "uvicorn.supervisors",
)


# -- the parent (its own process) ------------------------------------------------------------


def _parent(exits: Path) -> None:
    """Import, then fork a server for each request on standard input until it closes."""
    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)

    def reap(_signum: int, _frame: Any) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            done = exits / f"{pid}.tmp"
            done.write_text(str(os.waitstatus_to_exitcode(status)))
            done.replace(exits / str(pid))

    signal.signal(signal.SIGCHLD, reap)
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            _child(request)  # never returns
        sys.stdout.write(f"{pid}\n")
        sys.stdout.flush()


def _child(request: dict[str, Any]) -> None:
    """Become ``rummikub serve ARGS`` with the request's environment, directory and log."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        cli = importlib.import_module("rummikub.cli.main")
        sys.argv = [str(cli.__file__), *request["args"]]
        try:
            cli.main()
            code = 0
        except SystemExit as stop:
            if stop.code is None or isinstance(stop.code, int):
                code = stop.code or 0
            else:
                print(stop.code, file=sys.stderr)
        except KeyboardInterrupt:  # as Python ends on it: killed by the signal (-2)
            code = -signal.SIGINT
        except BaseException:
            traceback.print_exc()
        atexit._run_exitfuncs()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        if code < 0:
            signal.signal(-code, signal.SIG_DFL)
            os.kill(os.getpid(), -code)
        os._exit(code)


# -- the test processes' side ----------------------------------------------------------------


class Forked:
    """A server forked by the parent: ``poll``, ``wait``, ``send_signal``, ``terminate``,
    ``kill`` and ``pid`` as :class:`subprocess.Popen` has them (its exit code comes from the
    parent, which reaps it)."""

    def __init__(self, pid: int, exits: Path) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._exit = exits / str(pid)

    def poll(self) -> int | None:
        if self.returncode is None and self._exit.exists():
            self.returncode = int(self._exit.read_text())
            self._exit.unlink()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"server {self.pid}", timeout or 0)
            time.sleep(0.02)  # the parent writes the exit code as it reaps the process
        return code

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:  # not yet reaped: the pid is still this process's
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class _Parent:
    """This test process's parent process, started on first use."""

    def __init__(self) -> None:
        self.exits = Path(tempfile.mkdtemp(prefix="rummikub-forked-"))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.server.forked", str(self.exits)],
            cwd=ROOT,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.lock = threading.Lock()
        atexit.register(self.close)

    def fork(self, args: list[str], env: dict[str, str], log: Path) -> Forked:
        request = {"args": args, "env": env, "cwd": os.getcwd(), "log": str(log)}
        stdin: IO[str] | None = self.proc.stdin
        stdout: IO[str] | None = self.proc.stdout
        assert stdin is not None and stdout is not None
        with self.lock:
            stdin.write(json.dumps(request) + "\n")
            stdin.flush()
            answer = stdout.readline()
        if not answer.strip():
            raise RuntimeError(f"the servers' parent process ended ({self.proc.poll()})")
        return Forked(int(answer), self.exits)

    def close(self) -> None:
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(10)
        shutil.rmtree(self.exits, ignore_errors=True)


#: set in a process coverage measures (its subprocess patch, or the older way): then a server
#: starts as a fresh process, for coverage to measure it from its start
COVERAGE_ENV = {"COVERAGE_PROCESS_CONFIG", "COVERAGE_PROCESS_START"}

_parent_of_this_process: _Parent | None = None
_made = threading.Lock()


def spawn(args: list[str], env: dict[str, str], log: Path) -> Forked | subprocess.Popen[bytes]:
    """``rummikub ARGS`` (a ``serve`` command line) with the environment ``env``, its output
    appended to ``log``: forked from this test process's parent, or (under coverage) started
    as a fresh process."""
    global _parent_of_this_process
    if COVERAGE_ENV & env.keys():
        with log.open("ab") as out:
            return subprocess.Popen(
                [sys.executable, "-m", "rummikub.cli.main", *args],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
    with _made:
        if _parent_of_this_process is None or _parent_of_this_process.proc.poll() is not None:
            _parent_of_this_process = _Parent()
        parent = _parent_of_this_process
    return parent.fork(args, env, log)


if __name__ == "__main__":
    _parent(Path(sys.argv[1]))
