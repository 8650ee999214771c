"""Loading the compiled kernels ahead of the first question."""

from __future__ import annotations

import importlib
import pkgutil

from numba.core.registry import CPUDispatcher

import rummikub.solver
from rummikub.solver import fast
from rummikub.solver.warm import warm_up

#: kernels only ever called by other kernels (compiled into their callers, never on their own)
INNER = {"kernel._dominated", "kernel._expand", "kernel._kernel"}


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
    assert {"kernel._drive", "walk._walk", "counts._placed"} <= set(kernels)
    assert set(kernels) >= INNER
    for name, kernel in kernels.items():
        if name in INNER:
            continue
        # compiled or loaded for the solver's argument types: no first search compiles it
        assert kernel.signatures, name
