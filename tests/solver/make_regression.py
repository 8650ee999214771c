"""Write ``tests/data/solver_positions.jsonl``: positions from seeded games, with the expected
tiles and value, each checked against the HiGHS reference when written.

Games are played by the built-in ``beginner`` bot and by a player that always takes the
solver's best play (so tables grow large), under several presets. Run from the repository:

    python -m tests.solver.make_regression
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from rummikub.bots import get_bot
from rummikub.core import Draw, Match, Pass, Rules, preset
from rummikub.core.melds import read_meld
from rummikub.solver import Position, solve_position
from rummikub.solver.strict import locked_melds

from .ilp_reference import ilp_solve

OUT = Path(__file__).resolve().parents[1] / "data" / "solver_positions.jsonl"


def _positions(
    rules: Rules, seed: int, players: int, bot: str | None, every: int
) -> list[Position]:
    match = Match(rules, [f"p{i}" for i in range(players)], seed)
    bots = [get_bot(bot, seed=seed * 10 + i) for i in range(players)] if bot else None
    out: list[Position] = []
    while not match.round_over and match.state.turn < 400:
        state = match.state
        me = state.current
        pos = Position(state.table, state.rack, state.opened[me], rules)
        if state.turn % every == 0:
            out.append(pos)
        if bots is not None:
            action = bots[me].act(match.observation(me, None), None)
        else:
            sol = solve_position(pos)
            action = sol.as_play() or (Draw() if state.pool else Pass())
        match.act(action)
    return out


def _expected(pos: Position) -> dict[str, int]:
    sol = solve_position(pos)
    rules = pos.rules
    if pos.opened:
        locked = locked_melds(pos.table, rules)
        free = [t for i, m in enumerate(pos.table.melds) if i not in locked for t in m.tiles]
        ref = ilp_solve(free, pos.rack.tiles, rules)
        assert ref is not None
        old = sum(
            read_meld(m, rules).value for i, m in enumerate(pos.table.melds) if i not in locked
        )
        want = (ref.tiles, ref.value - old if ref.tiles else 0)
    else:
        ref = ilp_solve([], pos.rack.tiles, rules, floor=rules.opening_value)
        want = (ref.tiles, ref.value) if ref is not None and ref.tiles else (0, 0)
    got = (sol.tiles, sol.value)
    if got != want:
        raise AssertionError(f"solver {got} != ILP {want} for {json.dumps(pos.to_json())}")
    return {"tiles": sol.tiles, "value": sol.value}


def main() -> None:
    rng = random.Random(2024)
    games = [
        ("standard", None, 4),
        ("standard", "beginner", 4),
        ("xp", None, 6),
        ("classic-strict", None, 3),
        ("standard", None, 2),
        ("casual", "beginner", 3),
    ]
    lines: list[str] = []
    for k, (name, bot, players) in enumerate(games * 2):
        positions = _positions(preset(name), 100 + k, players, bot, every=3)
        rng.shuffle(positions)
        for pos in positions[:15]:
            entry = {"position": pos.to_json(), **_expected(pos)}
            lines.append(json.dumps(entry, separators=(",", ":")))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} positions to {OUT}")


if __name__ == "__main__":
    main()
