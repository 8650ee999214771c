"""Caches kept per rule set, found by the rules object's identity: hashing a rules object costs
as much as the work a cache saves (reading a short meld), and the rules objects of a game are
the same objects all along. Each entry holds its rules object, so an id is never reused while
its entry lives. Bounded: a cache past its size starts again empty."""

from __future__ import annotations

from typing import Generic, TypeVar

from .rules import Rules

__all__ = ["PerRules"]

K = TypeVar("K")
V = TypeVar("V")

#: how many rule sets a cache keeps at once
RULE_SETS = 64


class PerRules(Generic[K, V]):
    """A dictionary of at most ``size`` entries for each rule set."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._sets: dict[int, tuple[Rules, dict[K, V]]] = {}

    def of(self, rules: Rules) -> dict[K, V]:
        """The entries of ``rules`` (read them; add with :meth:`keep`)."""
        entry = self._sets.get(id(rules))
        if entry is None or entry[0] is not rules:
            if len(self._sets) >= RULE_SETS:
                self._sets.clear()
            entry = self._sets[id(rules)] = (rules, {})
        return entry[1]

    def clear(self) -> None:
        """Forget every entry of every rule set."""
        self._sets.clear()

    def keep(self, known: dict[K, V], key: K, value: V) -> None:
        """Add ``key`` to ``known`` (the entries :meth:`of` gave), within the size."""
        if len(known) >= self.size:
            known.clear()
        known[key] = value
