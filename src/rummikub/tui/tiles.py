"""How a tile looks: its label (colour letter + number, jokers with the tile they stand for)
and its Rich style. The letter is always shown, so colour-blind players and monochrome
terminals lose nothing; colour only repeats what the letter says."""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

from rummikub.core import Reading, Role, Tile

__all__ = ["TileLook", "joker_roles", "tile_label", "tile_text"]

#: Foreground colour per colour index (K R B O, then the extra colours G P Y W).
INK = ("#202020", "#c62828", "#1565c0", "#d35400", "#2e7d32", "#7b1fa2", "#9a7d00", "#6d6d6d")
JOKER_INK = "#ad1457"
FACE = "#f3ead3"  # the cream face of a tile
FACE_FRESH = "#c8ecc0"  # tiles just placed (this turn, or by the last move shown)
FACE_SELECTED = "#ffd54f"
FACE_INVALID = "#f8c4c4"
FACE_MOVED = "#cfe3ff"  # tiles the assistant's play moves from one set to another


@dataclass(frozen=True, slots=True)
class TileLook:
    """The state a tile is drawn in."""

    selected: bool = False
    cursor: bool = False
    fresh: bool = False
    invalid: bool = False
    moved: bool = False


def tile_label(tile: Tile, role: Role | None = None) -> str:
    """``R7``; a joker with a known role is ``J=R6`` (run) or ``J=7`` (group), else ``J``."""
    if tile.is_joker and role is not None:
        return f"J={role}"
    return str(tile)


def joker_roles(reading: Reading | None, count: int) -> list[Role | None]:
    """The role of each position of a meld read as ``reading`` (``None`` for real tiles or
    when the meld has no reading)."""
    return [None] * count if reading is None else reading.roles()


def tile_text(tile: Tile, role: Role | None = None, look: TileLook = TileLook()) -> Text:
    """The tile as a Rich text: `` R7 `` on a tile face; ``[R7]`` under the cursor; selected
    tiles are underlined on yellow; fresh ones green; moved ones blue; tiles of invalid melds
    pink."""
    ink = JOKER_INK if tile.is_joker else INK[tile.colour % len(INK)]
    face = FACE
    if look.invalid:
        face = FACE_INVALID
    if look.moved:
        face = FACE_MOVED
    if look.fresh:
        face = FACE_FRESH
    if look.selected:
        face = FACE_SELECTED
    style = Style(color=ink, bgcolor=face, bold=True, underline=look.selected)
    left, right = ("[", "]") if look.cursor else (" ", " ")
    edge = Style(color="#000000", bgcolor=face, bold=True)
    text = Text()
    text.append(left, edge)
    text.append(tile_label(tile, role), style)
    text.append(right, edge)
    return text
