"""Loading the compiled kernels ahead of the first question."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from numba.core.registry import CPUDispatcher

import rummikub.solver
from rummikub.solver import fast
from rummikub.solver.kernel import KERNEL_FILES, _drop_stale_kernels
from rummikub.solver.warm import warm_up

#: kernels only ever called by other kernels (compiled into their callers, never on their own)
INNER = {"kernel._dominated", "kernel._kernel", "xpress._greedy", "xpress._low"}


def test_warm_up_runs_every_compiled_kernel() -> None:
    assert fast.available()  # the test environment installs the solver extra (Numba)
    took = warm_up()
    assert took > 0
    kernels = {
        f"{info.name}.{name}": value
        for info in pkgutil.iter_modules(rummikub.solver.__path__)
        for name, value in vars(importlib.import_module(f"rummikub.solver.{info.name}")).items()
        if isinstance(value, CPUDispatcher)
    }
    assert {"kernel._drive", "walk._walk", "counts._placed", "xpress.play_round"} <= set(kernels)
    assert set(kernels) >= INNER
    for name, kernel in kernels.items():
        if name in INNER:
            continue
        # compiled or loaded for the solver's argument types: no first search compiles it
        assert kernel.signatures, name


def test_every_file_with_kernels_is_watched_for_stale_caches() -> None:
    holders = {
        info.name + ".py"
        for info in pkgutil.iter_modules(rummikub.solver.__path__)
        for v in vars(importlib.import_module(f"rummikub.solver.{info.name}")).values()
        if isinstance(v, CPUDispatcher) and v.py_func.__module__.endswith(f".{info.name}")
    }
    assert holders == set(KERNEL_FILES)


def test_cached_kernels_are_dropped_when_a_kernel_file_changed(tmp_path: Path) -> None:
    for name in KERNEL_FILES:
        (tmp_path / name).write_text(f"# {name}\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()

    def cached() -> set[str]:
        return {p.name for p in cache.iterdir() if p.suffix in (".nbi", ".nbc", ".pyc")}

    stale = {"kernel._drive_py-1.py311.nbi", "counts._placed_py-2.py311.1.nbc", "walk.cpython.pyc"}
    for name in stale:
        (cache / name).write_text("")
    _drop_stale_kernels(tmp_path)  # no digest kept yet: nothing says the cache is fresh
    assert cached() == {"walk.cpython.pyc"}  # Python's own cache is left alone
    (cache / "counts._placed_py-2.py311.1.nbc").write_text("")
    _drop_stale_kernels(tmp_path)  # the same sources: kept
    assert cached() == {"walk.cpython.pyc", "counts._placed_py-2.py311.1.nbc"}
    (tmp_path / "kernel.py").write_text("# kernel.py, changed\n")
    _drop_stale_kernels(tmp_path)  # counts.py is unchanged, but what it calls changed
    assert cached() == {"walk.cpython.pyc"}
