"""Checking an answer, hints and the solution laid out: pure functions of a puzzle, shared by
the terminal, the command line and (later) the web server.

Any answer that reaches the goal under the rules is right, not only the stored solutions: the
engine validates it (:func:`rummikub.core.check_play`) on the puzzle's position, then the goal
is checked. A wrong answer says what is wrong with the engine's error code and params (the
invalid set, the table tile that went missing...) or the puzzle's own (``puzzle-short``: how
many tiles short; ``puzzle-joker-not-freed``; ``puzzle-no-play``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from rummikub.core import (
    JOKER,
    Meld,
    Play,
    Rack,
    RoundState,
    Rules,
    Table,
    Tile,
    check_play,
    read_meld,
)
from rummikub.core.errors import Param
from rummikub.solver.assistant import MarkedTile, marked_table

from .model import Goal, Puzzle

__all__ = [
    "Hint",
    "Verdict",
    "check_answer",
    "frees_joker",
    "hint",
    "position_state",
    "solution_layout",
]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judgement of an answer: ``solved``, else ``code`` and ``params`` say what is wrong
    (``error.<code>`` in the message catalogue); ``meld`` is the index of the set to blame in
    the answer's table, when one is."""

    solved: bool
    code: str = ""
    params: dict[str, Param] = field(default_factory=dict)
    meld: int | None = None
    placed: int = 0

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"solved": self.solved, "placed": self.placed}
        if not self.solved:
            out.update(code=self.code, params=self.params)
            if self.meld is not None:
                out["meld"] = self.meld
        return out


def position_state(table: Table, rack: Sequence[Tile], opened: bool, rules: Rules) -> RoundState:
    """A position as a round of two players, its player to move (the other's rack and the pool
    are empty: they play no part in checking a play)."""
    return RoundState(
        rules=rules,
        racks=(Rack(tuple(rack)), Rack(())),
        table=table,
        pool=(),
        opened=(opened, True),
        current=0,
    )


def frees_joker(old: Table, play: Play, rules: Rules) -> bool:
    """Whether ``play`` takes a joker of ``old`` into a new set made with rack tiles: a set of
    the new table that holds a joker, at least one tile placed from the rack and no tile (by
    face) of a table set that held a joker. The rack is assumed to hold no joker (a puzzle of
    this goal never has one)."""
    joker_faces = {t for m in old.melds if JOKER in m.tiles for t in m.tiles if not t.is_joker}
    if not joker_faces and not any(JOKER in m.tiles for m in old.melds):
        return False
    placed = Counter(play.tiles)
    for meld in play.table.melds:
        if JOKER not in meld.tiles:
            continue
        real = [t for t in meld.tiles if not t.is_joker]
        if any(t in joker_faces for t in real):
            continue
        if any(placed[t] for t in real):
            return True
    return False


def check_answer(puzzle: Puzzle, play: Play) -> Verdict:
    """Whether ``play`` solves ``puzzle``; if not, why."""
    err = check_play(
        position_state(puzzle.table, puzzle.rack.tiles, puzzle.opened, puzzle.rules), play
    )
    placed = len(play.tiles)
    if err is not None:
        return Verdict(False, err.code.value, dict(err.params), getattr(err, "meld", None), placed)
    goal = puzzle.goal
    if goal is Goal.GO_OUT and placed < len(puzzle.rack):
        return _short(len(puzzle.rack), placed)
    if goal is Goal.MOST_TILES and placed < puzzle.target:
        return _short(puzzle.target, placed)
    if goal is Goal.FREE_JOKER and not frees_joker(puzzle.table, play, puzzle.rules):
        return Verdict(False, "puzzle-joker-not-freed", {}, None, placed)
    return Verdict(True, placed=placed)


def _short(needed: int, placed: int) -> Verdict:
    return Verdict(
        False,
        "puzzle-short",
        {"needed": needed, "placed": placed, "count": needed - placed},
        None,
        placed,
    )


@dataclass(frozen=True, slots=True)
class Hint:
    """One step towards the answer: ``key`` (a message catalogue key: ``puzzle.hint.break``,
    ``puzzle.hint.build``) with its ``params``; ``old`` the index of the table set it names
    (break) or ``None``; ``tiles`` the set to build."""

    key: str
    params: dict[str, Param]
    old: int | None = None


def hint(puzzle: Puzzle, level: int = 1) -> Hint:
    """Level 1: which set of the table to break up first (the answer's first changed set;
    for an opening, the first set to lay). Level 2 and up: a set of the answer to build (the
    one with the most rack tiles)."""
    sol = puzzle.solutions[0]
    changed = _changed(puzzle.table, sol.table)
    new_melds = _new_melds(puzzle.table, sol.table)
    if level <= 1 and changed:
        i = changed[0]
        return Hint("puzzle.hint.break", {"meld": str(puzzle.table.melds[i])}, i)
    placed = Counter(sol.tiles)
    best = max(new_melds, key=lambda m: sum((Counter(m.tiles) & placed).values()))
    return Hint("puzzle.hint.build", {"meld": str(read_meld(best, puzzle.rules).meld)})


def _changed(old: Table, new: Table) -> list[int]:
    remaining = Counter(m.key() for m in new.melds)
    out: list[int] = []
    for i, m in enumerate(old.melds):
        if remaining[m.key()] > 0:
            remaining[m.key()] -= 1
        else:
            out.append(i)
    return out


def _new_melds(old: Table, new: Table) -> list[Meld]:
    remaining = Counter(m.key() for m in old.melds)
    out: list[Meld] = []
    for m in new.melds:
        if remaining[m.key()] > 0:
            remaining[m.key()] -= 1
        else:
            out.append(m)
    return out


def solution_layout(puzzle: Puzzle, index: int = 0) -> tuple[tuple[MarkedTile, ...], ...]:
    """Solution ``index`` as the new table, changed sets first, every tile marked ``rack``
    (placed from the rack), ``moved`` (taken from another table set) or ``kept``."""
    sol = puzzle.solutions[index]
    return marked_table(puzzle.table, sol.table, sol.tiles, puzzle.rules)
