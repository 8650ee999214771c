"""Values remembered by an object's identity: for immutable objects whose hash costs as much
as the work a cache saves (a meld hashes each of its tiles; a rules object all its fields) and
that a game passes around as the same objects. Each entry holds its object, so an id is never
reused while its entry lives. Bounded: a cache past its size starts again empty."""

from __future__ import annotations

from typing import Generic, TypeVar

__all__ = ["ByObject"]

T = TypeVar("T")
V = TypeVar("V")


class ByObject(Generic[T, V]):
    """At most ``size`` values, each found by its object's identity."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: dict[int, tuple[T, V]] = {}

    def get(self, obj: T) -> V | None:
        """The value kept for this very object, or ``None``."""
        entry = self._entries.get(id(obj))
        return entry[1] if entry is not None and entry[0] is obj else None

    def keep(self, obj: T, value: V) -> V:
        """Keep ``value`` for ``obj`` (within the size); returns ``value``."""
        if len(self._entries) >= self.size:
            self._entries.clear()
        self._entries[id(obj)] = (obj, value)
        return value
