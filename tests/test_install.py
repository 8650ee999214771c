"""The package as users install it: the built wheel in fresh virtual environments, with no
extra and with each extra, and every documented command run in them.

Without an extra the library and the commands that need no numpy work (``replay``,
``simulate`` with beginner bots or ``--game xpress``, ``xpress replay`` as text); every other
command prints one line naming the extra to install (no traceback). With an extra, its
commands work. Slow (pip installs numpy, numba, Textual, FastAPI...): one virtual environment
per extra, pip's own cache shared between them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow

#: Everything a test needs to run a command in the environment and look at what it printed.
Run = tuple[int, str, str]


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built from a copy of the source (a build writes into its tree, and test
    workers may build at the same time)."""
    source = tmp_path_factory.mktemp("source") / "rummikub"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "tests"
        ),
    )
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(source)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (found,) = out.glob("rummikub-*.whl")
    return found


class Env:
    """A fresh virtual environment with the wheel installed (``extra``: one of its extras)."""

    def __init__(self, root: Path, wheel: Path, extra: str | None) -> None:
        self.root = root
        subprocess.run([sys.executable, "-m", "venv", str(root)], check=True)
        target = f"{wheel}[{extra}]" if extra else str(wheel)
        done = subprocess.run(
            [
                self.bin("python"),
                "-m",
                "pip",
                "install",
                "-q",
                "--disable-pip-version-check",
                target,
            ],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        self.work = root / "work"
        self.work.mkdir()

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
    ok(env.run("simulate", "--game", "xpress", "--games", "1", "--seed", "1", "--out", "x.jsonl"))
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


def test_the_solver_extra(wheel: Path, tmp_path: Path) -> None:
    env = Env(tmp_path / "venv", wheel, "solver")
    out = ok(env.run(*SOLVE))
    assert out.startswith("Play 3 tiles: ") and "J=1" in out
    ok(env.run(*GREEDY))
    assert "verified" in ok(env.run("replay", "--verify", "g.jsonl"))
    names_extra(env.run("play"), "tui")
    names_extra(env.run("serve"), "server")


def test_the_tui_extra(wheel: Path, tmp_path: Path) -> None:
    env = Env(tmp_path / "venv", wheel, "tui")
    ok(env.python("import rummikub.tui, rummikub.tui.xpress_app, rummikub.solver.fast"))
    # `play` gets past its imports and its solver check to the file it was asked to resume
    code, _out, err = env.run("play", "--resume", "missing.json")
    assert code == 1 and err.strip() == "error: cannot resume missing.json: there is no such file"
    assert "--resume" in ok(env.run("play", "--help"))
    names_extra(env.run("serve"), "server")


def test_the_server_extra(wheel: Path, tmp_path: Path) -> None:
    env = Env(tmp_path / "venv", wheel, "server")
    ok(env.python("from rummikub.server import create_app\nimport rummikub.solver.fast"))
    assert "--port" in ok(env.run("serve", "--help"))
    names_extra(env.run("play"), "tui")
