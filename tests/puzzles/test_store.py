"""The local player's puzzle file: the first attempt at a puzzle is rated, later ones are
practice; a file that cannot be read is refused with its path."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from rummikub.puzzles import Goal, PuzzleCode, PuzzleError
from rummikub.puzzles.store import PlayerStore, default_path

from .helpers import make_one


def test_first_attempt_rated_then_practice(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    store = PlayerStore.open(path)
    p = make_one("K5 K6 K7 K8", "R8 B8", Goal.GO_OUT).with_rating(1500, 100)
    first = store.record(p, True, day=dt.date(2026, 12, 3))
    assert first.rating > 1500 and first.puzzle_rating < 1500
    again = store.record(p, False, day=dt.date(2026, 12, 4))
    assert again.rating == first.rating  # practice: no rating moves
    back = PlayerStore.open(path)
    assert back.rating == store.rating
    assert [(a.solved, a.date) for a in back.history] == [
        (True, "2026-12-03"),
        (False, "2026-12-04"),
    ]
    assert back.puzzle_rating(p).rating == first.puzzle_rating
    assert back.done() == {p.id}


def test_an_unreadable_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text("{not json")
    with pytest.raises(PuzzleError) as info:
        PlayerStore.open(path)
    assert info.value.code is PuzzleCode.BAD_STORE and info.value.params["path"] == str(path)


def test_the_default_place_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "rummikub" / "puzzles.json"
