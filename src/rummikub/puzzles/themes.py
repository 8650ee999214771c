"""The themes of a puzzle, computed from its answer: what the table's sets went through.

| theme | when |
|---|---|
| ``split-run`` | a run of the table ends up in two or more sets |
| ``split-group`` | a group of the table ends up in two or more sets |
| ``run-to-group`` | a tile of a table run goes into a group |
| ``group-to-run`` | a tile of a table group goes into a run |
| ``merge`` | one new set takes tiles from two or more table sets |
| ``joker-retrieval`` | a joker of the table goes into another set |
| ``rack-joker`` | the answer places a joker from the rack |
| ``move-4`` | four or more table tiles move to another set |
| ``many-sets`` | three or more sets of the table change |
| ``long-answer`` | the answer places six or more tiles |
| ``open-split`` | (openings) the best opening does not take the most valuable set first |
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rummikub.core import Play, Rules, Table, read_meld
from rummikub.solver.assistant import marked_table

__all__ = ["THEMES", "Flow", "flow", "themes_of"]

THEMES: tuple[str, ...] = (
    "split-run",
    "split-group",
    "run-to-group",
    "group-to-run",
    "merge",
    "joker-retrieval",
    "rack-joker",
    "move-4",
    "many-sets",
    "long-answer",
    "open-split",
)


@dataclass(frozen=True, slots=True)
class Flow:
    """Where the table's tiles went: ``origin[i][j]`` is how many tiles of old meld ``j`` are
    in new meld ``i``; ``kinds`` the kind (``run``/``group``) of every old and new meld;
    ``changed`` the old melds not found unchanged; ``moved`` the table tiles marked as moved
    (taken out of their set) by the assistant's marking."""

    old_kinds: tuple[str, ...]
    new_kinds: tuple[str, ...]
    origin: tuple[tuple[int, ...], ...]
    changed: tuple[int, ...]
    moved: int
    jokers_moved: int


def flow(old: Table, play: Play, rules: Rules) -> Flow:
    """How the table's tiles flow from ``old`` into ``play.table``. A tile that exists twice is
    attributed first to the old meld its new meld shares most tiles with."""
    new = play.table
    old_counts = [Counter(m.tiles) for m in old.melds]
    new_counts = [Counter(m.tiles) for m in new.melds]
    old_kinds = tuple(read_meld(m, rules).kind for m in old.melds)
    new_kinds = tuple(read_meld(m, rules).kind for m in new.melds)
    # unchanged melds first, one to one
    left_old = list(range(len(old.melds)))
    pairs: dict[int, int] = {}
    for i, nc in enumerate(new_counts):
        for j in left_old:
            if old_counts[j] == nc:
                pairs[i] = j
                left_old.remove(j)
                break
    changed = tuple(left_old)
    supply = [Counter(c) for c in old_counts]
    origin = [[0] * len(old.melds) for _ in new.melds]
    for i, j in pairs.items():
        origin[i][j] = sum(new_counts[i].values())
        supply[j] = Counter()
    need = [Counter() if i in pairs else Counter(nc) for i, nc in enumerate(new_counts)]
    # the largest overlaps first, then whatever is left of each tile
    overlaps = sorted(
        ((-sum((need[i] & supply[j]).values()), i, j) for i in range(len(need)) for j in changed),
    )
    for _neg, i, j in overlaps:
        take = need[i] & supply[j]
        if take:
            origin[i][j] += sum(take.values())
            need[i] -= take
            supply[j] -= take
    marks = marked_table(old, new, play.tiles, rules)
    moved = sum(1 for meld in marks for t in meld if t.mark == "moved")
    jokers = sum(1 for meld in marks for t in meld if t.mark == "moved" and t.tile.is_joker)
    return Flow(
        old_kinds,
        new_kinds,
        tuple(tuple(r) for r in origin),
        changed,
        moved,
        jokers,
    )


def themes_of(old: Table, play: Play, rules: Rules) -> tuple[str, ...]:
    """The themes (in :data:`THEMES` order) of the answer ``play`` on the table ``old``."""
    f = flow(old, play, rules)
    found: set[str] = set()
    for j in f.changed:
        parts = sum(1 for row in f.origin if row[j] > 0)
        if parts >= 2:
            found.add("split-run" if f.old_kinds[j] == "run" else "split-group")
    for i, row in enumerate(f.origin):
        sources = [j for j, k in enumerate(row) if k > 0]
        if len(sources) >= 2:
            found.add("merge")
        for j in sources:
            if f.old_kinds[j] == "run" and f.new_kinds[i] == "group":
                found.add("run-to-group")
            if f.old_kinds[j] == "group" and f.new_kinds[i] == "run":
                found.add("group-to-run")
    if f.jokers_moved:
        found.add("joker-retrieval")
    if any(t.is_joker for t in play.tiles):
        found.add("rack-joker")
    if f.moved >= 4:
        found.add("move-4")
    if len(f.changed) >= 3:
        found.add("many-sets")
    if len(play.tiles) >= 6:
        found.add("long-answer")
    return tuple(t for t in THEMES if t in found)
