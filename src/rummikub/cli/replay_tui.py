"""Open a game record in the terminal replay viewer (used by ``rummikub replay`` on a tty)."""

from __future__ import annotations

from pathlib import Path

from rummikub.core import RummikubError, load_record

from .common import fail
from .records import iter_documents

__all__ = ["open_viewer"]


def open_viewer(file: Path, lang: str | None) -> bool:
    """Show ``file`` in the viewer; ``False`` (print as text instead) if the terminal UI is
    not installed or the file holds several records."""
    try:
        from rummikub.tui import RummikubApp
    except ImportError:  # pragma: no cover - depends on the installation
        return False
    try:
        docs = list(iter_documents(file))
        if len(docs) != 1:
            return False
        record = load_record(docs[0][1])
        from rummikub.tui.screens.replay import frames_of

        frames_of(record)  # fail here, not inside the viewer, if it does not replay
    except RummikubError as exc:
        raise fail(f"{file}: {exc}") from None
    RummikubApp(lang=lang, record=record).run()
    return True
