"""Loading the compiled kernels ahead of the first question."""

from __future__ import annotations

from typing import Any

from rummikub.solver import fast
from rummikub.solver.kernel import _drive
from rummikub.solver.walk import _walk
from rummikub.solver.warm import warm_up


def test_warm_up_runs_every_compiled_kernel() -> None:
    assert fast.available()  # the test environment installs the solver extra (Numba)
    took = warm_up()
    assert took > 0
    kernels: tuple[Any, ...] = (_drive, _walk)
    for kernel in kernels:
        assert kernel.signatures, kernel  # compiled or loaded for the solver's argument types
