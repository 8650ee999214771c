"""Game flow: players, choosing the first player, the deal, turns, timeouts, invalid plays."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummikub.core import (
    Code,
    Draw,
    IllegalPlayError,
    Match,
    Pass,
    Play,
    RulesError,
    Table,
    Tile,
    Timeout,
    UsageError,
    parse_tiles,
    preset,
)
from rummikub.core.game import choose_first, deal

from .strategies import STANDARD


# ------------------------------------------------------------------------------- seats
@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players(players: int) -> None:
    match = Match(STANDARD, [f"p{i}" for i in range(players)], seed=1)
    assert match.state.players == players


@pytest.mark.parametrize(
    ("players", "said"), [(0, "0 players,"), (1, "1 player,"), (5, "5 players,"), (6, "6 players,")]
)
def test_wrong_player_count_is_rejected(players: int, said: str) -> None:
    with pytest.raises(RulesError, match=said):
        Match(STANDARD, [f"p{i}" for i in range(players)], seed=1)


@pytest.mark.parametrize("players", [5, 6])
def test_large_set_seats_five_or_six(players: int) -> None:
    match = Match(preset("xp"), [f"p{i}" for i in range(players)], seed=1)
    assert match.state.tile_total() == 160
    assert len(match.state.pool) == 160 - 14 * players


# -------------------------------------------------------------------- the first player
class StackedBag(random.Random):
    """A generator whose shuffles lay the bag out so that tiles are drawn in a given order
    (whichever end the engine draws from, each shuffle is checked to be a permutation)."""

    def __init__(self, draws: list[str]) -> None:
        super().__init__(0)
        self.draws = list(parse_tiles(" ".join(draws)))

    def shuffle(self, x: list[Tile]) -> None:  # type: ignore[override]
        rest = Counter(x)
        rest.subtract(self.draws)
        assert not -rest
        # the engine pops from the end: put the planned draws there, first draw last
        x[:] = [*sorted(rest.elements()), *reversed(self.draws)]


def test_highest_number_starts() -> None:
    assert choose_first(StackedBag(["K3", "R12", "B7"]), STANDARD, 3) == 1


def test_joker_is_redrawn() -> None:
    # player 0 draws a joker and draws again (K2); player 1 draws B9
    assert choose_first(StackedBag(["J", "K2", "B9"]), STANDARD, 2) == 1
    assert choose_first(StackedBag(["J", "K13", "B9"]), STANDARD, 2) == 0


def test_ties_redraw_among_the_tied_players() -> None:
    # players 1 and 2 tie on 9 (player 0 is out); in the redraw player 1 draws 3, player 2 4
    assert choose_first(StackedBag(["K5", "R9", "B9", "O3", "K4"]), STANDARD, 3) == 2
    # player 0, not in the redraw, would have won with the 13 the next draw shows
    assert choose_first(StackedBag(["K5", "R9", "B9", "O13", "K4", "K13"]), STANDARD, 3) == 1


def test_first_player_is_spread_over_the_seats() -> None:
    firsts = Counter(Match(STANDARD, ["a", "b", "c"], seed=s).state.current for s in range(90))
    assert set(firsts) == {0, 1, 2}


# ---------------------------------------------------------------------------- the deal
def test_deal_gives_rack_size_tiles_and_keeps_the_set_whole() -> None:
    rules = STANDARD.replace(rack_size=10)
    racks, pool = deal(random.Random(3), rules, 3)
    assert [len(r) for r in racks] == [10, 10, 10]
    everything = Counter(pool)
    for r in racks:
        everything.update(r.tiles)
    assert everything == Counter(rules.all_tiles())


def test_same_seed_same_game_other_seed_other_game() -> None:
    a = Match(STANDARD, ["a", "b"], seed=11)
    b = Match(STANDARD, ["a", "b"], seed=11)
    c = Match(STANDARD, ["a", "b"], seed=12)
    assert a.state == b.state
    assert a.state.pool != c.state.pool
    assert a.rounds[0].pool == a.state.pool
    assert a.rounds[0].racks == a.state.racks


# ------------------------------------------------------------------------------- turns
def test_turns_go_round_the_table_and_draw_ends_the_turn() -> None:
    match = Match(STANDARD, ["a", "b", "c"], seed=5)
    start = match.state.current
    seen = []
    for _ in range(6):
        seen.append(match.state.current)
        front = match.state.pool[0]
        log = match.act(Draw())
        assert log.tile == front and log.action == "draw"
    assert seen == [(start + k) % 3 for k in range(6)]


def test_pass_is_refused_while_the_pool_has_tiles() -> None:
    match = Match(STANDARD, ["a", "b"], seed=5)
    before = match.state
    with pytest.raises(IllegalPlayError, match="draw instead"):
        match.act(Pass())
    assert match.state is before and match.rounds[-1].turns == []


def _fresh(rules_name: str = "standard", **changes: object) -> Match:
    rules = preset(rules_name).replace(**changes) if changes else preset(rules_name)
    return Match(rules, ["a", "b"], seed=3)


def test_timeout_reverts_and_draws_the_penalty() -> None:
    for name, count in (("standard", 1), ("tournament", 3)):
        match = _fresh(name)
        state = match.state
        log = match.act(Timeout())
        assert log.action == "timeout"
        assert log.penalty == state.pool[:count]
        assert len(match.state.racks[state.current]) == 14 + count
        assert match.state.table == state.table
        assert match.state.current != state.current


def test_penalty_draws_only_what_the_pool_holds() -> None:
    match = _fresh("tournament")
    match.state = match.state.__class__(
        match.state.rules,
        match.state.racks,
        Table(),
        match.state.pool[:2],
        match.state.opened,
        match.state.current,
    )
    player = match.state.current
    log = match.act(Timeout())
    assert len(log.penalty) == 2 and not match.state.pool
    assert len(match.state.racks[player]) == 16
    # with the pool empty a timeout counts as a pass
    log = match.act(Timeout())
    assert log.penalty == () and match.state.passes == 1


def test_invalid_play_in_reject_mode_changes_nothing() -> None:
    match = _fresh()
    state = match.state
    tile = state.rack.tiles[0]
    bad = Play((tile,), Table.of([[tile]]))
    for _ in range(3):  # the player may keep trying
        with pytest.raises(IllegalPlayError):
            match.act(bad)
        assert match.state is state
    assert match.rounds[-1].turns == []


def test_invalid_play_in_penalty_mode() -> None:
    match = _fresh("tournament")
    state = match.state
    tile = state.rack.tiles[0]
    log = match.act(Play((tile,), Table.of([[tile]])))
    assert log.action == "invalid" and log.reason
    assert log.penalty == state.pool[:3]
    assert match.state.table == state.table
    assert len(match.state.racks[state.current]) == 17
    assert match.state.current != state.current


def test_invalid_play_with_an_empty_pool_counts_as_a_pass() -> None:
    match = _fresh("tournament")
    s = match.state
    match.state = s.__class__(s.rules, s.racks, s.table, (), s.opened, s.current)
    tile = s.rack.tiles[0]
    log = match.act(Play((tile,), Table.of([[tile]])))
    assert log.action == "invalid" and log.penalty == ()
    assert match.state.passes == 1


def test_round_over_and_match_over() -> None:
    match = Match(STANDARD.replace(match={"rounds": 2, "target": None}), ["a", "b"], seed=1)
    with pytest.raises(UsageError, match="not over"):
        match.next_round()
    match.abandon()
    assert match.round_over and not match.over
    match.next_round()
    match.abandon()
    assert match.over
    with pytest.raises(UsageError, match="match is over"):
        match.next_round()
    # acting after the round ended misuses the API: not an illegal play
    with pytest.raises(UsageError, match="round is over") as err:
        match.act(Draw())
    assert not isinstance(err.value, IllegalPlayError) and err.value.code == Code.ROUND_OVER


def test_redraw_first_player_every_round() -> None:
    rules = STANDARD.replace(redraw_first_player=True, match={"rounds": 6, "target": None})
    match = Match(rules, ["a", "b", "c", "d"], seed=2)
    while not match.over:
        match.abandon()
        if not match.over:
            match.next_round()
    firsts = [r.first for r in match.rounds]
    assert firsts != [(firsts[0] + i) % 4 for i in range(6)]
