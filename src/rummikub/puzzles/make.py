"""Finding puzzles in positions: in game records (``rummikub puzzles make --from``), in games
the bots play for it (``--self-play``), and a player's own missed go-outs (``--missed``).

A position yields a puzzle of a goal when the goal is reachable and the naive ways
(:mod:`rummikub.puzzles.naive`) do not reach it:

- ``go-out``: the player has opened, the solver places the whole rack, the naive ways do not;
- ``most-tiles``: the player has opened, the solver places ``N`` tiles (at least 2, not the whole
  rack), more than the naive ways;
- ``open``: the player has not opened, an opening exists, the obvious packing
  (:func:`~rummikub.puzzles.naive.greedy_opening_value`) falls short of the opening value;
- ``free-joker``: the player has opened, holds no joker, the table holds one, and a legal play
  takes it into a new set with rack tiles (:func:`joker_frees`).

Everything here is deterministic: the same records give the same puzzles in the same order."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from rummikub.core import (
    JOKER,
    GameRecord,
    Meld,
    Play,
    Rack,
    Rules,
    Table,
    Tile,
    check_play,
    is_valid_meld,
    load_record,
    read_meld,
    replay,
)
from rummikub.core.tiles import sort_key
from rummikub.solver import all_best, arrangeable, solve

from .check import frees_joker, position_state
from .model import DEFAULT_RD, Goal, Puzzle, Source, puzzle_id
from .naive import greedy_opening_value, naive_tiles
from .themes import THEMES, flow, themes_of

__all__ = [
    "MakeOptions",
    "joker_frees",
    "missed_go_outs",
    "puzzles_at",
    "puzzles_from_record",
    "puzzles_from_records",
    "self_play_puzzles",
    "starting_rating",
]


@dataclass(frozen=True, slots=True)
class MakeOptions:
    """What to keep: at most ``per_game`` puzzles of each goal from one game (positions of one
    game look alike), racks of at most ``max_rack`` tiles, at most ``solutions`` stored
    solutions per puzzle."""

    per_game: int = 2
    max_rack: int = 16
    solutions: int = 8


def starting_rating(puzzle_rack: int, changes: int, moved: int, themes: Sequence[str]) -> float:
    """A first guess of a puzzle's difficulty (Glicko-2 scale, 1500 the middle): more table
    sets changed and tiles moved, a longer rack and more themes make it harder. The ratings
    the shipped set carries are refined by simulated solvers (``bench/puzzles.py``)."""
    r = 1000 + 70 * changes + 25 * moved + 10 * puzzle_rack + 25 * len(themes)
    return float(max(700, min(2400, round(r))))


def _solutions(
    table: Table, rack: Sequence[Tile], opened: bool, rules: Rules, limit: int
) -> list[Play]:
    sols = all_best(table, rack, opened=opened, rules=rules, limit=limit)
    sols.sort(key=lambda s: (s.changes, -s.value, [sort_key(t) for t in s.play]))
    out = []
    for s in sols:
        play = s.as_play()
        if play is not None:
            out.append(play)
    return out


def _puzzle(
    goal: Goal,
    table: Table,
    rack: Sequence[Tile],
    opened: bool,
    rules: Rules,
    target: int,
    sols: Sequence[Play],
    naive: int,
    source: Source | None,
    extra_themes: Iterable[str] = (),
) -> Puzzle:
    first = sols[0]
    themes = set(themes_of(table, first, rules)) | set(extra_themes)
    ordered = tuple(t for t in THEMES if t in themes)
    f = flow(table, first, rules)
    rating = starting_rating(len(rack), len(f.changed), f.moved, ordered)
    r = Rack(tuple(rack))
    return Puzzle(
        id=puzzle_id(table, r, opened, goal, rules),
        rules=rules,
        table=table,
        rack=r,
        opened=opened,
        goal=goal,
        target=target,
        solutions=tuple(sols),
        themes=ordered,
        rating=rating,
        rd=DEFAULT_RD,
        naive=naive,
        source=source,
    )


def puzzles_at(
    table: Table,
    rack: Sequence[Tile],
    opened: bool,
    rules: Rules,
    *,
    source: Source | None = None,
    options: MakeOptions = MakeOptions(),
    goals: Iterable[Goal] = tuple(Goal),
) -> list[Puzzle]:
    """The puzzles of the position (one per goal at most)."""
    wanted = set(goals)
    rack = tuple(rack)
    if not rack or len(rack) > options.max_rack:
        return []
    out: list[Puzzle] = []
    if not opened:
        if Goal.OPEN not in wanted or rules.opening_value <= 0:
            return out
        best = solve(table, rack, opened=False, rules=rules)
        if best.tiles == 0:
            return out
        greedy = greedy_opening_value(rack, rules)
        if greedy >= rules.opening_value:
            return out
        sols = _solutions(table, rack, False, rules, options.solutions)
        if sols:
            out.append(
                _puzzle(
                    Goal.OPEN,
                    table,
                    rack,
                    False,
                    rules,
                    best.tiles,
                    sols,
                    greedy,
                    source,
                    ("open-split",),
                )
            )
        return out
    if wanted & {Goal.GO_OUT, Goal.MOST_TILES}:
        best = solve(table, rack, opened=True, rules=rules)
        goal = Goal.GO_OUT if best.tiles == len(rack) else Goal.MOST_TILES
        if best.tiles >= 2 and goal in wanted:
            naive = naive_tiles(table, rack, rules)
            if best.tiles > naive:
                sols = _solutions(table, rack, True, rules, options.solutions)
                if sols:
                    out.append(
                        _puzzle(goal, table, rack, True, rules, best.tiles, sols, naive, source)
                    )
    if Goal.FREE_JOKER in wanted:
        frees = joker_frees(table, rack, rules, limit=options.solutions)
        if frees:
            target = max(len(p.tiles) for p in frees)
            out.append(_puzzle(Goal.FREE_JOKER, table, rack, True, rules, target, frees, 0, source))
    return out


def _layout(tiles: Sequence[Tile], rules: Rules) -> Table | None:
    """A table of valid melds using every tile of ``tiles`` (None if there is none)."""
    if not tiles:
        return Table(())
    if not arrangeable(tiles, rules):
        return None
    sol = solve(Table(()), tiles, opened=True, rules=rules, fewest_changes=False)
    return sol.table if sol.tiles == len(tiles) else None


def joker_frees(table: Table, rack: Sequence[Tile], rules: Rules, *, limit: int = 8) -> list[Play]:
    """Plays that take a joker of the table into a new set of three made with the joker and
    one or two rack tiles (the third may come from the table), the rest of the table laid out
    again with as few other rack tiles as needed (none, one or two). Legal under the rules'
    joker rule (checked by the engine); the plays placing the most tiles first."""
    if JOKER in rack or not any(JOKER in m.tiles for m in table.melds):
        return []
    joker_faces = {t for m in table.melds if JOKER in m.tiles for t in m.tiles if not t.is_joker}
    table_tiles = Counter(table.tiles())
    rest_table = table_tiles - Counter({JOKER: 1})
    state = position_state(table, rack, True, rules)
    partners = sorted(
        {(t, "table") for t in rest_table if not t.is_joker and t not in joker_faces}
        | {(t, "rack") for t in rack},
        key=lambda p: (sort_key(p[0]), p[1]),
    )
    found: dict[tuple[Tile, ...], Play] = {}
    rack_counts = Counter(rack)
    for a in sorted(set(rack), key=sort_key):
        for b, where in partners:
            if where == "rack" and (sort_key(b) < sort_key(a) or (b == a and rack_counts[a] < 2)):
                continue
            meld = (a, b, JOKER)
            if not is_valid_meld(Meld(meld), rules):
                continue
            used = Counter([a] + ([b] if where == "rack" else []))
            left = rack_counts - used
            base = rest_table - (Counter([b]) if where == "table" else Counter())
            for size in range(3):
                done = False
                for extra in sorted(
                    set(itertools.combinations(sorted(left.elements(), key=sort_key), size))
                ):
                    lay = _layout(list(base.elements()) + list(extra), rules)
                    if lay is None:
                        continue
                    placed = tuple(used.elements()) + tuple(extra)
                    new = Table((*lay.melds, read_meld(Meld(meld), rules).meld))
                    play = Play(placed, new)
                    if check_play(state, play) is None and frees_joker(table, play, rules):
                        found.setdefault(play.tiles, play)
                        done = True
                        break
                if done:
                    break
            if len(found) >= 4 * limit:
                break
    plays = sorted(found.values(), key=lambda p: (-len(p.tiles), [sort_key(t) for t in p.tiles]))
    return plays[:limit]


def puzzles_from_record(
    rec: GameRecord, *, options: MakeOptions = MakeOptions(), goals: Iterable[Goal] = tuple(Goal)
) -> list[Puzzle]:
    """The puzzles of every position of a game record (at most ``options.per_game`` of each
    goal), in the order of the turns."""
    out: list[Puzzle] = []
    per_goal: Counter[Goal] = Counter()
    wanted = tuple(goals)
    for step in replay(rec):
        before = step.before
        me = before.current
        want = [g for g in wanted if per_goal[g] < options.per_game]
        if not want:
            break
        src = Source(rec.seed, step.round, step.turn, me)
        for p in puzzles_at(
            before.table,
            before.racks[me].tiles,
            before.opened[me],
            rec.rules,
            source=src,
            options=options,
            goals=want,
        ):
            per_goal[p.goal] += 1
            out.append(p)
    return out


def _from_json_record(data: dict[str, Any], options: MakeOptions) -> list[dict[str, Any]]:
    return [p.to_json() for p in puzzles_from_record(load_record(data), options=options)]


def _dedupe(puzzles: Iterable[Puzzle], seen: set[str]) -> Iterator[Puzzle]:
    for p in puzzles:
        if p.id not in seen:
            seen.add(p.id)
            yield p


def puzzles_from_records(
    records: Iterable[dict[str, Any]], *, options: MakeOptions = MakeOptions(), jobs: int = 1
) -> Iterator[Puzzle]:
    """The puzzles of many game records (decoded JSON), duplicates dropped, in record order
    whatever ``jobs`` (worker processes) is."""
    seen: set[str] = set()
    if jobs <= 1:
        for data in records:
            yield from _dedupe(puzzles_from_record(load_record(data), options=options), seen)
        return
    with ProcessPoolExecutor(jobs) as pool:
        results = pool.map(_from_json_record, records, itertools.repeat(options), chunksize=1)
        for batch in results:
            yield from _dedupe((Puzzle.from_json(p) for p in batch), seen)


def _self_play_game(
    index: int, seed: int, levels: tuple[str, ...], rules: Rules, options: MakeOptions
) -> list[dict[str, Any]]:
    from rummikub.bots.simulate import play_one

    rec = play_one("tiles", rules, levels, 2, index, seed)
    return _from_json_record(rec, options)


def self_play_puzzles(
    games: int,
    *,
    seed: int,
    rules: Rules,
    levels: Sequence[str] = ("greedy", "strategic"),
    options: MakeOptions = MakeOptions(),
    jobs: int = 1,
    start: int = 0,
) -> Iterator[tuple[int, list[Puzzle]]]:
    """Play ``games`` two-player games of the bots ``levels`` (game ``i`` with seed
    ``seed + i``, as ``rummikub simulate`` plays them) and yield, game by game, its index and
    its new puzzles (duplicates of earlier games dropped). The same seed gives the same
    puzzles whatever ``jobs`` is."""
    seen: set[str] = set()
    lv = tuple(levels)
    indices = range(start, games)
    if jobs <= 1:
        for i in indices:
            batch = [Puzzle.from_json(p) for p in _self_play_game(i, seed, lv, rules, options)]
            yield i, list(_dedupe(batch, seen))
        return
    with ProcessPoolExecutor(jobs) as pool:
        results = pool.map(
            _self_play_game,
            indices,
            itertools.repeat(seed),
            itertools.repeat(lv),
            itertools.repeat(rules),
            itertools.repeat(options),
            chunksize=1,
        )
        for i, made in zip(indices, results, strict=True):
            yield i, list(_dedupe((Puzzle.from_json(p) for p in made), seen))


def missed_go_outs(rec: GameRecord, player: str | int) -> list[Puzzle]:
    """The positions of ``rec`` where ``player`` (a name or a seat) could have placed his whole
    rack and did not: each a ``go-out`` puzzle for him (whether or not the naive ways find it:
    he missed it)."""
    seat = _seat(rec, player)
    out: list[Puzzle] = []
    for step in replay(rec):
        before = step.before
        if before.current != seat or not before.opened[seat]:
            continue
        rack = before.racks[seat].tiles
        if step.log.action == "play" and len(step.log.play) == len(rack):
            continue
        best = solve(before.table, rack, opened=True, rules=rec.rules)
        if best.tiles != len(rack):
            continue
        sols = _solutions(before.table, rack, True, rec.rules, 8)
        naive = naive_tiles(before.table, rack, rec.rules)
        src = Source(rec.seed, step.round, step.turn, seat)
        out.append(
            _puzzle(Goal.GO_OUT, before.table, rack, True, rec.rules, len(rack), sols, naive, src)
        )
    return out


def _seat(rec: GameRecord, player: str | int) -> int:
    from rummikub.core import RulesError

    if isinstance(player, int) or (isinstance(player, str) and player.isdigit()):
        seat = int(player)
        if 0 <= seat < len(rec.players):
            return seat
    names = [p.name for p in rec.players]
    if player in names:
        return names.index(str(player))
    raise RulesError(
        f"no player {player!r} in the game (players: {', '.join(names)})", field="player"
    )
