"""How fast the terminal UI's turn editor edits and re-judges a crowded table.

Run: ``.venv/bin/python bench/tui_editor.py``. Prints edits (split or undo, each followed by
re-checking every meld, as the UI does before redrawing) per second, and the ratio to reading
every meld with the engine's ``read_meld`` alone (the floor the editor builds on).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rummikub.core import Rack, Rules, Table, read_meld
from rummikub.tui.editor import TurnEditor


def crowded_table() -> Table:
    melds = []
    for c in "KRBO":
        melds += [
            f"{c}1 {c}2 {c}3",
            f"{c}4 {c}5 {c}6 {c}7",
            f"{c}8 {c}9 {c}10",
            f"{c}11 {c}12 {c}13",
        ]
    melds += ["K1 R1 B1", "K5 R5 O5", "B9 O9 K9", "R13 B13 O13 J", "K12 R12 B12", "O2 B2 K2"]
    return Table.parse(" | ".join(melds))


def rate(fn: Callable[[], None], seconds: float = 1.5) -> float:
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn()
        count += 1
    return count / (time.perf_counter() - start)


def main() -> None:
    table = crowded_table()
    rules = Rules()
    editor = TurnEditor(table, Rack.parse("R7 B7 O7 J K10 R3"), rules, opened=True)

    def edit() -> None:
        editor.split(1, 2)
        editor.checks()
        editor.undo()
        editor.checks()

    def reference() -> None:
        for meld in table.melds:
            read_meld(meld, rules)
        for meld in table.melds:
            read_meld(meld, rules)

    edits = rate(edit) * 2
    ref = rate(reference) * 2
    print(f"{len(table.melds)} melds, {len(table.tiles())} tiles")
    print(f"editor: {edits:,.0f} edits + full re-check per second ({1000 / edits:.2f} ms each)")
    print(
        f"read_meld over the table: {ref:,.0f} per second; editor/reference time ratio "
        f"{ref / edits:.1f}x"
    )


if __name__ == "__main__":
    main()
