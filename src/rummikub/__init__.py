"""Rummikub: the rules engine, solver, bots, and play in the terminal and the browser.

The top-level package is the rules core (standard library only); satellites live in their own
subpackages (:mod:`rummikub.solver`, :mod:`rummikub.bots`, :mod:`rummikub.cli`, ...) and import
the core, never the reverse.
"""

from __future__ import annotations

from .core import *  # noqa: F403
from .core import __all__ as _core_all

__version__ = "0.1.0"
__all__ = [*_core_all, "__version__"]
