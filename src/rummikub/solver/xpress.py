"""Compiled playouts of Rummikub Xpress rounds (Numba): the evaluation's futures played to the
end of the round with the solver's placement kernel (:func:`rummikub.solver.counts._placed`),
so that a ranking of Xpress moves can play many times the rounds the Python search can.

A playout is :func:`rummikub.xpress.ranking._play` from the moment its move has been made:
both players place as ``greedy`` (the most dice, then the most points: the ``tiles``
objective of the tile solver, on the table's faces as counts, every one of them kept), the
seats marked as keepers throw again all but their low dice (a joker, or a face counting at most
its die's mark), the others every die; the round ends when a hand is empty, when both players
have thrown ``block_throws`` times in a row without placing (blocked), or after ``max_turns``
turns (abandoned, scoring nothing). The faces the dice show come from the caller's future,
``future[t, d]`` the face code of die ``d`` thrown ``t`` turns after the position: a playout
that needs a turn the array does not hold stops and says so (the caller draws more turns and
plays it again; the same future gives the same playout).

Faces are coded ``colour * 13 + number - 1``, the joker :data:`JOKER_CODE`. Without Numba the
functions run as plain Python (very slowly); the ranking then keeps its own playouts.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, Protocol

import numpy as np

from ..core.by_object import ByObject
from ..core.tiles import JOKER, Tile
from .counts import _W_TILES, _W_VALUE, _placed
from .fast import _BEAM, _BEAM_BOUNDED_FROM, available
from .kernel import compiled
from .tables import _consts, _layout

__all__ = [
    "ABANDONED",
    "BLOCKED",
    "JOKER_CODE",
    "MORE_TURNS",
    "OUT",
    "Future",
    "available",
    "code",
    "constants",
    "counts",
    "play",
    "play_round",
    "warm_up",
]

COLOURS, NUMBERS, COPIES = 4, 13, 2
#: the joker's face code (the real faces are 0 … 51)
JOKER_CODE = COLOURS * NUMBERS
#: most jokers a table and a hand hold together (the four joker faces)
MAX_JOKERS = 4

# how a playout ended (the first of :func:`play_round`'s answers)
OUT = 0  #: a hand is empty
BLOCKED = 1  #: both players threw ``block_throws`` times in a row without placing
ABANDONED = 2  #: ``max_turns`` passed
MORE_TURNS = 3  #: the future holds too few turns: draw more and play it again


@cache
def constants() -> tuple[Any, ...]:
    """The problem-independent inputs of the placement kernel for Xpress's faces (4 colours,
    13 numbers, 2 copies), made once: the option tables with jokers standing for real faces
    only (fewer than 3 jokers), with jokers alone (3 or more), and the state layout for each
    number of jokers (0 … :data:`MAX_JOKERS`)."""
    few = _consts(COLOURS, COPIES, True)
    many = _consts(COLOURS, COPIES, False)
    layouts = [_layout(COLOURS, COPIES, j, 0, None) for j in range(MAX_JOKERS + 1)]
    strides = np.stack([lay[1] for lay in layouts])
    masks = np.stack([lay[2] for lay in layouts])
    return few, many, strides, masks


def _greedy_py(
    table: Any, tj: int, tv: int, rack: Any, rj: int, few: Any, many: Any, strides: Any,
    masks: Any,
) -> tuple[Any, int, bool]:  # fmt: skip  # pragma: no cover - compiled
    """The placement of the most faces of ``rack`` (then the most points) onto ``table``
    (counts, ``tj`` jokers, ``tv`` the real faces' points): (placed counts, placed jokers,
    whether anything is placed)."""
    j = tj + rj
    c = few if j < 3 else many
    return _placed(
        COLOURS, NUMBERS, COPIES, c[1], table, rack, tj, rj, tv, _W_TILES, _W_VALUE, True,
        j < 3, _BEAM, _BEAM_BOUNDED_FROM, 0, c[0], c[2], c[3], c[4], c[5], c[6], c[7], c[8],
        c[9], c[10], strides[j], masks[j], c[11], c[12], c[13], c[14],
    )  # fmt: skip


_greedy = compiled(_greedy_py)


# the scalars of a playout's round, one int64 array: the seat to move, the stage of his turn
# (0: the throw; 1: the placement, nothing placed yet; 2: the end of the turn), dice placed
# this turn, the table's jokers and the points of its real faces, turns since the position,
# the points of the first placement (-1: not counted), each seat's throws in a row without
# placing and whether he has had his first turn
_CUR, _STAGE, _PLACED, _TJ, _TV, _T, _FIRST, _IDLE, _STARTED = 0, 1, 2, 3, 4, 5, 6, 7, 9
_SCALARS = 11


def _is_low(face: int, die: int, marks: Any, values: Any) -> bool:  # pragma: no cover
    return face == JOKER_CODE or values[face] <= marks[die]


_low = compiled(_is_low)


def _play_round_py(
    hand_die: Any, hand_face: Any, sizes: Any, table: Any, st: Any, keepers: Any, marks: Any,
    values: Any, block_throws: int, max_turns: int, future: Any, few: Any, many: Any,
    strides: Any, masks: Any,
) -> tuple[int, int, int, int, int]:  # fmt: skip  # pragma: no cover - compiled
    """One playout (module docstring): seat ``p`` holds ``sizes[p]`` dice, ``hand_die[p, i]``
    showing ``hand_face[p, i]``; ``table`` the table's real faces as counts ``[colour,
    number - 1]``; ``st`` the round's scalars (:data:`_SCALARS` of them: the seat to move, the
    stage of his turn, …); ``keepers[p]`` whether seat ``p`` keeps his low dice (``marks[d]``:
    the most a face of die ``d`` may count and be low); ``values[code]`` what a face counts
    when left over; ``future[t, d]`` the code of the face die ``d`` shows when thrown ``t``
    turns from now. Every array is changed in place. Returns (how it ended: :data:`OUT`,
    :data:`BLOCKED`, :data:`ABANDONED` or :data:`MORE_TURNS`; the winner or -1; seat 0's
    score; seat 1's; the points of the first placement, 0 when not counted)."""
    rack = np.zeros((COLOURS, NUMBERS), np.int64)
    while True:
        cur = st[_CUR]
        t = st[_T]
        if sizes[0] == 0 or sizes[1] == 0:
            winner = 0 if sizes[0] == 0 else 1
            total = 0
            for i in range(sizes[1 - winner]):
                total += values[hand_face[1 - winner, i]]
            first = max(st[_FIRST], 0)
            return OUT, winner, total if winner == 0 else 0, total if winner == 1 else 0, first
        if t > max_turns:
            return ABANDONED, -1, 0, 0, max(st[_FIRST], 0)
        if st[_STAGE] == 0:  # the throw
            if t >= future.shape[0]:
                return MORE_TURNS, -1, 0, 0, 0
            n_hand = sizes[cur]
            if keepers[cur]:
                kept = 0
                top = 0
                for i in range(n_hand):
                    if _low(hand_face[cur, i], hand_die[cur, i], marks, values):
                        kept += 1
                    if values[hand_face[cur, i]] > values[hand_face[cur, top]]:
                        top = i
                for i in range(n_hand):
                    low = _low(hand_face[cur, i], hand_die[cur, i], marks, values)
                    if (not low) or (kept == n_hand and i == top):
                        hand_face[cur, i] = future[t, hand_die[cur, i]]
            else:
                for i in range(n_hand):
                    hand_face[cur, i] = future[t, hand_die[cur, i]]
            st[_STAGE] = 1
        if st[_STAGE] == 1:  # the placement: as greedy
            st[_PLACED] = 0
            rack[:] = 0
            rj = 0
            for i in range(sizes[cur]):
                f = hand_face[cur, i]
                if f == JOKER_CODE:
                    rj += 1
                else:
                    rack[f // NUMBERS, f % NUMBERS] += 1
            used, used_jokers, found = _greedy(table, st[_TJ], st[_TV], rack, rj, few, many,
                                               strides, masks)  # fmt: skip
            if found:
                points = 0
                kept_n = 0
                for i in range(sizes[cur]):
                    f = hand_face[cur, i]
                    take = False
                    if f == JOKER_CODE:
                        if used_jokers > 0:
                            used_jokers -= 1
                            take = True
                            st[_TJ] += 1
                    elif used[f // NUMBERS, f % NUMBERS] > 0:
                        used[f // NUMBERS, f % NUMBERS] -= 1
                        take = True
                        table[f // NUMBERS, f % NUMBERS] += 1
                        st[_TV] += f % NUMBERS + 1
                    if take:
                        st[_PLACED] += 1
                        points += values[f] if f == JOKER_CODE else f % NUMBERS + 1
                    else:
                        hand_die[cur, kept_n] = hand_die[cur, i]
                        hand_face[cur, kept_n] = f
                        kept_n += 1
                sizes[cur] = kept_n
                st[_IDLE] = 0
                st[_IDLE + 1] = 0
                if t == 0 and st[_FIRST] == 0:
                    st[_FIRST] = points
            st[_STAGE] = 2
        if sizes[cur] == 0:
            continue  # out: scored at the top of the loop
        # the end of the turn
        if st[_PLACED] == 0:
            st[_IDLE + cur] += 1
            if st[_IDLE] >= block_throws and st[_IDLE + 1] >= block_throws:
                t0 = 0
                t1 = 0
                for i in range(sizes[0]):
                    t0 += values[hand_face[0, i]]
                for i in range(sizes[1]):
                    t1 += values[hand_face[1, i]]
                first = max(st[_FIRST], 0)
                if t0 == t1:
                    return BLOCKED, -1, 0, 0, first
                if t0 < t1:
                    return BLOCKED, 0, t1 - t0, 0, first
                return BLOCKED, 1, 0, t0 - t1, first
        cur = 1 - cur
        st[_CUR] = cur
        st[_T] = t + 1
        st[_PLACED] = 0
        if st[_STARTED + cur]:
            st[_STAGE] = 0
        else:  # his first turn of the round: the setup roll is his throw
            st[_STARTED + cur] = 1
            st[_STAGE] = 1


play_round = compiled(_play_round_py)


# -- the playouts from Python -----------------------------------------------------------------


class Future(Protocol):
    """A future of the dice as the ranking draws it: ``faces[d]`` die ``d``'s six faces,
    ``drawn(t)`` the turns drawn, at least ``t + 1`` (drawing more as needed): ``[t][d]`` the
    index among ``faces[d]`` of the face die ``d`` shows when thrown ``t`` turns from now."""

    faces: list[tuple[Tile, ...]]

    def drawn(self, t: int) -> list[list[int]]: ...


def code(face: Tile) -> int:
    """A face's code: ``colour * 13 + number - 1``, the joker :data:`JOKER_CODE`."""
    return JOKER_CODE if face.is_joker else face.colour * NUMBERS + face.number - 1


#: turns of a future turned into codes first (a round rarely lasts longer; a playout that
#: does has the future drawn twice as far and is played again)
FIRST_HORIZON = 24
_CODES: ByObject[Future, Any] = ByObject(256)
_DICE: ByObject[list[tuple[Tile, ...]], Any] = ByObject(32)
_MARKS: ByObject[Sequence[float], Any] = ByObject(32)
_VALUES: dict[int, Any] = {}


def counts(faces: Sequence[Tile]) -> tuple[Any, int, int]:
    """``faces`` as the kernel takes them: the real faces' counts (``[colour, number - 1]``),
    the jokers, the real faces' points."""
    grid = np.zeros((COLOURS, NUMBERS), np.int64)
    jokers = value = 0
    for f in faces:
        if f.is_joker:
            jokers += 1
        else:
            grid[f.colour, f.number - 1] += 1
            value += f.number
    return grid, jokers, value


def _dice_codes(faces: list[tuple[Tile, ...]]) -> Any:
    """``[d, k]``: the code of die ``d``'s face ``k``."""
    dice = _DICE.get(faces)
    if dice is None:
        dice = _DICE.keep(faces, np.array([[code(f) for f in d] for d in faces], np.int64))
    return dice


def _codes(future: Future, horizon: int) -> Any:
    """The future's first ``horizon`` turns as face codes (``[t, die]``), kept while it is
    used (the candidates of a ranking share their futures)."""
    known = _CODES.get(future)
    if known is not None and known.shape[0] >= horizon:
        return known
    faces = future.faces
    index = np.array(future.drawn(horizon - 1)[:horizon], np.int64)
    return _CODES.keep(future, _dice_codes(faces)[np.arange(len(faces)), index])


def _values(joker_value: int) -> Any:
    """What each face code counts when left over."""
    known = _VALUES.get(joker_value)
    if known is None:
        known = np.arange(1, JOKER_CODE + 2, dtype=np.int64) % NUMBERS
        known[known == 0] = NUMBERS
        known[JOKER_CODE] = joker_value
        _VALUES[joker_value] = known
    return known


def _marks(marks: Sequence[float]) -> Any:
    known = _MARKS.get(marks)
    if known is None:
        known = _MARKS.keep(marks, np.array(marks, np.float64))
    return known


def play(
    hands: Sequence[Sequence[tuple[int, Tile]]],
    table: Sequence[Tile],
    cur: int,
    stage: int,
    placed: int,
    idle: Sequence[int],
    started: Sequence[bool],
    count_first: bool,
    future: Future,
    keepers: Sequence[int],
    marks: Sequence[float],
    joker_value: int,
    block_throws: int,
    max_turns: int,
) -> tuple[int | None, tuple[int, int], int]:
    """:func:`play_round` from Python objects: ``hands`` two lists of (die, face), the
    ``table``'s faces, ``marks[d]`` the most a low face of die ``d`` counts; the rest as
    :func:`play_round`. Returns (the winner or ``None``, the round's scores, the points of the
    first placement when ``count_first``)."""
    few, many, strides, masks = constants()
    table_counts, table_jokers, table_value = counts(table)
    values = _values(joker_value)
    keep = np.zeros(2, np.int64)
    for p in keepers:
        keep[p] = 1
    mark = _marks(marks)
    scalars = [0] * _SCALARS
    scalars[_CUR], scalars[_STAGE], scalars[_PLACED] = cur, stage, placed
    scalars[_TJ], scalars[_TV] = table_jokers, table_value
    scalars[_FIRST] = 0 if count_first else -1
    scalars[_IDLE], scalars[_IDLE + 1] = idle
    scalars[_STARTED], scalars[_STARTED + 1] = (int(s) for s in started)
    horizon = FIRST_HORIZON
    while True:
        hand_die = np.zeros((2, 18), np.int64)
        hand_face = np.zeros((2, 18), np.int64)
        sizes = np.zeros(2, np.int64)
        for p, hand in enumerate(hands):
            sizes[p] = len(hand)
            for i, (die, face) in enumerate(hand):
                hand_die[p, i] = die
                hand_face[p, i] = code(face)
        ended, winner, s0, s1, first = play_round(
            hand_die, hand_face, sizes, table_counts.copy(), np.array(scalars, np.int64), keep,
            mark, values, block_throws, max_turns, _codes(future, horizon), few, many, strides,
            masks,
        )  # fmt: skip
        if ended != MORE_TURNS:
            return (None if winner < 0 else int(winner)), (int(s0), int(s1)), int(first)
        horizon *= 2


class _Counted:
    """A future whose die ``d`` shows its face ``(t + d) % 6`` at turn ``t``."""

    def __init__(self, faces: list[tuple[Tile, ...]]) -> None:
        self.faces = faces
        self.turns: list[list[int]] = []

    def drawn(self, t: int) -> list[list[int]]:
        while len(self.turns) <= t:
            n = len(self.turns)
            self.turns.append([(n + d) % 6 for d in range(len(self.faces))])
        return self.turns


def warm_up() -> None:
    """Play one round on made-up dice, so that the kernel is compiled (or loaded) before a
    ranking needs it (:func:`rummikub.solver.warm.warm_up`)."""
    faces = [tuple(JOKER if (d, k) == (0, 0) else Tile(k % COLOURS, (d + 2 * k) % NUMBERS + 1)
                   for k in range(6)) for d in range(18)]  # fmt: skip
    future = _Counted(faces)
    hands = [[(d, faces[d][0]) for d in range(p * 9, p * 9 + 9)] for p in range(2)]
    play(hands, (), 0, 1, 0, (0, 0), (True, False), False, future, (0,), [4.0] * 18, 10, 3,
         300)  # fmt: skip
