"""Verifying puzzles and reading puzzle files: a puzzle that does not verify (an impossible
table, a goal that cannot be reached, a stored solution that is not one) is refused with the
puzzle's id and the reason.

Two depths: :func:`verify` with ``full=False`` checks the position (valid sets, tiles the rules
have, no more copies than the set holds), the goal's conditions and that every stored solution
is legal and reaches the goal (the engine's validation: cheap); ``full=True`` also asks the
solver that the target is the most that can be placed and that the naive ways fall short of it
(what ``rummikub puzzles make`` and ``rummikub puzzles verify --full`` do)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import resources
from pathlib import Path

from rummikub.core import JOKER, RummikubError
from rummikub.solver import solve
from rummikub.solver.model import check_position

from .check import check_answer
from .errors import PuzzleCode, PuzzleError
from .model import Goal, Puzzle
from .naive import greedy_opening_value, naive_tiles

__all__ = ["SHIPPED", "load_puzzles", "read_puzzles", "shipped", "verify", "write_puzzles"]

#: the shipped set's file in the package data
SHIPPED = "puzzles.jsonl.gz"


def _refuse(puzzle: Puzzle, why: str) -> PuzzleError:
    return PuzzleError(
        f"puzzle {puzzle.id}: {why}",
        code=PuzzleCode.BAD_PUZZLE,
        params={"id": puzzle.id, "why": why},
    )


def verify(puzzle: Puzzle, *, full: bool = False) -> None:
    """Raise :class:`PuzzleError` (``puzzle-bad``, params ``id`` and ``why``) unless the
    puzzle verifies."""
    try:
        check_position(puzzle.table, puzzle.rack.tiles, puzzle.rules)
    except RummikubError as exc:
        raise _refuse(puzzle, f"impossible position: {exc}") from exc
    goal, rack = puzzle.goal, puzzle.rack.tiles
    if (goal is Goal.OPEN) == puzzle.opened:
        raise _refuse(puzzle, f"goal {goal.value} with opened={str(puzzle.opened).lower()}")
    if goal is Goal.GO_OUT and puzzle.target != len(rack):
        raise _refuse(puzzle, f"go-out target {puzzle.target} is not the rack's {len(rack)} tiles")
    if goal is Goal.FREE_JOKER and (
        JOKER in rack or not any(JOKER in m.tiles for m in puzzle.table.melds)
    ):
        raise _refuse(puzzle, "free-joker needs a joker on the table and none on the rack")
    if not 1 <= puzzle.target <= len(rack):
        raise _refuse(puzzle, f"target {puzzle.target} out of range 1..{len(rack)}")
    if not puzzle.solutions:
        raise _refuse(puzzle, "no solution stored")
    for k, sol in enumerate(puzzle.solutions, 1):
        verdict = check_answer(puzzle, sol)
        if not verdict.solved:
            raise _refuse(puzzle, f"solution {k} is not one ({verdict.code} {verdict.params})")
    if full:
        _verify_full(puzzle)


def _verify_full(puzzle: Puzzle) -> None:
    goal, rack, rules = puzzle.goal, puzzle.rack.tiles, puzzle.rules
    if goal is Goal.FREE_JOKER:
        return  # the stored solutions are the proof that the goal is reachable
    best = solve(puzzle.table, rack, opened=puzzle.opened, rules=rules)
    if goal is Goal.OPEN:
        if best.tiles == 0:
            raise _refuse(puzzle, "no opening can be made")
        if greedy_opening_value(rack, rules) >= rules.opening_value:
            raise _refuse(puzzle, "the obvious opening already opens")
        return
    if best.tiles != puzzle.target:
        raise _refuse(
            puzzle, f"target {puzzle.target}, but the most that can be placed is {best.tiles}"
        )
    if naive_tiles(puzzle.table, rack, rules) >= puzzle.target:
        raise _refuse(puzzle, "the naive ways reach the goal (no rearranging needed)")


def read_puzzles(lines: Iterable[str]) -> Iterator[Puzzle]:
    """Puzzles from JSON Lines (blank lines skipped), not verified; a line that is not a
    puzzle raises :class:`PuzzleError` naming the line."""
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            why = f"not valid JSON: {exc.msg} at column {exc.colno}"
            raise PuzzleError(
                f"line {n}: {why}", code=PuzzleCode.BAD_PUZZLE_LINE, params={"line": n, "why": why}
            ) from exc
        yield Puzzle.from_json(data, line=n)


def _open_lines(path: str | Path) -> list[str]:
    p = Path(path)
    if p.suffix == ".gz":
        with gzip.open(p, "rt", encoding="utf-8") as f:
            return f.read().splitlines()
    return p.read_text(encoding="utf-8").splitlines()


def load_puzzles(path: str | Path, *, full: bool = False) -> list[Puzzle]:
    """Read and verify every puzzle of a ``.jsonl`` (or ``.jsonl.gz``) file; the first that
    does not verify, or a repeated id, raises :class:`PuzzleError`."""
    out: list[Puzzle] = []
    seen: set[str] = set()
    for p in read_puzzles(_open_lines(path)):
        if p.id in seen:
            raise _refuse(p, "the id is used twice")
        seen.add(p.id)
        verify(p, full=full)
        out.append(p)
    return out


def write_puzzles(puzzles: Iterable[Puzzle], path: str | Path) -> int:
    """Write puzzles as JSON Lines (gzip when the name ends in ``.gz``, without a time stamp so
    the same puzzles give the same bytes); returns how many."""
    p = Path(path)
    text = "".join(pz.dumps() + "\n" for pz in puzzles)
    if p.suffix == ".gz":
        with open(p, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as f:
            f.write(text.encode("utf-8"))
    else:
        p.write_text(text, encoding="utf-8")
    return text.count("\n")


@cache
def shipped() -> tuple[Puzzle, ...]:
    """The shipped set (package data), read once; its puzzles were verified in full when it
    was made, so it is read here without checking them again."""
    data = resources.files(__package__).joinpath("data", SHIPPED).read_bytes()
    lines = gzip.decompress(data).decode("utf-8").splitlines()
    return tuple(read_puzzles(lines))
