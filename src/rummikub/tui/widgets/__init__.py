"""Widgets of the terminal UI: board (table and rack), timer, players panel, log."""

from __future__ import annotations

from .board import (
    DropClicked,
    MeldClicked,
    MeldRow,
    RackView,
    TableView,
    TileClicked,
    rows_from_editor,
    rows_from_table,
)
from .panels import GameLog, PlayersPanel, TurnTimer

__all__ = [
    "DropClicked",
    "GameLog",
    "MeldClicked",
    "MeldRow",
    "PlayersPanel",
    "RackView",
    "TableView",
    "TileClicked",
    "TurnTimer",
    "rows_from_editor",
    "rows_from_table",
]
