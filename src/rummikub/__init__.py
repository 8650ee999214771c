"""Rummikub: the rules engine, solver, bots, and play in the terminal and the browser.

The top-level package is the rules core (standard library only); satellites live in their own
subpackages (:mod:`rummikub.solver`, :mod:`rummikub.bots`, :mod:`rummikub.cli`, ...) and import
the core, never the reverse.

The core's names are the package's (``from rummikub import Table``), imported on first use: a
program that imports only a subpackage (``rummikub --help``) does not pay for the whole core.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core import *  # noqa: F403

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    # import_module, not "from . import core": the fromlist would ask this function again
    core = importlib.import_module("rummikub.core")
    if name == "__all__":
        return [*core.__all__, "__version__"]
    try:
        return getattr(core, name)
    except AttributeError:
        raise AttributeError(f"module 'rummikub' has no attribute {name!r}") from None


def __dir__() -> list[str]:
    core = importlib.import_module("rummikub.core")
    return sorted({*globals(), *core.__all__})
