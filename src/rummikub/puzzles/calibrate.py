"""Puzzle ratings from simulated solvers of known strength: each bot level "solves" a puzzle
with its own move choice (the play it would make in that position; solved when that play
reaches the goal), and Glicko-2 rates the levels and the puzzles against each other, rating
period by rating period. The shipped set carries the ratings this gives (``make puzzles``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rummikub.bots.registry import get_bot
from rummikub.core import Play, Rack, RoundState, observe
from rummikub.core.tiles import sort_key

from .check import check_answer
from .model import Puzzle
from .rating import MIN_RD, Rating, glicko2_update

__all__ = ["Calibration", "bot_solves", "calibrate", "game_state"]

#: the levels that attempt the set by default, weakest first (the expert, at about a second
#: a decision, is left to ``--levels``)
LEVELS: tuple[str, ...] = ("beginner", "random", "strategic", "greedy")


def game_state(puzzle: Puzzle) -> RoundState:
    """The puzzle's position in a plausible game: an opponent with 10 tiles and 30 in the
    pool (the tiles the table and the rack do not hold, in order), the puzzle's player to
    move. Bots weigh the pool and the other racks; the puzzle does not depend on them."""
    left = Counter(puzzle.rules.all_tiles()) - Counter(puzzle.table.tiles()) - puzzle.rack.counts()
    rest = sorted(left.elements(), key=sort_key)
    other = Rack(tuple(rest[:10]))
    return RoundState(
        puzzle.rules,
        (puzzle.rack, other),
        puzzle.table,
        tuple(rest[10:40]),
        (puzzle.opened, True),
        0,
    )


def bot_solves(puzzle: Puzzle, level: str, seed: int, time_limit: float | None = None) -> bool:
    """Whether the bot ``level`` (seeded) makes a play that solves the puzzle."""
    bot = get_bot(level, seed=seed)
    action = bot.act(observe(game_state(puzzle), 0), time_limit)
    return isinstance(action, Play) and check_answer(puzzle, action).solved


@dataclass(frozen=True, slots=True)
class Calibration:
    """The levels' ratings, the puzzles' new ratings (by id) and who solved what."""

    levels: dict[str, Rating]
    puzzles: dict[str, Rating]
    solved: dict[str, dict[str, bool]]  # level -> puzzle id -> solved


def calibrate(
    puzzles: Sequence[Puzzle],
    levels: Sequence[str] = LEVELS,
    *,
    passes: int = 3,
    time_limit: float | None = None,
) -> Calibration:
    """Every level attempts every puzzle once (the bots are seeded by the puzzle's position
    in the set); then ``passes`` rating periods in which every level meets every puzzle with
    that result update both sides (the puzzles start from their own rating, deviation 350;
    the levels from 1500/350)."""
    solved: dict[str, dict[str, bool]] = {
        lv: {p.id: bot_solves(p, lv, i, time_limit) for i, p in enumerate(puzzles)} for lv in levels
    }
    lv_r = {lv: Rating() for lv in levels}
    pz_r = {p.id: Rating(p.rating, 350.0) for p in puzzles}
    for _ in range(passes):
        new_lv = {
            lv: glicko2_update(
                lv_r[lv], [(pz_r[p.id], 1.0 if solved[lv][p.id] else 0.0) for p in puzzles]
            )
            for lv in levels
        }
        new_pz = {
            p.id: glicko2_update(
                pz_r[p.id],
                [(lv_r[lv], 0.0 if solved[lv][p.id] else 1.0) for lv in levels],
                min_rd=MIN_RD,
            )
            for p in puzzles
        }
        lv_r, pz_r = new_lv, new_pz
    return Calibration(lv_r, pz_r, solved)
