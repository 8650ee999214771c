"""The dice model: the default layout, custom layouts and their validation."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rummikub.core.errors import RulesError
from rummikub.core.tiles import JOKER, Tile
from rummikub.xpress import check_layout, default_layout, face_value, load_layout


def test_default_layout_is_18_dice_of_six_different_faces() -> None:
    layout = default_layout()
    assert len(layout) == 18
    faces: Counter[Tile] = Counter()
    for die in layout.dice:
        assert len(die.faces) == 6
        assert len(set(die.faces)) == 6
        faces.update(die.faces)
    assert faces[JOKER] == 4
    for c in range(4):
        for n in range(1, 14):
            assert faces[Tile(c, n)] == 2
    assert sum(faces.values()) == 108


def test_default_layout_documented_spread() -> None:
    layout = default_layout()
    assert sum(1 for d in layout.dice if JOKER in d.faces) == 4  # jokers on four dice
    assert len({d.faces for d in layout.dice}) == 18  # no two dice alike
    for die in layout.dice:
        numbers = [f.number for f in die.faces if not f.is_joker]
        assert len(set(numbers)) == len(numbers)  # six different numbers
        colours = Counter(f.colour for f in die.faces if not f.is_joker)
        assert max(colours.values()) <= 2
        assert 38 <= sum(face_value(f) for f in die.faces) <= 48


def test_custom_layout_round_trips(tmp_path: Path) -> None:
    dice = [list(d) for d in default_layout().to_json()["dice"]]
    # swap two faces between two dice: still a valid layout
    dice[0][0], dice[1][0] = dice[1][0], dice[0][0]
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"name": "mine", "dice": dice}), encoding="utf-8")
    layout = load_layout(path)
    assert layout.name == "mine"
    assert layout.to_json()["dice"] == dice
    assert check_layout(layout.to_json()) == layout


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d[:17], "has 18 dice"),
        (lambda d: [d[0][:5], *d[1:]], "die 1 has 5 faces"),
        (lambda d: [[d[0][0], d[0][0], *d[0][2:]], *d[1:]], "die 1 shows"),
        (lambda d: [["K1", *d[0][1:]], *d[1:]] if d[0][0] != "K1" else d, "too many K1"),
        (lambda d: [["X1", *d[0][1:]], *d[1:]], "unknown colour letter"),
        (lambda d: [["K14", *d[0][1:]], *d[1:]], "not an Xpress face"),
    ],
)
def test_bad_layouts_are_rejected_naming_the_problem(change: object, message: str) -> None:
    dice = [list(d) for d in default_layout().to_json()["dice"]]
    assert callable(change)
    with pytest.raises(RulesError, match=message):
        check_layout({"name": "bad", "dice": change(dice)})


def test_layout_object_fields_are_checked(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="unknown layout field"):
        check_layout({"name": "x", "dice": [], "sides": 6})
    with pytest.raises(RulesError, match="needs a 'dice' list"):
        check_layout({"name": "x"})
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(RulesError, match="not valid JSON"):
        load_layout(path)


def test_face_values() -> None:
    assert face_value(Tile(1, 7)) == 7
    assert face_value(JOKER) == 10
