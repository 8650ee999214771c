"""Two sentences of the printed Xpress rules (seed 000): "If the player has a set, he/she must
place it on the table" (``must_place_sets``) and "A Joker that is removed from a set must become
part of another set during the same turn" (``freed_joker_new_set``) -- in the engine, the
solver, the bots and the hints."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.core.melds import Meld, is_valid_meld, read_meld, replaced_joker_kept
from rummikub.core.table import Table
from rummikub.core.tiles import JOKER, Tile, parse_tiles
from rummikub.server.rooms.games.xpress import xpress_hint
from rummikub.xpress import (
    EndTurn,
    Place,
    RandomBot,
    Throw,
    XpressMatch,
    XpressPlayer,
    XpressRules,
    XpressState,
    apply,
    best_placement,
    can_place,
    check,
    get_bot,
)
from rummikub.xpress.observation import observe
from rummikub.xpress.solver import arrange_onto, hand_set

from .xpress_helpers import dice_of, make_state


def place(state: XpressState, faces: str, table: str) -> XpressState:
    return apply(state, Place(dice_of(state, faces), Table.parse(table)))


def reason(state: XpressState, action: Place | EndTurn) -> str | None:
    err = check(state, action)
    return None if err is None else err.reason


# ------------------------------------------------------------------ must_place_sets
def test_the_briefs_case_a_held_set_after_a_table_addition() -> None:
    # R1 R2 R3 after the throw; laying only K9 onto the table run does not end the turn
    state = make_state("R1 R2 R3 K9 B5", "O2 O4 B7", "K6 K7 K8")
    after = place(state, "K9", "K6 K7 K8 K9")
    assert reason(after, EndTurn()) == "must-place-set"
    assert "R1 R2 R3" in str(check(after, EndTurn()))
    done = place(after, "R1 R2 R3", "K6 K7 K8 K9 | R1 R2 R3")
    assert reason(done, EndTurn()) is None


def test_every_held_set_is_placed() -> None:
    # two disjoint sets: "it" is each set held -- placing one is not enough
    state = make_state("R1 R2 R3 K9 B9 O9 B5", "O2 O4 B7")
    after = place(state, "R1 R2 R3", "R1 R2 R3")
    assert reason(after, EndTurn()) == "must-place-set"
    after = place(after, "K9 B9 O9", "R1 R2 R3 | K9 B9 O9")
    assert reason(after, EndTurn()) is None


def test_overlapping_sets_one_placed_leaves_none() -> None:
    # R3 R4 R5 or R5 K5 B5: they share R5; once one is placed no set is left
    state = make_state("R3 R4 R5 K5 B5 O1", "O2 O4 B7")
    after = place(state, "R3 R4 R5", "R3 R4 R5")
    assert reason(after, EndTurn()) is None


def test_dice_used_on_the_table_count_as_placed() -> None:
    # the set's dice may go onto the table in any legal way, here extending a run
    state = make_state("R4 R5 R6 B1", "O2 O4 B7", "R1 R2 R3")
    after = place(state, "R4 R5 R6", "R1 R2 R3 R4 R5 R6")
    assert reason(after, EndTurn()) is None


def test_bots_place_every_held_set() -> None:
    state = make_state("R1 R2 R3 K9 B5", "O2 O4 B7", "K6 K7 K8")
    after = place(state, "K9", "K6 K7 K8 K9")
    for name in ("greedy", "expert", "random"):
        action = get_bot(name, 1).act(observe(after, 0))
        assert isinstance(action, Place), name
        assert check(after, action) is None
    assert hand_set(parse_tiles("R1 R2 R3 B5")) == Meld.parse("R1 R2 R3")
    assert hand_set(parse_tiles("R1 R2 B5")) is None


# --------------------------------------------------------------- freed_joker_new_set
def test_the_briefs_case_the_joker_may_not_stay_in_its_set() -> None:
    state = make_state("R6 B1 B2 O9", "O2 O4 B7", "R5 J R7")
    assert reason(state, Place(dice_of(state, "R6"), Table.parse("R5 R6 R7 J"))) == "joker-rule"
    ok = Place(dice_of(state, "R6 B1 B2"), Table.parse("R5 R6 R7 | B1 B2 J"))
    assert reason(state, ok) is None
    # without the option (records from before it): the old behaviour
    rules = XpressRules(dice_per_player=4, freed_joker_new_set=False)
    old = make_state("R6 B1 B2 O9", "O2 O4 B7", "R5 J R7", rules=rules)
    assert reason(old, Place(dice_of(old, "R6"), Table.parse("R5 R6 R7 J"))) is None


def test_solver_keeps_a_replaced_joker_out_of_its_set() -> None:
    table = Table.parse("R5 J R7")
    hand = parse_tiles("R6 O9")
    assert best_placement(table, hand, new_set=False).count == 1  # R5 R6 R7 J
    assert best_placement(table, hand).count == 0
    assert not can_place(table, hand)
    best = best_placement(table, parse_tiles("R6 B1 B2"))
    assert best.count == 3
    assert replaced_joker_kept(table.melds, best.table.melds) is None
    assert arrange_onto(table, parse_tiles("R6")) is None
    assert arrange_onto(table, parse_tiles("R6"), new_set=False) is not None


def test_can_place_follows_the_rule() -> None:
    state = make_state("R6 O9 K2", "O2 O4 B7", "R5 J R7", phase="throw")
    after = apply(state, Throw(dice_of(state, "K2"), (Tile(0, 2),)))
    assert not after.can_place  # R6 could only go where it would keep the joker in its set
    assert reason(after, EndTurn()) is None


def test_bots_and_hint_obey_the_joker_rule() -> None:
    state = make_state("R6 B1 B2 O9", "O2 O4 B7", "R5 J R7")
    obs = observe(state, 0)
    for name in ("greedy", "expert", "random"):
        for seed in range(5):
            action = get_bot(name, seed).act(obs)
            assert check(state, action) is None, (name, seed, action)
    hint = xpress_hint(obs)
    assert sorted(hint["dice"]) == sorted(dice_of(state, "R6 B1 B2"))


# ------------------------------------------------------------------ property tests
COLOURS = 4


def _random_position(rng: random.Random) -> tuple[Table, list[Tile]]:
    """A table of 1-3 runs each holding a joker (plus maybe a group) and a random hand."""
    melds: list[Meld] = []
    used: Counter[Tile] = Counter()
    jokers = 0
    for _ in range(rng.randint(1, 3)):
        colour, length = rng.randrange(COLOURS), rng.randint(3, 5)
        start = rng.randint(1, 14 - length)
        tiles = [Tile(colour, n) for n in range(start, start + length)]
        pos = rng.randrange(length)
        if jokers < 4:
            tiles[pos] = JOKER
            jokers += 1
        if any(used[t] >= 2 for t in tiles if not t.is_joker):
            continue
        used.update(t for t in tiles if not t.is_joker)
        melds.append(Meld(tuple(tiles)))
    hand: list[Tile] = []
    for m in melds:  # often the very die a table joker stands for
        role = read_meld(m).joker_roles()
        if role and isinstance(role[0], Tile) and used[role[0]] < 2 and rng.random() < 0.6:
            used[role[0]] += 1
            hand.append(role[0])
    while len(hand) < rng.randint(2, 7):
        if rng.random() < 0.1 and jokers < 4:
            hand.append(JOKER)
            jokers += 1
            continue
        t = Tile(rng.randrange(COLOURS), rng.randint(1, 13))
        if used[t] < 2:
            used[t] += 1
            hand.append(t)
    return Table(tuple(m.canonical() for m in melds)), hand


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9))
def test_solver_placements_are_always_legal(seed: int) -> None:
    table, hand = _random_position(random.Random(seed))
    best = best_placement(table, hand)
    assert all(is_valid_meld(m) for m in best.table.melds)
    assert Counter(best.table.tiles()) == Counter(table.tiles()) + Counter(best.faces)
    assert not Counter(best.faces) - Counter(hand)
    assert replaced_joker_kept(table.melds, best.table.melds) is None
    free = best_placement(table, hand, new_set=False)
    assert best.count <= free.count
    # the rule costs nothing unless the best placement without it breaks it
    assert best.count == free.count or replaced_joker_kept(table.melds, free.table.melds)
    assert can_place(table, hand) == (best.count > 0)
    # a held set always goes onto the table as a new set (must_place_sets never traps a bot)
    held = hand_set(hand)
    new = Table((*table.melds, *([held] if held is not None else [])))
    assert replaced_joker_kept(table.melds, new.melds) is None


def test_the_random_positions_exercise_the_rule() -> None:
    broken = 0
    for seed in range(300):
        table, hand = _random_position(random.Random(seed))
        free = best_placement(table, hand, new_set=False)
        broken += replaced_joker_kept(table.melds, free.table.melds) is not None
    assert broken >= 15


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_random_bot_games_keep_the_printed_rules(seed: int) -> None:
    bots = [RandomBot(seed), get_bot("greedy", seed + 1)]
    players = [XpressPlayer("r", "bot", "random"), XpressPlayer("g", "bot", "greedy")]
    match = XpressMatch(players, seed, rules=XpressRules(rounds=1))
    steps = 0
    while match.state.end is None:
        state = match.state
        action = bots[state.current].act(match.observation(state.current))
        if not isinstance(action, Throw):  # (the game throws the dice)
            assert check(state, action) is None  # every bot action is legal under both rules
        match.act(action)
        if isinstance(action, EndTurn):
            assert state.placed > 0 or not state.can_place
            assert hand_set([d.face for d in state.hand]) is None
        steps += 1
        assert steps < 5000
