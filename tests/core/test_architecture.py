"""The core is pure: it imports only the standard library and itself, never a satellite."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import rummikub.core

CORE = Path(rummikub.core.__file__).parent
SATELLITES = {"solver", "bots", "cli", "tui", "server", "xpress"}
#: standard-library modules that would make the core impure (I/O clocks, randomness are
#: allowed only where documented: ``random`` in game.py for the seeded deal)
FORBIDDEN_STDLIB = {"time", "datetime", "socket", "subprocess", "threading", "asyncio", "os"}


def core_files() -> list[Path]:
    files = sorted(CORE.rglob("*.py"))
    assert files, "no core modules found"
    return files


def imports(path: Path) -> list[tuple[str, int]]:
    """(absolute module name, level) of every import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((alias.name, 0) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            out.append((node.module or "", node.level))
    return out


@pytest.mark.parametrize("path", core_files(), ids=lambda p: p.name)
def test_core_imports_only_stdlib_and_itself(path: Path) -> None:
    for module, level in imports(path):
        if level == 1:
            continue  # from .x import y: the core itself
        assert level == 0, f"{path.name}: relative import leaves the core ({'.' * level}{module})"
        top = module.split(".")[0]
        if top == "rummikub":
            assert module == "rummikub.core" or module.startswith("rummikub.core."), (
                f"{path.name} imports {module}"
            )
            continue
        assert top in sys.stdlib_module_names or top == "__future__", (
            f"{path.name} imports {module}, which is not in the standard library"
        )
        assert top not in FORBIDDEN_STDLIB, f"{path.name} imports {module}"


def test_no_satellite_is_imported_by_the_core() -> None:
    for path in core_files():
        for module, _ in imports(path):
            parts = module.split(".")
            assert not (parts[0] == "rummikub" and len(parts) > 1 and parts[1] in SATELLITES)
            assert not (len(parts) == 1 and parts[0] in SATELLITES), f"{path.name}: {module}"


def test_the_check_catches_a_bad_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import numpy\nfrom rummikub.bots import get_bot\nfrom ..cli import app\n")
    assert imports(bad) == [("numpy", 0), ("rummikub.bots", 0), ("cli", 2)]
    assert "numpy" not in sys.stdlib_module_names


def test_rummikub_reexports_the_core() -> None:
    import rummikub

    for name in rummikub.core.__all__:
        assert getattr(rummikub, name) is getattr(rummikub.core, name)
