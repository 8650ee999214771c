"""The layering of the packages: the core is pure (it imports only the standard library and
itself, never a satellite); every other package imports only the packages of the layers below
it (:data:`ALLOWED`); and no package has an import cycle between its modules."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import rummikub
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


# ------------------------------------------------------------------ every package's layer
SRC = Path(rummikub.__file__).parent

#: The allowed imports between the top-level packages of ``rummikub``, layer by layer from the
#: bottom: the core (standard library only); the message catalogue; the two games' logic
#: beside the core (the tile solver, the dice game, whose evaluation plays its playouts with
#: the solver's compiled kernel when the ``solver`` extra is installed: imported lazily, and
#: never the reverse); the registry of the games; the bots;
#: the conformance suite; the two front ends (terminal, web server); the command line on top.
#: A package may import only what is listed here (the core never a satellite, nothing the
#: command line, nothing but the command line a front end); ``rummikub`` itself re-exports
#: the core. Imports of ``rummikub`` count as imports of the core.
ALLOWED: dict[str, frozenset[str]] = {
    "core": frozenset(),
    "i18n": frozenset({"core"}),
    "solver": frozenset({"core"}),
    "xpress": frozenset({"core", "i18n", "solver"}),
    "games": frozenset({"core", "xpress"}),
    "bots": frozenset({"core", "solver", "xpress", "games"}),
    "testing": frozenset({"core", "games", "bots"}),
    "analysis": frozenset({"core", "solver", "xpress", "games", "bots"}),
    "envs": frozenset({"core", "solver", "xpress", "games", "bots"}),
    "ratings": frozenset({"core", "games", "bots"}),
    # puzzles: found in records and self-play games (bots), checked by the engine and solver
    "puzzles": frozenset({"core", "solver", "games", "bots"}),
    "tui": frozenset({"core", "i18n", "solver", "xpress", "games", "bots", "analysis"})
    | {"puzzles"},
    "server": frozenset({"core", "i18n", "solver", "xpress", "games", "bots", "analysis"})
    | {"ratings", "puzzles"},
    "cli": frozenset({"core", "i18n", "solver", "xpress", "games", "bots", "analysis", "tui"})
    | {"server", "ratings", "puzzles"},
    "__main__": frozenset({"core", "cli"}),  # python -m rummikub: the command line
}
ROOT = "rummikub"  # the package's own __init__: the core re-exported
ALLOWED_FROM_ROOT = frozenset({"core"})

#: packages whose modules import each other in a cycle, with why (none since issue 11 untangled
#: the command line and the terminal UI); a package listed here has its cycle test marked as a
#: strict expected failure, which fails the day the cycle is gone
KNOWN_CYCLES: dict[str, str] = {}


def module_name(path: Path, src: Path = SRC) -> str:
    """The dotted name of the module in ``path`` (a package's ``__init__`` is the package)."""
    parts = list(path.relative_to(src.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` except what an ``if TYPE_CHECKING:`` block holds (annotations
    only: never imported at run time). Imports inside functions count: they run."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                yield child
                yield from _runtime_nodes(child)
            continue
        yield node
        yield from _runtime_nodes(node)


def module_imports(
    path: Path, modules: set[str], src: Path = SRC, *, runtime_only: bool = False
) -> set[str]:
    """The ``rummikub`` modules that ``path`` imports, relative imports resolved; ``from pkg
    import name`` counts as importing ``pkg.name`` when that is a module (in ``modules``)."""
    name = module_name(path, src)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    nodes = _runtime_nodes(tree) if runtime_only else ast.walk(tree)
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            subs = {f"{target}.{alias.name}" for alias in node.names} & modules
            # ``from . import x`` (x a module) imports x, not the package's __init__ again
            if not subs or node.module:
                out.add(target)
            out.update(subs)
    return {m for m in out if m == ROOT or m.startswith(ROOT + ".")}


def all_modules(src: Path = SRC) -> dict[str, Path]:
    return {module_name(p, src): p for p in sorted(src.rglob("*.py"))}


def top_package(module: str) -> str:
    """``core`` for ``rummikub.core.melds``; ``rummikub`` for the root package."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ROOT


def packages() -> list[str]:
    """Every top-level package (or module) of ``rummikub`` on disk."""
    found = {top_package(m) for m in all_modules()} - {ROOT}
    assert found, "no packages found"
    return sorted(found)


def test_every_package_has_its_place_in_the_layers() -> None:
    missing = set(packages()) - set(ALLOWED)
    assert not missing, f"add {sorted(missing)} to ALLOWED (which packages may it import?)"


def layer_order(allowed: dict[str, frozenset[str]]) -> list[str]:
    """The parts of ``allowed`` (part -> the parts it may import) from the bottom, each placed
    above all it may import; fails naming the parts left when they import each other in a
    cycle."""
    placed: list[str] = []
    while len(placed) < len(allowed):
        ready = [p for p in allowed if p not in placed and allowed[p] <= set(placed)]
        assert ready, f"the allowed imports have a cycle among {set(allowed) - set(placed)}"
        placed.extend(sorted(ready))
    return placed


def test_layer_order_finds_a_cycle() -> None:
    assert layer_order({"a": frozenset(), "b": frozenset({"a"})}) == ["a", "b"]
    with pytest.raises(AssertionError, match="cycle"):
        layer_order({"a": frozenset({"b"}), "b": frozenset({"a"})})


def test_the_allowed_imports_are_layered() -> None:
    for package, allowed in ALLOWED.items():
        assert package not in allowed
        assert set(allowed) <= set(ALLOWED), package
        # only the command's own entry point (python -m rummikub) runs the command line
        assert "cli" not in allowed or package == "__main__", (
            f"{package} may not import the command line"
        )
        if package != "cli":
            assert not allowed & {"tui", "server"}, f"only the command line imports {package}"
        if package != "core":
            assert "core" in allowed, package
    assert not ALLOWED["core"]
    # no cycle between packages: every package can be put above all it imports
    assert set(layer_order(ALLOWED)) == set(ALLOWED)


def layer_violations(package: str, src: Path = SRC) -> list[str]:
    """Every import in ``package`` (at run time or for type checking) of a ``rummikub`` package
    that :data:`ALLOWED` does not list for it."""
    modules = all_modules(src)
    allowed = ALLOWED[package]
    out = []
    for name, path in modules.items():
        if top_package(name) != package:
            continue
        for imported in sorted(module_imports(path, set(modules), src)):
            target = top_package(imported)
            target = "core" if target == ROOT else target
            if target != package and target not in allowed:
                out.append(f"{name} imports {imported}")
    return out


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_follow_the_layers(package: str) -> None:
    allowed = ", ".join(sorted(ALLOWED[package])) or "the standard library"
    assert layer_violations(package) == [], f"{package} may import only {allowed}"


def test_the_layer_check_catches_a_bad_import(tmp_path: Path) -> None:
    root = tmp_path / ROOT
    for package in ("core", "solver", "bots"):
        (root / package).mkdir(parents=True)
        (root / package / "__init__.py").write_text("")
    (root / "__init__.py").write_text("from .core import x\n")
    (root / "core" / "x.py").write_text("def f() -> None:\n    from ..solver import y\n")
    (root / "solver" / "y.py").write_text("import rummikub\nfrom rummikub.bots import z\n")
    (root / "bots" / "z.py").write_text("from rummikub.solver.y import Y\nfrom .. import core\n")
    assert layer_violations("core", root) == [
        f"{ROOT}.core.x imports {ROOT}.solver",  # the package's __init__ runs first
        f"{ROOT}.core.x imports {ROOT}.solver.y",
    ]
    assert layer_violations("solver", root) == [
        f"{ROOT}.solver.y imports {ROOT}.bots",
        f"{ROOT}.solver.y imports {ROOT}.bots.z",
    ]
    assert layer_violations("bots", root) == []


def test_the_root_package_reexports_the_core_only() -> None:
    modules = all_modules()
    imported = {top_package(m) for m in module_imports(SRC / "__init__.py", set(modules))}
    assert imported <= ALLOWED_FROM_ROOT


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` (module -> modules it imports): its strongly connected
    components of more than one module (Tarjan), each sorted, or a module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v] & graph.keys()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def package_graph(package: str, src: Path = SRC) -> dict[str, set[str]]:
    """The run-time imports between the modules of ``package``; its own ``__init__`` (the
    facade that re-exports its modules) is left out, a subpackage's is kept."""
    modules = all_modules(src)
    inside = {m for m in modules if m.startswith(f"{ROOT}.{package}.")}
    return {
        m: module_imports(modules[m], set(modules), src, runtime_only=True) & inside for m in inside
    }


@pytest.mark.parametrize(
    "package",
    [
        pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=KNOWN_CYCLES[p]))
        if p in KNOWN_CYCLES
        else p
        for p in sorted(ALLOWED)
    ],
)
def test_no_import_cycle_between_the_modules_of(package: str) -> None:
    assert package in packages(), f"no package {package}"
    assert import_cycles(package_graph(package)) == []


def test_the_cycle_check_finds_cycles(tmp_path: Path) -> None:
    pkg = tmp_path / ROOT / "game"
    (pkg / "sub").mkdir(parents=True)
    (tmp_path / ROOT / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from .a import A\nfrom .c import C\n")
    (pkg / "a.py").write_text("from .b import B\nA = 1\n")
    (pkg / "b.py").write_text("B = 2\n\ndef later() -> None:\n    from . import a\n")
    (pkg / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import D\nC = 3\n"
    )
    (pkg / "d.py").write_text("from rummikub.game.c import C\nfrom .sub.e import E\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "e.py").write_text("from ..d import D\nE = 5\n")
    graph = package_graph("game", tmp_path / ROOT)
    assert graph[f"{ROOT}.game.b"] == {f"{ROOT}.game.a"}  # a lazy import counts
    assert graph[f"{ROOT}.game.c"] == set()  # one for type checking does not
    assert import_cycles(graph) == [
        [f"{ROOT}.game.a", f"{ROOT}.game.b"],
        [f"{ROOT}.game.d", f"{ROOT}.game.sub.e"],
    ]
    assert import_cycles({"x": {"x"}}) == [["x"]]
    assert import_cycles({"x": {"y"}, "y": set()}) == []


# ------------------------------------------------------------------ the server's own layers
SERVER = "server"
#: the part of ``rummikub.server`` that is its own ``__init__`` (the public names, imported
#: when first used)
SERVER_ROOT = "__init__"

#: The allowed imports between the parts of :mod:`rummikub.server` (its subpackages and its
#: top-level modules), layer by layer from the bottom: the wire protocol and the database's
#: tables and store; the accounts (on the store); rooms and seats, synchronous and free of I/O;
#: the worker processes (they run the rooms' games); the running room (connections, store
#: before effect, clocks and bots, turns, broadcast); beside each other the handlers of what
#: clients ask and the cluster; the migrations (on the tables and the accounts); the room
#: manager, which wires them all; the web side on top, and the package's ``__init__`` that
#: names it. A part may import only what is listed here, exactly what it does import today:
#: a new import of another layer is a decision, made here.
SERVER_ALLOWED: dict[str, frozenset[str]] = {
    "protocol": frozenset(),
    "storage": frozenset(),
    "accounts": frozenset({"storage"}),
    "rooms": frozenset({"protocol", "accounts"}),
    "work": frozenset({"rooms"}),
    "runtime": frozenset({"protocol", "storage", "accounts", "rooms", "work"}),
    "handlers": frozenset({"protocol", "storage", "accounts", "rooms", "work", "runtime"}),
    "cluster": frozenset({"protocol", "storage", "accounts", "rooms", "runtime"}),
    "migrations": frozenset({"storage", "accounts"}),
    "manager": frozenset({"protocol", "storage", "accounts", "rooms", "work", "runtime"})
    | {"handlers", "cluster"},
    "web": frozenset({"protocol", "storage", "accounts", "work", "runtime", "handlers"})
    | {"manager"},
    SERVER_ROOT: frozenset({"web"}),
}


def server_part(module: str, package: str = SERVER) -> str | None:
    """The part of ``rummikub.<package>`` that ``module`` is in: ``runtime`` for
    ``rummikub.server.runtime.turns``, ``manager`` for ``rummikub.server.manager``,
    :data:`SERVER_ROOT` for the package itself, ``None`` outside it."""
    parts = module.split(".")
    if parts[:2] != [ROOT, package]:
        return None
    return parts[2] if len(parts) > 2 else SERVER_ROOT


def server_parts(src: Path = SRC, package: str = SERVER) -> set[str]:
    """Every part of ``rummikub.<package>`` on disk."""
    return {p for m in all_modules(src) if (p := server_part(m, package)) is not None}


def server_layer_violations(
    part: str,
    src: Path = SRC,
    *,
    package: str = SERVER,
    allowed: dict[str, frozenset[str]] = SERVER_ALLOWED,
) -> list[str]:
    """Every import in ``part`` (at run time or for type checking) of another part of the
    server that ``allowed`` does not list for it."""
    modules = all_modules(src)
    out = []
    for name, path in modules.items():
        if server_part(name, package) != part:
            continue
        for imported in sorted(module_imports(path, set(modules), src)):
            target = server_part(imported, package)
            if target is not None and target != part and target not in allowed[part]:
                out.append(f"{name} imports {imported}")
    return out


def test_every_part_of_the_server_has_its_place_in_its_layers() -> None:
    parts = server_parts()
    missing = parts - set(SERVER_ALLOWED)
    assert not missing, f"add {sorted(missing)} to SERVER_ALLOWED (which parts may it import?)"
    gone = set(SERVER_ALLOWED) - parts
    assert not gone, f"SERVER_ALLOWED names {sorted(gone)}, which the server no longer has"


def test_the_server_layers_have_no_cycle() -> None:
    for part, allowed in SERVER_ALLOWED.items():
        assert part not in allowed
        assert set(allowed) <= set(SERVER_ALLOWED), part
        assert SERVER_ROOT not in allowed, f"{part} imports rummikub.server itself"
        if part != SERVER_ROOT:
            assert "web" not in allowed, "only the package's __init__ imports the web side"
        if part not in ("web", SERVER_ROOT):
            assert "manager" not in allowed, f"only the web side drives the manager ({part})"
    assert set(layer_order(SERVER_ALLOWED)) == set(SERVER_ALLOWED)


@pytest.mark.parametrize("part", sorted(SERVER_ALLOWED))
def test_server_imports_follow_the_layers(part: str) -> None:
    allowed = ", ".join(sorted(SERVER_ALLOWED[part])) or "no other part of the server"
    assert server_layer_violations(part) == [], f"server.{part} may import only {allowed}"


def test_the_server_layer_check_catches_a_bad_import(tmp_path: Path) -> None:
    root = tmp_path / ROOT
    server = root / SERVER
    for part in ("protocol", "rooms", "web"):
        (server / part).mkdir(parents=True)
        (server / part / "__init__.py").write_text("")
    (root / "__init__.py").write_text("")
    (server / "__init__.py").write_text("def later() -> None:\n    from .web import app\n")
    (server / "protocol" / "codes.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..rooms import room\n"
    )
    (server / "rooms" / "room.py").write_text("from ..protocol.codes import X\nimport rummikub\n")
    (server / "web" / "app.py").write_text("from rummikub.server.rooms.room import Room\n")
    (server / "manager.py").write_text("from .web import app\n")
    allowed = {
        "protocol": frozenset(),
        "rooms": frozenset({"protocol"}),
        "web": frozenset({"protocol"}),
        "manager": frozenset({"rooms"}),
        SERVER_ROOT: frozenset({"web"}),
    }
    assert server_parts(root) == set(allowed)

    def violations(part: str) -> list[str]:
        return server_layer_violations(part, root, allowed=allowed)

    s = f"{ROOT}.{SERVER}"
    # an import for type checking counts: the layers are the code's, not only the run's
    assert violations("protocol") == [
        f"{s}.protocol.codes imports {s}.rooms",  # the package's __init__ runs first
        f"{s}.protocol.codes imports {s}.rooms.room",
    ]
    assert violations("rooms") == []
    assert violations("web") == [f"{s}.web.app imports {s}.rooms.room"]
    assert violations("manager") == [
        f"{s}.manager imports {s}.web",
        f"{s}.manager imports {s}.web.app",
    ]
    assert violations(SERVER_ROOT) == []
