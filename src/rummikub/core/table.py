"""The table (melds separated by ``|``) and the rack (a sorted bag of tiles)."""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from .errors import NotationError
from .melds import Meld
from .tiles import Tile, format_tiles, parse_tiles, sort_key

__all__ = ["Rack", "Table"]


@dataclass(frozen=True, slots=True)
class Table:
    """The melds on the table, in the order they lie."""

    melds: tuple[Meld, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Table:
        """Parse ``R1 R2 R3 | K5 B5 O5 J=5``; an empty string (or ``-``) is the empty table."""
        stripped = text.strip()
        if stripped in ("", "-"):
            return cls()
        melds: list[Meld] = []
        offset = 0
        for i, part in enumerate(stripped.split("|")):
            if not part.strip():
                raise NotationError(f"empty meld number {i + 1} in table", position=offset)
            melds.append(Meld.parse(part, offset=offset))
            offset += len(part.split())
        return cls(tuple(melds))

    @classmethod
    def of(cls, melds: Iterable[Meld | str | Sequence[Tile]]) -> Table:
        out: list[Meld] = []
        for m in melds:
            if isinstance(m, Meld):
                out.append(m)
            elif isinstance(m, str):
                out.append(Meld.parse(m))
            else:
                out.append(Meld(tuple(m)))
        return cls(tuple(out))

    def tiles(self) -> list[Tile]:
        return [t for m in self.melds for t in m.tiles]

    def counts(self) -> Counter[Tile]:
        return Counter(self.tiles())

    def __len__(self) -> int:
        return len(self.melds)

    def __iter__(self) -> Iterator[Meld]:
        return iter(self.melds)

    def __getitem__(self, i: int) -> Meld:
        return self.melds[i]

    def __str__(self) -> str:
        return " | ".join(str(m) for m in self.melds)

    def to_json(self) -> list[list[str]]:
        return [m.to_json() for m in self.melds]

    @classmethod
    def from_json(cls, data: object, *, where: str = "table") -> Table:
        if not isinstance(data, list):
            raise NotationError(f"{where} must be a list of melds")
        return cls(
            tuple(Meld.from_json(m, where=f"{where} meld {i + 1}") for i, m in enumerate(data))
        )


@dataclass(frozen=True, slots=True)
class Rack:
    """A bag of tiles, kept sorted colour-then-number with jokers last."""

    tiles: tuple[Tile, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles, key=sort_key)))

    @classmethod
    def parse(cls, text: str) -> Rack:
        return cls(parse_tiles(text))

    @classmethod
    def of(cls, tiles: Iterable[Tile | str]) -> Rack:
        return cls(tuple(t if isinstance(t, Tile) else parse_tiles(t)[0] for t in tiles))

    def counts(self) -> Counter[Tile]:
        return Counter(self.tiles)

    @classmethod
    def _of_sorted(cls, tiles: tuple[Tile, ...]) -> Rack:
        """A rack of ``tiles`` already in the rack's order (not sorted again)."""
        rack = object.__new__(cls)
        object.__setattr__(rack, "tiles", tiles)
        return rack

    def add(self, tiles: Iterable[Tile]) -> Rack:
        new = tuple(tiles)
        if len(new) == 1:  # a tile drawn: put in its place
            out = list(self.tiles)
            insort(out, new[0], key=sort_key)
            return Rack._of_sorted(tuple(out))
        return Rack(self.tiles + new)

    def remove(self, tiles: Iterable[Tile]) -> Rack:
        """The rack without ``tiles``; raises :class:`NotationError` if one is missing."""
        left = list(self.tiles)
        for t in tiles:
            try:
                left.remove(t)
            except ValueError:
                raise NotationError(f"{t} is not on the rack", token=str(t)) from None
        return Rack._of_sorted(tuple(left))  # still in order

    def group_view(self) -> tuple[Tile, ...]:
        """Number-then-colour order (777), jokers last."""
        return tuple(sorted(self.tiles, key=lambda t: (t.is_joker, t.number, t.colour)))

    def __len__(self) -> int:
        return len(self.tiles)

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles)

    def __str__(self) -> str:
        return format_tiles(self.tiles)

    def to_json(self) -> list[str]:
        return [str(t) for t in self.tiles]
