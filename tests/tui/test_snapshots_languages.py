"""Snapshots of the game screen in the languages of the printed editions, on the smallest
terminal the game is made for (80x24): the words fit, no word is cut in two."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from rummikub.i18n import catalogue, translator
from rummikub.tui import RummikubApp, Session

from .conftest import FakeClock, duel, screen_lines, settle

SnapCompare = Any
SMALL = (80, 24)


def _game_screen(snap_compare: SnapCompare, lang: str) -> list[str]:
    """The game screen in ``lang`` at 80x24, compared with its snapshot; its lines."""
    app = RummikubApp(
        session=Session(duel(), autosave=None), lang=lang, clock=FakeClock(), tick=3600.0, speed=4
    )
    shown: list[str] = []

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        shown.extend(screen_lines(app))

    assert snap_compare(app, terminal_size=SMALL, run_before=run_before)
    return shown


def test_game_screen_in_german_at_80x24(snap_compare: SnapCompare) -> None:
    shown = _game_screen(snap_compare, "de")
    text = "\n".join(shown)
    assert len(shown) == SMALL[1]
    assert "Runde 1 · du bist am Zug" in text
    assert "Dein Bänkchen (8 Steine)" in text
    # every button's word whole on its line ("Rücksetzen", not "Zurücksetz" + "en")
    assert "Rücksetzen" in text and "Rückgängig" in text and "Speichern" in text


def test_game_screen_in_polish_at_80x24(snap_compare: SnapCompare) -> None:
    """Polish has the longest words of the languages on the small terminal (plural forms
    included): they fit, whole."""
    shown = _game_screen(snap_compare, "pl")
    text = "\n".join(shown)
    t = translator("pl")
    assert len(shown) == SMALL[1]
    assert t("game.rack") != catalogue("en")["game.rack"]  # Polish words, not the fallback
    words = set(text.split())
    for key in ("button.end_turn", "button.reset", "button.undo", "button.save", "button.hint"):
        # a label of two words may take two lines ("Cofnij" over "wszystko"), but no word is
        # cut in two
        assert set(t(key).split()) <= words, key
