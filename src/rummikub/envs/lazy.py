"""A read-only sequence whose items are made the first time they are read: the candidates of a
step (and their JSON) cost only when a policy looks at them, while their number — all the
action mask needs — is known at once."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar, overload

__all__ = ["Lazy"]

T = TypeVar("T")
_UNSET = object()


class Lazy(Sequence[T]):
    """Item ``i`` is ``makers[i]()``, made when first read and kept."""

    __slots__ = ("_made", "_makers")

    def __init__(self, makers: Iterable[Callable[[], T]]) -> None:
        self._makers = tuple(makers)
        self._made: list[object] = [_UNSET] * len(self._makers)

    def __len__(self) -> int:
        return len(self._makers)

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> Lazy[T]: ...

    def __getitem__(self, index: int | slice) -> T | Lazy[T]:
        if isinstance(index, slice):
            return Lazy(self._item(i) for i in range(len(self))[index])
        made = self._made[index]
        if made is _UNSET:
            made = self._made[index] = self._makers[index]()
        return made  # type: ignore[return-value]  # made by the maker of this item: a T

    def _item(self, i: int) -> Callable[[], T]:
        return lambda: self[i]

    def map(self, fn: Callable[[T], object]) -> Lazy[object]:
        """The items through ``fn``, each made when read."""
        return Lazy(self._mapped(fn, i) for i in range(len(self)))

    def _mapped(self, fn: Callable[[T], object], i: int) -> Callable[[], object]:
        return lambda: fn(self[i])

    def __eq__(self, other: object) -> bool:
        """Equal to a sequence (not a string) of equal items: every item is made."""
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # a mutable cache: not hashable, as a list

    def __reduce__(self) -> tuple[type[list[T]], tuple[list[T]]]:
        """Pickled (to another process: a vector of environments) as the list of its items."""
        return (list, (list(self),))

    def __repr__(self) -> str:
        made = sum(1 for m in self._made if m is not _UNSET)
        return f"<Lazy: {len(self)} items, {made} made>"
