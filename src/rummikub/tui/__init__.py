"""Play Rummikub in the terminal (Textual): ``rummikub play`` and ``rummikub replay``.

The pieces: :class:`~rummikub.tui.editor.TurnEditor` (the working table and rack of a turn,
pure Python), :class:`~rummikub.tui.session.Session` (the match, seats, bots, clock, saving)
and :class:`~rummikub.tui.app.RummikubApp` (the screens and widgets).
"""

from __future__ import annotations

from .app import RummikubApp
from .editor import TurnEditor
from .session import GameSetup, Seat, Session, autosave_path, build_rules

__all__ = [
    "GameSetup",
    "RummikubApp",
    "Seat",
    "Session",
    "TurnEditor",
    "autosave_path",
    "build_rules",
]
