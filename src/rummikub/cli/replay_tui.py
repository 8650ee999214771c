"""Open a game record in its game's terminal replay viewer (``rummikub replay`` on a tty)."""

from __future__ import annotations

from pathlib import Path

from rummikub.core import GameRecord, RummikubError
from rummikub.games import iter_documents, load_any
from rummikub.xpress import XpressRecord

from .common import fail, terminal_lang

__all__ = ["open_viewer"]


def open_viewer(file: Path, lang: str | None, samples: int | None = None) -> bool:
    """Show ``file`` in the viewer of its game; ``False`` (print as text instead) if the
    terminal UI is not installed or the file holds several records. ``samples``: the deals a
    position of the tile game's review (A)."""
    try:
        from rummikub.tui import RummikubApp
        from rummikub.tui.screens.replay import frames_of
        from rummikub.tui.xpress_app import XpressApp
    except ImportError:  # pragma: no cover - depends on the installation
        return False
    try:
        docs = list(iter_documents(file))
        if len(docs) != 1:
            return False
        rec = load_any(docs[0][1])
        rec.verify()  # fail here, not inside the viewer, if it does not replay
        record = rec.record
        if isinstance(record, GameRecord):
            frames_of(record)
    except RummikubError as exc:
        raise fail(f"{file}: {exc}") from None
    if isinstance(record, XpressRecord):
        XpressApp.for_replay(record, lang=terminal_lang(lang)).run()
        return True
    if isinstance(record, GameRecord):
        RummikubApp(lang=terminal_lang(lang), record=record, review_samples=samples).run()
        return True
    return False  # a game without a terminal viewer: printed as text
