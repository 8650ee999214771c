"""Melds as the clients show and check them, for every game whose table holds melds of tiles
(the tile game; Xpress, whose dice show tiles)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummikub.core import IllegalPlayError, Meld, NotationError, Rules, Table, read_meld

from ...protocol.codes import refusal

__all__ = ["judge_melds", "shown_meld", "shown_table"]


def shown_meld(meld: Meld, rules: Rules) -> list[str]:
    """A meld as the client shows it: canonical order, every joker with the tile it stands for
    (``J=R6`` in a run, ``J=7`` in a group)."""
    try:
        return read_meld(meld, rules).labels()
    except IllegalPlayError:
        return meld.to_json()


def shown_table(table: Table, rules: Rules) -> list[list[str]]:
    return [shown_meld(m, rules) for m in table.melds]


def judge_melds(
    table_json: Sequence[Sequence[str]], rules: Rules, word: str
) -> list[dict[str, Any]]:
    """Each meld of a table a player is building, judged under ``rules``: its value, kind and
    shown form, or why it is not a meld (``word`` names a meld in the messages)."""
    melds: list[dict[str, Any]] = []
    for i, m in enumerate(table_json):
        try:
            meld = Meld.from_json(list(m), where=f"{word} {i + 1}")
            reading = read_meld(meld, rules)
            melds.append(
                {
                    "ok": True,
                    "value": reading.value,
                    "kind": reading.kind,
                    "meld": shown_meld(meld, rules),
                }
            )
        except (IllegalPlayError, NotationError) as exc:
            melds.append(refusal(exc, reason=str(exc)))
    return melds
