"""The turn editor: moving tiles, splitting/joining, validity with reasons, building plays."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.core import (
    JOKER,
    Rack,
    RoundState,
    Rules,
    Table,
    Tile,
    apply,
    check_play,
    parse_tile,
    preset,
)
from rummikub.tui.editor import (
    EditorError,
    IntoMeld,
    NewMeld,
    ToRack,
    TurnEditor,
    meld_problem,
)

STD = Rules()


def ids(ed: TurnEditor, text: str, origin: str | None = None) -> list[int]:
    """Piece ids for the tiles in ``text`` (rack first unless ``origin`` says otherwise)."""
    out: list[int] = []
    pieces = list(ed.rack) + [p for m in ed.melds for p in m]
    for tok in text.split():
        tile = parse_tile(tok)
        p = next(
            p
            for p in pieces
            if p.tile == tile and p.id not in out and (origin is None or p.origin == origin)
        )
        out.append(p.id)
    return out


def rows(ed: TurnEditor) -> list[str]:
    return [" ".join(str(p.tile) for p in m) for m in ed.melds]


def editor(table: str, rack: str, *, opened: bool = True, rules: Rules = STD) -> TurnEditor:
    return TurnEditor(Table.parse(table), Rack.parse(rack), rules, opened=opened)


def test_extend_a_run_and_build_the_play() -> None:
    ed = editor("R5 R6 R7 | K3 B3 O3", "R4 R8 K1")
    ed.move(ids(ed, "R8 R4"), IntoMeld(0))
    assert rows(ed) == ["R4 R5 R6 R7 R8", "K3 B3 O3"]  # valid melds are kept in order
    assert ed.placed == (parse_tile("R4"), parse_tile("R8"))
    assert ed.rack_tiles == (parse_tile("K1"),)
    play = ed.play()
    assert play is not None and str(play) == "R4 R8 -> R4 R5 R6 R7 R8 | K3 B3 O3"
    assert ed.problems() == []


def test_invalid_meld_is_flagged_with_a_reason() -> None:
    ed = editor("", "R4 K4 K5 O9")
    ed.move(ids(ed, "R4 K4"), NewMeld())
    check = ed.check(0)
    assert not check.valid and check.problem is not None
    assert check.problem.key == "error.meld-too-short" and check.problem.params == {"count": 2}
    ed.move(ids(ed, "K5"), IntoMeld(0))
    problem = ed.check(0).problem
    assert problem is not None and problem.key == "error.meld-mixed"
    assert [p.key for p in ed.problems()] == ["play.invalid_meld"]


@pytest.mark.parametrize(
    ("tiles", "key"),
    [
        ("R4 R5", "error.meld-too-short"),
        ("J J J", "error.meld-only-jokers"),
        ("R7 B7 R7", "error.meld-group-repeats"),
        ("R7 R8 R8", "error.meld-run-repeats"),
        ("R1 R2 R5", "error.meld-run-gaps"),
        ("R1 B2 K3", "error.meld-mixed"),
    ],
)
def test_meld_problem_names_the_reason(tiles: str, key: str) -> None:
    from rummikub.core import parse_tiles

    problem = meld_problem(parse_tiles(tiles), STD)
    assert problem is not None and problem.key == key


def test_group_too_big_needs_more_colours_than_exist() -> None:
    from rummikub.core import parse_tiles

    problem = meld_problem(parse_tiles("R7 B7 K7 O7 J"), STD)
    assert problem is not None and problem.key == "error.meld-group-too-big"
    assert meld_problem(parse_tiles("R7 B7 K7 O7"), STD) is None


def test_table_tiles_never_go_to_the_rack() -> None:
    ed = editor("R5 R6 R7", "K1")
    before = rows(ed), ed.rack_tiles
    with pytest.raises(EditorError) as info:
        ed.move(ids(ed, "R7", "table"), ToRack())
    assert info.value.problem.key == "edit.table_to_rack"
    assert (rows(ed), ed.rack_tiles) == before  # nothing changed


def test_rack_tiles_can_go_back() -> None:
    ed = editor("R5 R6 R7", "R8 K1")
    ed.move(ids(ed, "R8"), IntoMeld(0))
    ed.move(ids(ed, "R8", "rack"), ToRack(0))
    assert rows(ed) == ["R5 R6 R7"] and ed.rack_tiles[0] == parse_tile("R8")
    assert ed.play() is None and [p.key for p in ed.problems()] == ["play.no_rack_tile"]


def test_rearrange_split_and_join() -> None:
    # Split a run, put a rack tile into the middle: R1..R6 + R3 -> R1 R2 R3 | R3 R4 R5 R6
    ed = editor("R1 R2 R3 R4 R5 R6 | K7 B7 O7", "R3 R7")
    ed.split(0, 3)
    assert rows(ed) == ["R1 R2 R3", "R4 R5 R6", "K7 B7 O7"]
    ed.move(ids(ed, "R3", "rack"), IntoMeld(1, at=0))
    assert rows(ed)[1] == "R3 R4 R5 R6"
    ed.join(1, 0)  # meld 1 + meld 0 -> invalid (repeats R3)
    assert not ed.check(0).valid
    ed.undo()
    assert rows(ed) == ["R1 R2 R3", "R3 R4 R5 R6", "K7 B7 O7"]
    play = ed.play()
    assert play is not None
    state = RoundState(
        STD,
        (Rack.parse("R3 R7"), Rack.parse("K1")),
        Table.parse("R1 R2 R3 R4 R5 R6 | K7 B7 O7"),
        (),
        (True, True),
        0,
    )
    assert check_play(state, play) is None
    assert [c.changed for c in ed.checks()] == [True, True, False]


def test_split_and_join_reject_bad_indices() -> None:
    ed = editor("R1 R2 R3", "K1")
    bad: list[tuple[str, int, int]] = [
        ("split", 0, 0),
        ("split", 0, 3),
        ("split", 4, 1),
        ("join", 0, 0),
        ("join", 0, 3),
    ]
    for op, a, b in bad:
        with pytest.raises(EditorError):
            if op == "split":
                ed.split(a, b)
            else:
                ed.join(a, b)
    assert rows(ed) == ["R1 R2 R3"]


def test_joker_shows_its_tile_and_moves_to_the_other_end() -> None:
    ed = editor("", "R5 R6 J K1")
    ed.move(ids(ed, "R5 R6 J"), NewMeld())
    reading = ed.check(0).reading
    assert reading is not None and reading.joker_roles() == [parse_tile("R7")]
    joker = ids(ed, "J", "rack")[0]
    assert ed.shift(joker, -1)
    assert rows(ed) == ["J R5 R6"]
    reading = ed.check(0).reading
    assert reading is not None and reading.joker_roles() == [parse_tile("R4")]
    assert not ed.shift(joker, -1)  # already at the front


def test_opening_rules_are_previewed() -> None:
    ed = editor("K9 K10 K11", "R1 R2 R3 O10 B10 K10", opened=False)
    ed.move(ids(ed, "R1 R2 R3"), NewMeld())
    assert ed.new_value == 6
    assert [p.key for p in ed.problems()] == ["play.opening_value"]
    ed.move(ids(ed, "O10 B10 K10", "rack"), NewMeld())
    assert ed.new_value == 36 and ed.problems() == []
    ed.move(ids(ed, "K9", "table"), NewMeld())
    assert "play.opening_touches" in [p.key for p in ed.problems()]


def test_reset_puts_everything_back() -> None:
    ed = editor("R5 R6 R7 | K3 B3 O3", "R4 K1")
    start_rows, start_rack = rows(ed), ed.rack_tiles
    ed.move(ids(ed, "R4"), IntoMeld(0))
    ed.move(ids(ed, "K3", "table"), NewMeld())
    ed.split(0, 2)
    ed.reset()
    assert rows(ed) == start_rows and Counter(ed.rack_tiles) == Counter(start_rack)
    assert not ed.changed and ed.play() is None


def test_rack_views_and_manual_order() -> None:
    ed = editor("", "R7 K7 R8 B7 J R9")
    ed.sort_rack("group")
    assert " ".join(map(str, ed.rack_tiles)) == "K7 R7 B7 R8 R9 J"
    ed.sort_rack("run")
    assert " ".join(map(str, ed.rack_tiles)) == "K7 R7 R8 R9 B7 J"
    first = ed.rack[0].id
    assert ed.shift(first, 2)
    assert " ".join(map(str, ed.rack_tiles)) == "R7 R8 K7 R9 B7 J"
    assert not ed.shift(ed.rack[-1].id, 1)


def test_rack_order_is_kept_from_the_previous_turn() -> None:
    order = [parse_tile(t) for t in ["O1", "K2", "R3"]]
    ed = TurnEditor(Table(), Rack.parse("R3 K2 O1 B5"), STD, opened=True, rack_order=order)
    assert " ".join(map(str, ed.rack_tiles)) == "O1 K2 R3 B5"


def test_load_a_suggested_table() -> None:
    ed = editor("R5 J=R6 R7 | K3 B3 O3", "R4 R6 K1")
    ed.load(Table.parse("R4 R5 R6 R7 | K3 B3 O3 J"))
    assert rows(ed) == ["R4 R5 R6 R7", "K3 B3 O3 J"]
    assert ed.placed == (parse_tile("R4"), parse_tile("R6"))
    with pytest.raises(EditorError):
        ed.load(Table.parse("R4 R5 R6 R7"))  # the group would vanish


def test_table_joker_roles_are_kept_while_untouched() -> None:
    ed = editor("R5 J=5 J=5", "K1 K2 K3")
    reading = ed.check(0).reading
    assert reading is not None and reading.kind == "group"
    ed.move(ids(ed, "K1 K2 K3"), NewMeld())
    play = ed.play()
    assert play is not None and str(play.table.melds[0]) == "R5 J=5 J=5"


def test_bad_moves_change_nothing() -> None:
    ed = editor("R5 R6 R7", "K1 K2")
    k1 = ids(ed, "K1")
    for ids_, target in (
        ([], NewMeld()),
        (k1 + k1, NewMeld()),
        ([999], NewMeld()),
        (k1, IntoMeld(5)),
    ):
        with pytest.raises(EditorError):
            ed.move(ids_, target)
    assert rows(ed) == ["R5 R6 R7"] and len(ed.rack) == 2


# ---------------------------------------------------------------------- properties
TILES = st.sampled_from([Tile(c, n) for c in range(4) for n in range(1, 14)] + [JOKER])


@st.composite
def edits(draw: st.DrawFn) -> tuple[TurnEditor, list[tuple[str, int, int, int]]]:
    table_melds = draw(
        st.lists(
            st.sampled_from(
                ["R1 R2 R3", "K5 B5 O5", "B9 B10 B11 B12", "O7 J O9", "K13 R13 B13 O13"]
            ),
            max_size=4,
        )
    )
    rack = draw(st.lists(TILES, min_size=1, max_size=10))
    ed = TurnEditor(Table.parse(" | ".join(table_melds)), Rack(tuple(rack)), STD, opened=True)
    ops = draw(
        st.lists(
            st.tuples(
                st.sampled_from(["new", "into", "rack", "split", "join", "shift", "undo"]),
                st.integers(0, 40),
                st.integers(0, 12),
                st.integers(-3, 3),
            ),
            max_size=25,
        )
    )
    return ed, ops


@given(edits())
@settings(max_examples=150, deadline=None)
def test_edits_conserve_tiles_and_build_legal_or_explained_plays(
    case: tuple[TurnEditor, list[tuple[str, int, int, int]]],
) -> None:
    ed, ops = case
    start_table = Counter(ed.start_table.tiles())
    everything = start_table + Counter(ed.rack_tiles)
    for op, a, b, c in ops:
        all_ids = sorted(ed.pieces)
        pid = all_ids[a % len(all_ids)]
        try:
            if op == "new":
                ed.move([pid], NewMeld())
            elif op == "into" and ed.melds:
                ed.move([pid], IntoMeld(b % len(ed.melds), at=c % 4 if c >= 0 else None))
            elif op == "rack":
                ed.move([pid], ToRack())
            elif op == "split" and ed.melds:
                ed.split(b % len(ed.melds), abs(c))
            elif op == "join" and len(ed.melds) > 1:
                ed.join(b % len(ed.melds), a % len(ed.melds))
            elif op == "shift":
                ed.shift(pid, c)
            elif op == "undo":
                ed.undo()
        except EditorError:
            pass
        on_table = Counter(p.tile for m in ed.melds for p in m)
        # tiles are conserved, table tiles never leave the table, no empty melds
        assert on_table + Counter(ed.rack_tiles) == everything
        assert not start_table - on_table
        assert all(ed.melds)
        assert Counter(ed.placed) == on_table - start_table
    play = ed.play()
    state = RoundState(
        STD,
        (Rack(ed.rack_tiles + ed.placed), Rack.parse("K1")),
        ed.start_table,
        (),
        (True, True),
        0,
    )
    if play is None:  # nothing placed: no play (the reset below is checked all the same)
        assert not ed.placed
    else:
        err = check_play(state, play)
        if ed.problems():
            assert err is not None
        else:
            assert err is None
            after = apply(state, play)
            assert Counter(after.table.tiles()) == Counter(p.tile for m in ed.melds for p in m)
    ed.reset()
    assert Counter(ed.start_table.tiles()) == Counter(p.tile for m in ed.melds for p in m)


def test_presets_with_strict_jokers_are_judged_by_the_engine() -> None:
    rules = preset("classic-strict")
    ed = editor("R5 J R7", "R6 K1", rules=rules)
    ed.move(ids(ed, "R6"), IntoMeld(0))
    ed.move(ids(ed, "J", "table"), NewMeld())
    assert not ed.check(1).valid  # a lone joker
