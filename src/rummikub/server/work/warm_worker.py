"""Imported by the forkserver of the server's worker processes (:mod:`.pool`) before it forks
any: the jobs and their libraries are imported and the solver's compiled kernels loaded once,
so every worker starts ready."""

from __future__ import annotations

from .jobs import warm

__all__: list[str] = []

warm()
