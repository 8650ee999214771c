"""Building Xpress positions for tests from face notation."""

from __future__ import annotations

from dataclasses import replace

from rummikub.core.table import Table
from rummikub.core.tiles import parse_tiles
from rummikub.xpress import DieFace, XpressRules, XpressState, default_layout
from rummikub.xpress.solver import can_place
from rummikub.xpress.state import Phase


def allocate(groups: list[str]) -> list[tuple[DieFace, ...]]:
    """For each group of faces (``"K5 R7 J"``), distinct dice of the default layout that have
    those faces; every die is used at most once over all groups."""
    layout = default_layout()
    wanted = [(g, face) for g, group in enumerate(groups) for face in parse_tiles(group)]
    chosen: list[int] = []

    def search(i: int) -> bool:  # a matching of faces to distinct dice, by backtracking
        if i == len(wanted):
            return True
        for d in layout.dice:
            if d.index not in chosen and wanted[i][1] in d.faces:
                chosen.append(d.index)
                if search(i + 1):
                    return True
                chosen.pop()
        return False

    if not search(0):
        raise ValueError(f"no dice of the default layout show {groups}")
    out: list[list[DieFace]] = [[] for _ in groups]
    for (g, face), die in zip(wanted, chosen, strict=True):
        out[g].append(DieFace(die, face))
    return [tuple(x) for x in out]


def make_state(
    hand0: str,
    hand1: str,
    table: str = "",
    *,
    current: int = 0,
    phase: Phase = "place",
    idle: tuple[int, int] = (0, 0),
    rules: XpressRules | None = None,
) -> XpressState:
    """A consistent mid-round state: the hands, a table (sets separated by ``|``)."""
    tb = Table.parse(table)
    h0, h1, on_table = allocate([hand0, hand1, " ".join(str(t) for t in tb.tiles())])
    base_rules = rules or XpressRules(dice_per_player=max(len(h0), 1))
    hands = (tuple(sorted(h0)), tuple(sorted(h1)))
    return XpressState(
        rules=base_rules,
        layout=default_layout(),
        hands=hands,
        table=tb,
        table_dice=tuple(sorted(on_table)),
        current=current,
        phase=phase,
        placed=0,
        can_place=phase == "place" and can_place(tb, [d.face for d in hands[current]]),
        idle=idle,
        started=(True, True),
    )


def dice_of(state: XpressState, faces: str, player: int | None = None) -> tuple[int, ...]:
    """The dice of a hand showing ``faces`` (one die per face)."""
    hand = list(state.hands[state.current if player is None else player])
    out = []
    for face in parse_tiles(faces):
        d = next(d for d in hand if d.face == face)
        hand.remove(d)
        out.append(d.die)
    return tuple(out)


def with_phase(state: XpressState, phase: Phase) -> XpressState:
    return replace(state, phase=phase)
