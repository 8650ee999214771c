"""What the command line loads when it starts: ``rummikub --help`` imports no heavy package (the
commands import what they need when they run), and ``rummikub solve`` answers a small position
without loading the solver's compiled kernels. The times are measured by
``bench/startup.py``; these checks do not depend on the machine."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rummikub.core import Rack, Table
from rummikub.solver import solve
from rummikub.solver.dp import small_in_python

#: what no command needs to start (the solver's kernels, the terminal UI, the web server)
HEAVY = ("numba", "numpy", "textual", "fastapi", "sqlalchemy", "rummikub.solver", "rummikub.bots")


#: what the help needs neither (each command imports the rules and the catalogue as it runs:
#: some 50 ms of the help's start-up)
NOT_FOR_HELP = ("rummikub.core", "rummikub.i18n", "babel")


def _loaded_after(code: str, heavy: tuple[str, ...] = HEAVY) -> dict[str, object]:
    """Run ``code`` in a fresh Python and return which of ``heavy`` it left in ``sys.modules``
    (and what ``code`` put in ``out``)."""
    script = (
        "import json, sys\nout = None\n" + code + "\n"
        f"print(json.dumps({{'loaded': [m for m in {heavy!r} if m in sys.modules], 'out': out}}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=300
    )
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_importing_the_command_line_loads_no_heavy_package() -> None:
    assert _loaded_after("import rummikub.cli.main")["loaded"] == []


def test_the_help_loads_no_heavy_package() -> None:
    code = (
        "from typer.testing import CliRunner\n"
        "from rummikub.cli.main import app\n"
        "out = CliRunner().invoke(app, ['--help']).output"
    )
    seen = _loaded_after(code, HEAVY + NOT_FOR_HELP)
    assert seen["loaded"] == []
    assert "solve" in str(seen["out"])


def test_a_small_solve_does_not_load_the_compiled_kernels() -> None:
    code = (
        "from typer.testing import CliRunner\n"
        "from rummikub.cli.main import app\n"
        "args = ['solve', '--table', 'R1 R2 R3 | K5 B5 O5', '--rack', 'R4 J K1', '--lang', 'en']\n"
        "out = CliRunner().invoke(app, args).output"
    )
    seen = _loaded_after(code)
    loaded = seen["loaded"]
    assert isinstance(loaded, list) and "numba" not in loaded and "numpy" not in loaded
    assert str(seen["out"]).startswith("Play 3 tiles: K1 R4 J  (value 6")


@pytest.mark.parametrize(
    ("table", "rack"),
    [
        ("", "R1 R2 R3"),
        ("R1 R2 R3 | K5 B5 O5", "R4 J K1"),
        ("R1 R2 R3 | K5 B5 O5 | B9 B10 B11 B12 | K7 K8 J", "R4 K1 O9 R9 B13 K6 O10 O11"),
        ("K3 K4 K5 | R3 B3 O3", "K6 K7 R4 R5 B4 O4 J"),
    ],
)
def test_the_python_path_answers_as_well_as_the_kernel(table: str, rack: str) -> None:
    for opened in (True, False):
        for objective in ("tiles", "value"):
            kernel = solve(Table.parse(table), Rack.parse(rack), opened=opened, objective=objective)
            with small_in_python():
                plain = solve(
                    Table.parse(table), Rack.parse(rack), opened=opened, objective=objective
                )
            assert (plain.tiles, plain.value) == (kernel.tiles, kernel.value)
            assert sorted(map(str, plain.play)) == sorted(map(str, kernel.play))
