"""The package as users install it: the built wheel in fresh virtual environments, with no
extra and with each extra, and every documented command run in them.

The plain install goes through pip, as the README tells users to install; the extras are
installed with uv (from the same index and the same metadata: the wheel's extras and their
requirements decide what lands in the environment), which takes seconds where pip takes most of a
minute per extra (42 s against 2-6 s for ``[solver]`` measured on 2026-12-03).

Without an extra the library and the commands that need no numpy work (``replay``,
``simulate`` with beginner bots or ``--game xpress``, ``xpress replay`` as text); every other
command prints one line naming the extra to install (no traceback). With an extra, its
commands work: the extras go into a second environment one after another (``[solver]``, then
``[tui]``, then ``[server]``), each checked before the next comes, so the solver's kernels are
compiled once, not once an extra (a minute of a busy machine each); that each extra brings the
solver is read from the wheel's metadata.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import pytest
from filelock import FileLock

from rummikub.i18n import LANGUAGES
from tests.server.helpers import Client, free_port

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow

#: Everything a test needs to run a command in the environment and look at what it printed.
Run = tuple[int, str, str]


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built once for the whole run: under ``pytest -n`` the first test process to
    need it builds it while the others wait on a lock in the run's temporary directory."""
    if "PYTEST_XDIST_WORKER" not in os.environ:  # one process: its own directory
        return _build_wheel(tmp_path_factory, tmp_path_factory.mktemp("wheel"))
    shared = tmp_path_factory.getbasetemp().parent  # this run's, above each process's
    with FileLock(shared / "wheel.lock"):
        built = sorted((shared / "wheel").glob("rummikub-*.whl"))
        if built:
            return built[0]
        return _build_wheel(tmp_path_factory, shared / "wheel")


def _build_wheel(tmp_path_factory: pytest.TempPathFactory, out: Path) -> Path:
    """The wheel, built into ``out`` from a copy of the source (a build writes into its tree)."""
    source = tmp_path_factory.mktemp("source") / "rummikub"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "tests"
        ),
    )
    out.mkdir(exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (found,) = out.glob("rummikub-*.whl")
    return found


def _uv() -> str:
    """The ``uv`` program of the test environment (the ``test`` extra installs it)."""
    found = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    assert found is not None, "uv is missing: pip install -e '.[test]'"
    return found


class Env:
    """A fresh virtual environment with the wheel installed (``extra``: one of its extras),
    by pip for the plain install and by uv for an extra (the module docstring says why)."""

    def __init__(self, root: Path, wheel: Path, extra: str | None) -> None:
        self.root = root
        self.wheel = wheel
        subprocess.run([sys.executable, "-m", "venv", str(root)], check=True)
        if extra is None:
            command = [self.bin("python"), "-m", "pip", "install", "-q"]
            command += ["--disable-pip-version-check", str(wheel)]
            done = subprocess.run(command, capture_output=True, text=True)
            assert done.returncode == 0, done.stderr[-3000:]
        else:
            self.add(extra)
        self.work = root / "work"
        self.work.mkdir()

    def add(self, extra: str) -> None:
        """Install the wheel with ``extra`` (by uv) into the environment."""
        command = [_uv(), "pip", "install", "-q", "--python", self.bin("python")]
        if extra == "server":
            # compiled to bytecode as pip does: the server's processes run with -B and would
            # otherwise compile every imported module anew (the other extras' commands compile
            # what they import once, as they run: 6 s less to install)
            command.append("--compile-bytecode")
        command += [f"{self.wheel}[{extra}]"]
        done = subprocess.run(command, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-3000:]

    def bin(self, name: str) -> str:
        return str(self.root / ("Scripts" if os.name == "nt" else "bin") / name)

    def run(self, *args: str, stdin: str = "") -> Run:
        """``rummikub ARGS`` in the environment (output piped, as in a script)."""
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        env["XDG_DATA_HOME"] = str(self.work)
        done = subprocess.run(
            [self.bin("rummikub"), *args],
            cwd=self.work,
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
        )
        return done.returncode, done.stdout, done.stderr

    def python(self, code: str) -> Run:
        done = subprocess.run(
            [self.bin("python"), "-c", code], cwd=self.work, capture_output=True, text=True
        )
        return done.returncode, done.stdout, done.stderr


def ok(result: Run) -> str:
    code, out, err = result
    assert code == 0, (out[-2000:], err[-2000:])
    return out


def names_extra(result: Run, extra: str) -> None:
    """The command stopped with one line naming the extra to install."""
    code, out, err = result
    assert code != 0, out
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert f"pip install 'rummikub[{extra}]'" in lines[0]
    assert "Traceback" not in err + out


SOLVE = ("solve", "--table", "R1 R2 R3 | K5 B5 O5", "--rack", "R4 J K1")
GREEDY = ("simulate", "--players", "2", "--games", "1", "--bots", "greedy", "--out", "g.jsonl")


def test_the_plain_install_is_the_library_and_the_commands_without_numpy(
    wheel: Path, tmp_path: Path
) -> None:
    env = Env(tmp_path / "venv", wheel, None)
    # the library: the rules engine, standard library only (numpy is not there)
    out = ok(
        env.python(
            "import importlib.util as u\n"
            "from rummikub import Match, Draw, preset, read_meld, Meld\n"
            "print(read_meld(Meld.parse('R5 J J')).meld)\n"
            "m = Match(preset('standard'), ['Ann', 'Bob'], seed=1)\n"
            "m.act(Draw())\n"
            "print(u.find_spec('numpy') is None, u.find_spec('textual') is None)\n"
        )
    )
    assert out.split("\n")[:2] == ["R5 J=R6 J=R7", "True True"]
    assert "simulate" in ok(env.run("--help"))
    # commands that need no extra
    sim = ("simulate", "--players", "2", "--games", "2", "--seed", "1", "--out", "games.jsonl")
    ok(env.run(*sim))
    assert "2 records verified" in ok(env.run("replay", "--verify", "games.jsonl"))
    xpress = ("simulate", "--game", "xpress", "--bots", "greedy", "--games", "1", "--seed", "1")
    ok(env.run(*xpress, "--out", "x.jsonl"))
    assert "Round 1" in ok(env.run("xpress", "replay", "x.jsonl"))
    ok(env.run("replay", "--verify", "x.jsonl"))
    # the others say which extra they need, in one line
    names_extra(env.run(*SOLVE), "solver")
    names_extra(env.run(*GREEDY), "solver")
    names_extra(
        env.run("tournament", "--bots", "greedy,beginner", "--players", "2", "--games", "2"),
        "solver",
    )
    names_extra(env.run("bot", "--cmd", "python bot.py", "--against", "expert"), "solver")
    names_extra(env.run("play"), "tui")
    names_extra(env.run("xpress", "play"), "tui")
    names_extra(env.run("serve"), "server")


def test_every_extra_that_runs_bots_brings_the_solver(wheel: Path) -> None:
    """The wheel's metadata: ``[tui]``, ``[server]`` and ``[envs]`` require ``rummikub[solver]``
    (the test below installs them on top of it, so it would not see one that did not)."""
    with zipfile.ZipFile(wheel) as whl:
        (name,) = [n for n in whl.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = whl.read(name).decode()
    requires = re.findall(r"^Requires-Dist: (.+)$", metadata, re.MULTILINE)
    for extra in ("tui", "server", "envs"):
        assert f'rummikub[solver]; extra == "{extra}"' in requires, (extra, requires)
    assert 'numba>=0.60; extra == "solver"' in requires, requires


def test_the_extras(wheel: Path, tmp_path: Path) -> None:
    env = Env(tmp_path / "venv", wheel, "solver")
    out = ok(env.run(*SOLVE))
    assert out.startswith("Play 3 tiles: ") and "J=1" in out
    ok(env.run(*GREEDY))
    assert "verified" in ok(env.run("replay", "--verify", "g.jsonl"))
    names_extra(env.run("play"), "tui")
    names_extra(env.run("serve"), "server")
    # [tui] added
    env.add("tui")
    ok(env.python("import rummikub.tui, rummikub.tui.xpress_app, rummikub.solver.fast"))
    # `play` gets past its imports and its solver check to the file it was asked to resume
    code, _out, err = env.run("play", "--resume", "missing.json")
    assert code == 1 and err.strip() == "error: cannot resume missing.json: there is no such file"
    assert "--resume" in ok(env.run("play", "--help"))
    names_extra(env.run("serve"), "server")
    # [server] added
    env.add("server")
    ok(env.python("from rummikub.server import create_app\nimport rummikub.solver.fast"))
    assert "--port" in ok(env.run("serve", "--help"))
    # every file of the web client is in the wheel
    static = ROOT / "src" / "rummikub" / "server" / "web" / "static"
    with zipfile.ZipFile(wheel) as whl:
        packed = set(whl.namelist())
    for f in static.rglob("*"):
        if f.is_file():
            assert f"rummikub/{f.relative_to(ROOT / 'src' / 'rummikub').as_posix()}" in packed, f
    # `rummikub serve` from the installed wheel, with its default database in a fresh data
    # directory: a game against a solver bot, and every file the pages reference
    with Serving(env) as base:
        room = play_a_move_against_a_bot(base)
        assets = fetch_the_pages(base, ["/", f"/r/{room}", f"/replay/{room}"])
        # the catalogues the page loads by the language it lists (data-languages)
        catalogues = fetch_the_pages(base, [f"/i18n/{lang}.json" for lang in LANGUAGES])
    assert {"/static/favicon.svg", "/static/style.css", "/static/js/app.js"} <= assets
    assert len(catalogues) == len(LANGUAGES) >= 8


class Serving:
    """``rummikub serve`` of the environment on a free port; the base address while it runs."""

    def __init__(self, env: Env) -> None:
        self.env = env
        self.port = free_port()
        self.log = env.work / "serve.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> str:
        run_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        run_env["XDG_DATA_HOME"] = str(self.env.work / "data")
        run_env["RUMMIKUB_TEST_SEED"] = "7"  # a fixed deal (tests/server/conftest.py)
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [self.env.bin("rummikub"), "serve", "--port", str(self.port)],
                cwd=self.env.work,
                env=run_env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text(errors="replace")[-3000:]
            try:
                with urllib.request.urlopen(base + "/api/health", timeout=1) as r:
                    if r.status == 200:
                        return base
            except OSError:
                time.sleep(0.2)
        raise AssertionError("the server did not start: " + self.log.read_text()[-3000:])

    def __exit__(self, *exc: object) -> None:
        assert self.proc is not None
        self.proc.terminate()
        self.proc.wait(20)


def play_a_move_against_a_bot(base: str) -> str:
    """Create a room against a greedy bot (the solver plays it), draw, and wait for the bot to
    answer; the room's code."""
    c = Client(base.replace("http", "ws") + "/ws")
    try:
        seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
        joined = c.request(type="create", name="Ann", seats=seats, settings={"bot_delay": 0})
        assert joined["type"] == "joined", joined
        # the first bot move of a fresh install may wait for the solver's kernels to compile
        state = c.wait_state(
            lambda s: s["game"] is not None and s["game"]["current"] == 0, timeout=300
        )
        turn = state["game"]["turn"]
        assert c.request(type="draw")["type"] == "ok"
        # the bot has moved and it is our turn again
        after = c.wait_state(
            lambda s: s["game"]["turn"] >= turn + 2 and s["game"]["current"] == 0, timeout=300
        )
        log = after["game"]["log"]
        assert log[-1]["seat"] == 1 and {"seat": 0, "action": "draw"}.items() <= log[-2].items()
        return str(joined["room"])
    finally:
        c.close()


class _Refs(HTMLParser):
    """The files a page references: stylesheets, icons, scripts, images, and the languages of
    its language switch (each a catalogue the page fetches)."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        for key in ("href", "src"):
            value = a.get(key)
            if value and tag in ("link", "script", "img") and not value.startswith("http"):
                self.refs.append(value)
        if tag == "option" and a.get("value"):
            self.refs.append(f"/i18n/{a['value']}.json")


IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']+)["']""")
CSS_URL = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)""")


def fetch_the_pages(base: str, pages: list[str]) -> set[str]:
    """Fetch each page and every file it references, the scripts' imports and the styles'
    urls followed; each must answer 200. The paths fetched."""
    seen: set[str] = set()
    todo = list(pages)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        with urllib.request.urlopen(base + path, timeout=10) as r:
            assert r.status == 200, path
            body = r.read().decode()
        if path.endswith(".js"):
            found = IMPORT.findall(body)
        elif path.endswith(".css"):
            found = [u for u in CSS_URL.findall(body) if not u.startswith("data:")]
        elif path.endswith(".json") or path.endswith(".svg"):
            found = []
        else:
            parser = _Refs()
            parser.feed(body)
            found = parser.refs
        todo += [urljoin(base + path, ref).removeprefix(base) for ref in found]
    return seen
