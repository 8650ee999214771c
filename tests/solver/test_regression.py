"""Positions from real (seeded) games with their known optimum; see ``make_regression.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rummikub.solver import Position, solve_position

from .positions import check_solution

DATA = Path(__file__).resolve().parents[1] / "data" / "solver_positions.jsonl"
ENTRIES: list[dict[str, Any]] = [json.loads(x) for x in DATA.read_text().splitlines() if x]


def test_regression_file_is_substantial() -> None:
    assert len(ENTRIES) >= 100
    assert any(not e["position"]["opened"] for e in ENTRIES)
    assert any(e["tiles"] > 0 for e in ENTRIES)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"{e['tiles']}-{e['value']}")
def test_known_optimum(entry: dict[str, Any]) -> None:
    pos = Position.from_json(entry["position"])
    sol = solve_position(pos)
    assert (sol.tiles, sol.value) == (entry["tiles"], entry["value"])
    check_solution(pos.table, pos.rack, pos.opened, pos.rules, sol)
