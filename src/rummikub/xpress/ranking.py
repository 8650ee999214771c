"""Xpress moves ranked by the chance to win the match they leave: the one judgement of a move
that the analysis, the hint and the ``expert`` bot share (:func:`rank`; wrapped as
:func:`rummikub.bots.evaluation.rank_moves` with the platform's ``Evaluation``).

**The decisions.** An Xpress turn has two: which unplaced dice to throw again (a
:class:`Throw` without faces: the choice, not its luck) and, once the faces are known, what to
place (a :class:`Place`: these dice, making this table; the rest of the turn then goes as
``greedy`` ends it: a complete set still held is placed, the turn ends) or to end the turn
(:class:`EndTurn`, where the rules allow it).

**The candidates** (:func:`candidate_moves`). Before a throw: throwing every die (``greedy``'s
choice), then the dice to keep that a quick screen finds (the ``expert``'s former search:
forward selection of single dice and partner pairs by the mean value of the placement right
after the next throw, :data:`SCREEN_SAMPLES` simulated throws), each step of that selection a
candidate (at most :data:`THROW_CANDIDATES` with throwing everything), keeping every die that
could share a set, keeping the low dice (:func:`low_dice`: jokers, and faces counting at least
:data:`LOW_MARGIN` below their die's mean) and keeping those with the screen's choice; then,
with the compiled playouts, the :data:`BROAD_FINALISTS` best of a broad screen of other
keep-choices (:func:`_broad_keeps`: every one for a small hand) played out as below, first in
:data:`BROAD_FUTURES` futures, the best :data:`BROAD_SECOND` again in
:data:`BROAD_SECOND_FUTURES` others (the quick screen judges a choice by the next placement
only, and misses choices the playouts prefer: keeping O1 O2 of O1 O2 O4 when every die is
low).
After the throw (and after each placement of the turn): the placement of the most dice (then
the most points), the same placement keeping its jokers back, the best placements that hold
one of its dice back (at most :data:`HOLD_BACKS`, by dice then points: one may place as many
dice as the first, with other faces), and ending the turn when the rules allow it; a placement
that empties the hand (going out) is then the only candidate.

**The model.** Both hands lie open: what nobody knows is the faces of the throws to come. A
sample is one future of the dice: die *d* thrown *t* turns from now shows the face that the
sample's generator (seeded by the call's ``seed`` and the sample's index) drew for (*t*, *d*).
Every candidate is played in the same futures (common random numbers): a die thrown now under
one candidate and kept under another shows, whenever it is thrown, what that turn's draw gave
it, so the comparison is of the moves, not of the dice's luck. After the move both players
play on to the end of the round (at most :data:`MAX_TURNS` turns: then abandoned, scoring
nothing), placing as ``greedy`` does (the most dice, then the most points); the other player
throws every unplaced die again as ``greedy`` does, the player judged keeps his low dice
(:func:`low_dice`) and throws the rest (the highest of them when all are low). That policy
beats ``greedy`` as a bot (62% of matches), and judging with it made the expert stronger than
judging with ``greedy``'s throws (docs/xpress.md). The playouts keep the table as its faces
and arrange it anew at every placement, without the freed-joker rule (they may, rarely, place
a die the printed rule forbids).

**The playouts' engine.** With Numba (the ``solver`` extra) a playout runs compiled, on the
tile solver's placement kernel (:mod:`rummikub.solver.xpress`; about 11 times the rounds a
second of the Python search, which plays them without it). Two placements of the same size
and points may differ in the faces they take (the two searches break such ties their own way),
so the two engines play the same round alike in about 9 rounds of 10, and alike on the whole.
The compiled playouts made a deeper search affordable to measure: the judged player's next
throw, or his next placement, searched inside each playout (docs/xpress.md) won no more
matches, and neither is kept.

**The match.** A sample's round ends with its scores; the rounds after this one are fresh
deals, so the match is finished by adding, to the totals and this round's scores, the margin
of each remaining round drawn from :data:`FRESH_ROUNDS` fresh rounds played out by two
``greedy`` players (seeded once per rules; the winner's seat at random). :data:`MATCH_PATHS`
such continuations, mirrored so both seats are alike, are drawn once per rules and number of
rounds left and shared by every sample and candidate; the player's match share in a sample
is the share of continuations his total leads (a tie counts half). Nothing is calibrated yet.

Everything random comes from generators seeded by ``seed`` (:func:`judge_seed`: a hash of the
observation) or by constants: the same call gives the same answer. ``time_limit`` (seconds
from the call) stops sampling early: a sample is not begun when it would end past the limit at
the time of the slowest sample so far, and one that the limit overtakes is abandoned between
two candidates' playouts (the first sample is always played whole); what comes before the
samples — checking the candidates, the match model's tables, which a process fills on its
first use (:data:`FRESH_ROUNDS` rounds, about 0.4 s) — counts in it.
"""

from __future__ import annotations

import bisect
import itertools
import json
import random
import statistics
import time
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rummikub.core.by_object import ByObject
from rummikub.core.errors import IllegalPlayError, RulesError

from .actions import EndTurn, Place, Throw, XpressAction
from .dice import FACES_PER_DIE, DieFace, Face, Layout, face_value
from .game import setup_round
from .observation import XpressObservation
from .rules import XpressRules
from .solver import _key, _solve, best_placement, can_place, hand_set, placement_score
from .state import XpressState, validate, validate_throw_choice

__all__ = [
    "FRESH_ROUNDS",
    "LOW_MARGIN",
    "MATCH_PATHS",
    "MAX_TURNS",
    "SAMPLES",
    "SCREEN_SAMPLES",
    "THROW_CANDIDATES",
    "XpressJudgement",
    "candidate_moves",
    "dice_for",
    "evaluate_position",
    "has_partner",
    "judge_seed",
    "low_dice",
    "outcome_score",
    "rank",
    "state_of",
]

#: sampled futures of the dice a ranking plays by default
SAMPLES = 16
#: simulated next throws the screen of dice to keep compares choices on
SCREEN_SAMPLES = 8
#: throw choices ranked at most (throwing everything among them)
THROW_CANDIDATES = 4
#: turns a playout may last before its round counts as abandoned
MAX_TURNS = 300
#: fresh rounds played out once per rules to draw the rounds after this one from
FRESH_ROUNDS = 64
#: continuations of the match (before mirroring) drawn once per rules and rounds left
MATCH_PATHS = 1000
#: placements holding one die back ranked at most (the best of them by dice, then points): up
#: to 4 at every placement, the expert won 82.5% of 1,600 matches against greedy, where the
#: best one at a turn's first placement won 80.0% (docs/xpress.md)
HOLD_BACKS = 4
#: a die is low (kept by :func:`low_dice`) when its face counts at least this much below the
#: mean of its die's six faces: as a bot, keeping the low dice won 62.3% of 1,000 matches
#: against greedy (keeping those below the mean: 56.8%; 1 below: 60.1%; 3 below: 62.6%; 4
#: below: 57.8%), and as the player's own policy in the playouts it made the expert stronger
#: (docs/xpress.md)
LOW_MARGIN = 2.5
#: keep-choices the screen of the playouts adds to a throw's candidates (0: none)
BROAD_FINALISTS = 3
#: futures every keep-choice of the broad screen is played in first
BROAD_FUTURES = 8
#: the best keep-choices of that first screen played again, in futures of their own
BROAD_SECOND = 12
#: futures those are played in
BROAD_SECOND_FUTURES = 32
#: a hand of at most this many dice has every keep-choice screened
BROAD_ALL = 6


@dataclass(frozen=True, slots=True)
class XpressJudgement:
    """A move (or a position) judged for ``player``: each seat's chance to win the round and
    the match and expected round score over ``samples`` futures of the dice; ``per_deal`` the
    player's match share in each future (a ranking's candidates share their futures, so their
    difference future by future says how sure the ranking is); ``first_points`` the mean points
    the player places right after a throw candidate (0 for other moves)."""

    player: int
    samples: int
    round_shares: tuple[float, ...]
    match_shares: tuple[float, ...]
    expected_scores: tuple[float, ...]
    per_deal: tuple[float, ...] = field(default=(), repr=False, compare=False)
    first_points: float = 0.0

    @property
    def win_round(self) -> float:
        return self.round_shares[self.player]

    @property
    def win_match(self) -> float:
        return self.match_shares[self.player]

    @property
    def expected_score(self) -> float:
        return self.expected_scores[self.player]


# -- small helpers shared with the bots ------------------------------------------------------


def dice_for(hand: Sequence[DieFace], faces: Iterable[Face]) -> tuple[int, ...]:
    """Dice of ``hand`` showing ``faces`` (a multiset), one die per face."""
    left = list(hand)
    out: list[int] = []
    for f in faces:
        d = next(d for d in left if d.face == f)
        left.remove(d)
        out.append(d.die)
    return tuple(sorted(out))


def outcome_score(count: int, value: int, hand_size: int) -> float:
    """How good a placement is for the screen of dice to keep: dice placed, a bonus for going
    out (the round is won), then a little for the points placed."""
    return count + (4.0 if count == hand_size else 0.0) + value / 200


def has_partner(face: Face, others: Sequence[Face]) -> bool:
    """Whether ``face`` could share a set with one of ``others`` (a joker always could): same
    colour within two numbers, or same number in another colour."""
    if face.is_joker:
        return True
    for o in others:
        if o.is_joker:
            return True
        if o.colour == face.colour and 0 < abs(o.number - face.number) <= 2:
            return True
        if o.number == face.number and o.colour != face.colour:
            return True
    return False


#: :func:`_low_marks` by the layout object, then the joker's value (the playouts ask at every
#: throw, and hashing a layout hashes all its faces)
_LOW_MARKS: ByObject[Layout, dict[int, tuple[float, ...]]] = ByObject(32)


def _low_marks(layout: Layout, joker_value: int) -> tuple[float, ...]:
    """Per die, the highest value of a face that counts as low (:data:`LOW_MARGIN`)."""
    known = _LOW_MARKS.get(layout)
    if known is None:
        known = _LOW_MARKS.keep(layout, {})
    marks = known.get(joker_value)
    if marks is None:
        means = [statistics.fmean(face_value(f, joker_value) for f in layout.faces_of(d))
                 for d in range(len(layout))]  # fmt: skip
        marks = known[joker_value] = tuple(m - LOW_MARGIN for m in means)
    return marks


def low_dice(hand: Sequence[DieFace], layout: Layout, joker_value: int) -> frozenset[int]:
    """The dice of ``hand`` worth keeping for their points: jokers, and the dice whose face
    counts at least :data:`LOW_MARGIN` below the mean of their die's faces (a die left over
    at the end of a round counts its face, so low dice lose little when the round is lost,
    and win a blocked round)."""
    marks = _low_marks(layout, joker_value)
    return frozenset(
        d.die for d in hand if d.face.is_joker or face_value(d.face, joker_value) <= marks[d.die]
    )


def _thrown_by_keeper(hand: Sequence[DieFace], layout: Layout, joker_value: int) -> set[int]:
    """The dice the playouts' player throws again: all but his low dice (:func:`low_dice`);
    when every die is low, the one counting the most."""
    low = low_dice(hand, layout, joker_value)
    thrown = {d.die for d in hand if d.die not in low}
    if not thrown and hand:
        thrown = {max(hand, key=lambda d: face_value(d.face, joker_value)).die}
    return thrown


def judge_seed(obs: XpressObservation) -> int:
    """The seed a position's judgement uses unless told otherwise: a hash of everything the
    observation shows (the same on every machine), so the hint, the expert and the analysis of
    the same position sample the same futures and rank its moves alike."""
    parts = [
        json.dumps(obs.rules.to_dict(), sort_keys=True),
        obs.layout.name,
        f"{obs.player} {obs.current} {obs.phase} {obs.placed} {obs.turn} {obs.round}",
        " ".join(str(d) for d in obs.hand),
        " ".join(str(d) for d in obs.other),
        "|".join(" ".join(str(t) for t in m.tiles) for m in obs.table.melds),
        ",".join(map(str, obs.idle)),
        ",".join(map(str, obs.scores)),
    ]
    return zlib.crc32("/".join(parts).encode())


def state_of(obs: XpressObservation) -> XpressState:
    """The round state ``obs`` shows (nothing of it is hidden but what the dice will show).
    The player to move, seen by the other, is taken to have placed nothing yet this turn."""
    mine = obs.player == obs.current
    hands = (obs.hand, obs.other) if obs.player == 0 else (obs.other, obs.hand)
    placed = obs.placed if mine else 0
    able = obs.can_place
    if not mine and obs.phase == "place":
        able = can_place(obs.table, [d.face for d in hands[obs.current]],
                         new_set=obs.rules.freed_joker_new_set)  # fmt: skip
    started = tuple(obs.turn >= 1 or p == obs.current for p in range(2))
    return XpressState(obs.rules, obs.layout, hands, obs.table, (), obs.current, obs.phase,
                       placed, able, obs.idle, started, obs.turn)  # fmt: skip


# -- the playouts ----------------------------------------------------------------------------


class _Future:
    """One sampled future of the dice: the face die ``d`` shows when thrown ``t`` turns from
    the position judged, drawn turn by turn (every die each turn) as the playouts reach it;
    ``turns[t][d]`` the index of that face among the die's six."""

    __slots__ = ("faces", "rng", "turns")

    def __init__(self, layout: Layout, seed: int | str, k: int) -> None:
        self.rng = random.Random(f"xpress-future/{seed}/{k}")
        faces = _DICE_FACES.get(layout)
        if faces is None:
            faces = _DICE_FACES.keep(layout, [layout.faces_of(d) for d in range(len(layout))])
        self.faces = faces  # the same list for every future of a layout
        self.turns: list[list[int]] = []

    def drawn(self, t: int) -> list[list[int]]:
        """The turns drawn, at least ``t + 1`` of them."""
        turns = self.turns
        while len(turns) <= t:
            turns.append(self.rng.choices(_SIX, k=len(self.faces)))
        return turns

    def face(self, t: int, die: int) -> Face:
        return self.faces[die][self.drawn(t)[t][die]]


_SIX = range(FACES_PER_DIE)
#: each die's faces by the layout object
_DICE_FACES: ByObject[Layout, list[tuple[Face, ...]]] = ByObject(32)


#: how a playout ended: (winner or None, the round's scores, points placed right after a
#: throw candidate)
_Ending = tuple[int | None, tuple[int, ...], int]


def _take(hand: list[DieFace], faces: Counter[Face]) -> list[DieFace]:
    """``hand`` less one die showing each of ``faces``."""
    left: list[DieFace] = []
    for d in hand:
        if faces[d.face] > 0:
            faces[d.face] -= 1
        else:
            left.append(d)
    return left


@dataclass(slots=True)
class _Begun:
    """A playout's round right after its move: the hands, the table's faces (sorted), the seat
    to move and where his turn stands (``stage`` 0: his throw; 1: his placement, nothing placed
    yet; 2: the end of his turn, ``placed`` dice placed in it), the counters, and ``first``
    (0: the points of the coming placement are counted, a throw candidate's; -1: not)."""

    hands: list[list[DieFace]]
    table: tuple[Face, ...]
    cur: int
    stage: int
    placed: int
    idle: list[int]
    started: list[bool]
    first: int


def _begin(state: XpressState, action: XpressAction | None, future: _Future) -> _Begun:
    """``state`` after ``action`` (legal; ``None``: no move) in ``future``: a throw shows the
    future's first faces; a turn already begun (a placement made, or its end chosen) has a
    complete set still held placed (``must_place_sets``), as ``greedy`` ends it."""
    rules = state.rules
    hands = [list(h) for h in state.hands]
    table = _key(state.table.tiles())
    cur = state.current
    placed = state.placed
    idle = list(state.idle)
    first = -1
    stage = 0 if state.phase == "throw" else 1 if placed == 0 else 2
    if isinstance(action, Throw):
        thrown = set(action.dice)
        hands[cur] = [DieFace(d.die, future.face(0, d.die)) if d.die in thrown else d
                      for d in hands[cur]]  # fmt: skip
        stage, placed, first = 1, 0, 0
    elif isinstance(action, Place):
        chosen = set(action.dice)
        hands[cur] = [d for d in hands[cur] if d.die not in chosen]
        table = _key(action.table.tiles())
        placed += len(chosen)
        idle = [0] * len(idle)
        stage = 2
    elif isinstance(action, EndTurn):
        stage = 2
    if stage == 2 and rules.must_place_sets and all(hands):
        hand = hands[cur]
        held = hand_set([d.face for d in hand])
        while held is not None and hand:
            hand = _take(hand, Counter(held.tiles))
            table = _key([*table, *held.tiles])
            placed += len(held.tiles)
            idle = [0] * len(idle)
            held = hand_set([d.face for d in hand]) if hand else None
        hands[cur] = hand
    return _Begun(hands, table, cur, stage, placed, idle, list(state.started), first)


def _play(
    state: XpressState,
    action: XpressAction | None,
    future: _Future,
    keepers: tuple[int, ...] = (),
) -> _Ending:
    """``state`` after ``action`` (legal; ``None``: no move, the playout starts at once), then
    both players to the end of the round, the dice showing ``future``'s faces: each places as
    ``greedy`` does; the seats in ``keepers`` keep their low dice at their throws
    (:func:`_thrown_by_keeper`), the others throw every die again as ``greedy``. With Numba
    (the ``solver`` extra) the round is played by the compiled playout
    (:mod:`rummikub.solver.xpress`), otherwise here."""
    if state.end is not None:
        return state.end.winner, state.end.scores, 0
    begun = _begin(state, action, future)
    kernel = _kernel()
    if kernel is None:
        return _play_python(state, begun, future, keepers)
    rules = state.rules
    ending: _Ending = kernel.play(
        [[(d.die, d.face) for d in h] for h in begun.hands], begun.table, begun.cur,
        begun.stage, begun.placed, begun.idle, begun.started, begun.first == 0, future,
        keepers, _low_marks(state.layout, rules.joker_value), rules.joker_value,
        rules.block_throws, MAX_TURNS,
    )  # fmt: skip
    return ending


_KERNEL: list[Any] = []


def _kernel() -> Any:
    """The compiled playouts (:mod:`rummikub.solver.xpress`), or ``None`` without Numba (the
    ``solver`` extra); imported on the first playout (Numba takes a while to load)."""
    if not _KERNEL:
        try:
            from rummikub.solver import xpress as kernel
        except ImportError:  # pragma: no cover - without the solver extra
            _KERNEL.append(None)
        else:
            _KERNEL.append(kernel if kernel.available() else None)
    return _KERNEL[0]


def _play_python(
    state: XpressState, begun: _Begun, future: _Future, keepers: tuple[int, ...]
) -> _Ending:
    """:func:`_play` from ``begun`` on, in Python."""
    rules = state.rules
    hands = begun.hands
    table = begun.table
    cur = begun.cur
    phase = "throw" if begun.stage == 0 else "place"
    fresh = begun.stage < 2
    placed = begun.placed
    idle = begun.idle
    started = begun.started
    first = begun.first
    t = 0
    while True:
        if any(not h for h in hands):
            winner = 0 if not hands[0] else 1
            return _ended(rules, hands, "out", winner, first)
        if t > MAX_TURNS:
            return None, (0,) * len(hands), max(first, 0)
        if phase == "throw":
            if cur in keepers:
                again = _thrown_by_keeper(hands[cur], state.layout, rules.joker_value)
                hands[cur] = [DieFace(d.die, future.face(t, d.die)) if d.die in again else d
                              for d in hands[cur]]  # fmt: skip
            else:
                hands[cur] = [DieFace(d.die, future.face(t, d.die)) for d in hands[cur]]
            phase, placed, fresh = "place", 0, True
        hand = hands[cur]
        if fresh:
            found = _solve(table, _key(d.face for d in hand))
            if found is not None and found[0] > len(table):
                placed = found[0] - len(table)
                used = Counter(tile for meld in found[2] for tile in meld)
                used.subtract(table)
                used = +used
                if t == 0 and first == 0:
                    first = sum(face_value(f) * n for f, n in used.items())
                hands[cur] = _take(hand, used)
                table = _key(tile for meld in found[2] for tile in meld)
                idle = [0] * len(idle)
        if not hands[cur]:
            continue  # out: scored at the top of the loop
        # the turn ends
        if placed == 0:
            idle[cur] += 1
            if all(n >= rules.block_throws for n in idle):
                totals = [sum(face_value(d.face, rules.joker_value) for d in h) for h in hands]
                lows = [p for p, v in enumerate(totals) if v == min(totals)]
                return _ended(rules, hands, "blocked", lows[0] if len(lows) == 1 else None, first)
        cur = (cur + 1) % len(hands)
        t += 1
        if started[cur]:
            phase = "throw"
        else:  # his first turn of the round: the setup roll is his throw
            started[cur] = True
            phase = "place"
        placed, fresh = 0, True


def _ended(
    rules: XpressRules, hands: Sequence[Sequence[DieFace]], reason: str, winner: int | None,
    first: int,
) -> _Ending:  # fmt: skip
    totals = [sum(face_value(d.face, rules.joker_value) for d in h) for h in hands]
    scores = [0] * len(hands)
    if winner is not None and reason == "out":
        scores[winner] = sum(v for i, v in enumerate(totals) if i != winner)
    elif winner is not None:
        scores[winner] = max(totals) - min(totals)
    return winner, tuple(scores), max(first, 0)


# -- the match -------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _fresh_margins(rules: XpressRules, layout: Layout) -> tuple[int, ...]:
    """The winner's margin in :data:`FRESH_ROUNDS` fresh rounds played out by ``greedy``."""
    rng = random.Random("xpress-fresh-rounds")
    out: list[int] = []
    for g in range(FRESH_ROUNDS):
        hands = setup_round(rng, rules, layout)
        state = XpressState.start(rules, layout, hands, g % 2)
        _, scores, _ = _play(state, None, _Future(layout, "fresh", g))
        out.append(abs(scores[0] - scores[1]))
    return tuple(out)


@lru_cache(maxsize=256)
def _future_sums(rules: XpressRules, layout: Layout, left: int) -> tuple[int, ...]:
    """What the ``left`` rounds after this one add to the first seat's lead over the second:
    :data:`MATCH_PATHS` draws, mirrored, sorted."""
    if left <= 0:
        return (0,)
    margins = _fresh_margins(rules, layout)
    rng = random.Random(f"xpress-match/{left}")
    sums: list[int] = []
    for _ in range(MATCH_PATHS):
        s = sum(rng.choice(margins) * rng.choice((1, -1)) for _ in range(left))
        sums += (s, -s)
    return tuple(sorted(sums))


def _match_share(lead: int, sums: Sequence[int]) -> float:
    """The chance that ``lead`` (my total less the other's after this round) plus what the
    rounds left add stays above 0 (a tie counts half)."""
    lo = bisect.bisect_left(sums, -lead)
    hi = bisect.bisect_right(sums, -lead)
    return (len(sums) - hi + 0.5 * (hi - lo)) / len(sums)


def _judge(
    player: int, endings: Sequence[_Ending], lead: int, sums: Sequence[int]
) -> XpressJudgement:
    """The judgement the playouts ``endings`` give the seat ``player`` (2 seats), ``lead``
    his lead in the match before this round."""
    k = len(endings)
    n = 2
    other = 1 - player
    round_shares = [0.0] * n
    points = [0.0] * n
    per_deal: list[float] = []
    first = 0.0
    for winner, scores, placed in endings:
        for i in range(n):
            round_shares[i] += (0.5 if winner is None else float(winner == i)) / k
            points[i] += scores[i] / k
        per_deal.append(_match_share(lead + scores[player] - scores[other], sums))
        first += placed / k
    mine = sum(per_deal) / k
    match_shares = [0.0] * n
    match_shares[player], match_shares[other] = mine, 1.0 - mine
    return XpressJudgement(
        player=player,
        samples=k,
        round_shares=tuple(round_shares),
        match_shares=tuple(match_shares),
        expected_scores=tuple(points),
        per_deal=tuple(per_deal),
        first_points=first,
    )


def _lead(obs: XpressObservation) -> tuple[int, int]:
    """The player's lead in the match before this round, and the rounds left after it."""
    scores = tuple(obs.scores) if len(obs.scores) == 2 else (0, 0)
    return scores[obs.player] - scores[1 - obs.player], obs.rules.rounds - (obs.round + 1)


# -- candidates ------------------------------------------------------------------------------


def candidate_moves(obs: XpressObservation, time_limit: float | None = None) -> list[XpressAction]:
    """The moves worth comparing for the player to move (module docstring: the candidates);
    one move when there is no choice. ``time_limit`` (seconds) bounds the broad screen of a
    throw's keep-choices (:func:`_broad_finalists`)."""
    deadline = _deadline(time_limit)
    if obs.current != obs.player:
        raise RulesError("moves are ranked for the player to move only", field="player")
    state = state_of(obs)
    if obs.phase == "throw":
        seed = judge_seed(obs)
        found = _throw_candidates(state, seed)
        if BROAD_FINALISTS > 0 and len(state.hand) > 1 and _kernel() is not None:
            found += _broad_finalists(obs, seed, found, deadline)
        return found
    return _placement_candidates(state)


def _broad_keeps(state: XpressState) -> list[frozenset[int]]:
    """The keep-choices the broad screen plays out: every one for a hand of at most
    :data:`BROAD_ALL` dice; for more, keeping one to three of the dice worth keeping (low, or
    able to share a set with another die or the table), the same with the low dice, and the
    low dice less one of them."""
    hand = state.hand
    dice = [d.die for d in hand]
    if len(dice) <= BROAD_ALL:
        return [frozenset(k) for r in range(len(dice)) for k in itertools.combinations(dice, r)]
    table_faces = state.table.tiles()
    low = low_dice(hand, state.layout, state.rules.joker_value)
    pool = [d.die for d in hand if d.die in low
            or has_partner(d.face, [o.face for o in hand if o != d] + table_faces)]  # fmt: skip
    small = [frozenset(k) for r in range(1, 4) for k in itertools.combinations(pool, r)]
    return small + [k | low for k in small] + [low - {d} for d in low]


def _broad_finalists(
    obs: XpressObservation, seed: int, found: Sequence[XpressAction], deadline: float | None
) -> list[XpressAction]:
    """The keep-choices beside ``found`` (:func:`_broad_keeps`) that the playouts judge best:
    all played in :data:`BROAD_FUTURES` futures, the best :data:`BROAD_SECOND` of them again
    in :data:`BROAD_SECOND_FUTURES` others (the first screen's luck left behind), the best
    :data:`BROAD_FINALISTS` of those; half the time left to each screen."""
    state = state_of(obs)
    dice = [d.die for d in state.hand]
    have = {frozenset(a.dice) for a in found if isinstance(a, Throw)}
    throws: list[XpressAction] = []
    for keep in dict.fromkeys(_broad_keeps(state)):
        thrown = tuple(d for d in dice if d not in keep)
        if thrown and frozenset(thrown) not in have:
            throws.append(Throw(thrown))
    if not throws:
        return []
    left = None if deadline is None else max(0.0, (deadline - time.monotonic()) / 2)
    first = rank(obs, throws, samples=BROAD_FUTURES, seed=f"broad/{seed}", time_limit=left,
                 trusted=range(len(throws)))  # fmt: skip
    best = [a for a, _ in first[:BROAD_SECOND]]
    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    second = rank(obs, best, samples=BROAD_SECOND_FUTURES, seed=f"broad2/{seed}",
                  time_limit=left, trusted=range(len(best)))  # fmt: skip
    return [a for a, _ in second[:BROAD_FINALISTS]]


def _throw_candidates(state: XpressState, seed: int) -> list[XpressAction]:
    hand = state.hand
    dice = tuple(d.die for d in hand)
    if len(hand) <= 1:
        return [Throw(dice)]
    rng = random.Random(f"xpress-screen/{seed}")
    new_set = state.rules.freed_joker_new_set
    table = state.table
    sims = [{d.die: rng.choice(state.layout.faces_of(d.die)) for d in hand}
            for _ in range(SCREEN_SAMPLES)]  # fmt: skip
    seen: dict[frozenset[int], float] = {}

    def value(keep: frozenset[int]) -> float:
        if keep not in seen:
            total = 0.0
            for sim in sims:
                faces = [d.face if d.die in keep else sim[d.die] for d in hand]
                count, points = placement_score(table, faces, new_set=new_set)
                total += outcome_score(count, points, len(hand))
            seen[keep] = total / len(sims)
        return seen[keep]

    table_faces = table.tiles()
    keepable = [
        d for d in hand if has_partner(d.face, [o.face for o in hand if o != d] + table_faces)
    ]
    moves = [frozenset({d.die}) for d in keepable]
    moves += [frozenset({a.die, b.die}) for i, a in enumerate(keepable) for b in keepable[i + 1:]
              if has_partner(a.face, [b.face])]  # fmt: skip
    keeps: list[frozenset[int]] = [frozenset()]
    best: frozenset[int] = frozenset()
    while len(keeps) < THROW_CANDIDATES - 1:
        step = max(
            (best | m for m in moves if len(best | m) < len(hand) and best | m != best),
            key=lambda k: (value(k), -len(k)),
            default=None,
        )
        if step is None or value(step) <= value(best) + 1e-9:
            break
        best = step
        keeps.append(best)
    every = frozenset(d.die for d in keepable)
    low = low_dice(hand, state.layout, state.rules.joker_value)
    for keep in (every, low, low | best):
        if keep and len(keep) < len(hand) and keep not in keeps:
            keeps.append(keep)
    return [Throw(tuple(d for d in dice if d not in keep)) for keep in keeps]


def _placement_candidates(state: XpressState) -> list[XpressAction]:
    rules = state.rules
    hand = state.hand
    faces = [d.face for d in hand]
    new_set = rules.freed_joker_new_set
    out: list[XpressAction] = []
    end_ok = state.may_end_turn()
    best = best_placement(state.table, faces, new_set=new_set) if hand else None
    if best is not None and best.count:
        out.append(Place(dice_for(hand, best.faces), best.table))
        if best.count == len(hand):
            return out  # going out: the round is won now
        if any(f.is_joker for f in best.faces):  # the same, keeping the jokers back
            plain = [f for f in faces if not f.is_joker]
            kept = best_placement(state.table, plain, new_set=new_set)
            if kept.count:
                out.append(Place(dice_for(hand, kept.faces), kept.table))
        fewer = []  # the best placements holding one of its dice back
        for f in sorted(set(best.faces), key=lambda f: (f.is_joker, face_value(f))):
            rest = list(faces)
            rest.remove(f)
            cand = best_placement(state.table, rest, new_set=new_set)
            if cand.count:
                fewer.append(cand)
        fewer.sort(key=lambda c: (c.count, c.value), reverse=True)  # stable: the lower die first
        out += [Place(dice_for(hand, c.faces), c.table) for c in fewer[:HOLD_BACKS]]
    if end_ok:
        out.append(EndTurn())
    unique: list[XpressAction] = []
    keys: set[tuple[str, tuple[int, ...]]] = set()
    for a in out:
        key = (type(a).__name__, tuple(sorted(a.dice)) if isinstance(a, Place) else ())
        if key not in keys:
            keys.add(key)
            unique.append(a)
    return unique


# -- ranking ---------------------------------------------------------------------------------


def _check(state: XpressState, i: int, action: Any) -> XpressAction:
    """``action`` as a candidate of ``state`` (a throw's faces are ignored), or raise."""
    if not isinstance(action, (Throw, Place, EndTurn)):
        raise RulesError(
            f"candidate {i + 1}: a candidate is a throw, a placement or the end of the turn, "
            f"not {action!r}",
            field="candidates",
        )
    try:
        if isinstance(action, Throw):
            validate_throw_choice(state, action.dice)
            return Throw(action.dice)
        validate(state, action)
    except IllegalPlayError as exc:
        raise IllegalPlayError(
            f"candidate {i + 1} ({action}) is illegal here: {exc}",
            code=exc.code,
            params=exc.params,
        ) from None
    return action


def _deadline(time_limit: float | None) -> float | None:
    """When a call given ``time_limit`` seconds from now must end (``None``: no limit)."""
    return None if time_limit is None else time.monotonic() + time_limit


def _sampled(samples: int, deadline: float | None) -> Iterator[int]:
    """The samples to play, ``0 … samples - 1``, as long as they end by ``deadline``
    (:func:`_deadline`): a sample is not begun when it would end past it at the time of the
    slowest sample so far (the mean let one slow sample end past the limit); the first is
    always played."""
    slowest = 0.0
    last = time.monotonic()
    for k in range(samples):
        if k and deadline is not None:
            now = time.monotonic()
            slowest = max(slowest, now - last)
            last = now
            if now + slowest > deadline:
                return
        yield k


def _sample(
    state: XpressState,
    actions: Sequence[XpressAction],
    future: _Future,
    player: int,
    deadline: float | None,
) -> list[_Ending] | None:
    """Each of ``actions`` played out in ``future`` (``player`` keeping his low dice), or
    ``None`` when the clock passes ``deadline`` between two of the playouts."""
    out: list[_Ending] = []
    for a in actions:
        if out and deadline is not None and time.monotonic() > deadline:
            return None
        out.append(_play(state, a, future, (player,)))
    return out


def rank(
    obs: XpressObservation,
    candidates: Sequence[XpressAction] | None = None,
    *,
    samples: int | None = None,
    seed: int | str = 0,
    time_limit: float | None = None,
    trusted: Sequence[int] = (),
) -> list[tuple[XpressAction, XpressJudgement]]:
    """``candidates`` (default: :func:`candidate_moves`) of the player to move, each judged in
    the same sampled futures of the dice, best first: the highest chance to win the match,
    then the round, then going out now, then the expected round score; ties keep the
    candidates' order. Raises :class:`~rummikub.core.IllegalPlayError` naming an illegal
    candidate, :class:`~rummikub.core.RulesError` when it is not the player's turn or the
    round is over. ``trusted``: indices of candidates not checked (the analysis's own
    recorded turn, made of several placements)."""
    deadline = _deadline(time_limit)
    if obs.current != obs.player:
        raise RulesError("moves are ranked for the player to move only", field="player")
    state = state_of(obs)
    if not obs.hand or not obs.other:
        raise RulesError("the round is over: there is no move to rank", field="round")
    samples = SAMPLES if samples is None else samples
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    cands = list(candidate_moves(obs) if candidates is None else candidates)
    checked = [
        (Throw(a.dice) if isinstance(a, Throw) else a) if i in trusted else _check(state, i, a)
        for i, a in enumerate(cands)
    ]
    if not checked:
        return []
    # the match model before the samples: its tables are made on a process's first use, and
    # the samples take the time that is left
    lead, left = _lead(obs)
    sums = _future_sums(obs.rules, obs.layout, left)
    endings: list[list[_Ending]] = [[] for _ in checked]
    for k in _sampled(samples, deadline):
        ended = _sample(state, checked, _Future(state.layout, seed, k), obs.player,
                        deadline if k else None)  # fmt: skip
        if ended is None:
            break  # the limit passed within this sample: it is abandoned for every candidate
        for e, ending in zip(endings, ended, strict=True):
            e.append(ending)
    judged = [_judge(obs.player, e, lead, sums) for e in endings]
    size = len(obs.hand)

    def key(i: int) -> tuple[float, float, int, float, int]:
        j = judged[i]
        a = checked[i]
        out = 0 if isinstance(a, Place) and len(a.dice) == size else 1
        return (-j.win_match, -j.win_round, out, -j.expected_score, i)

    order = sorted(range(len(checked)), key=key)
    return [(cands[i], judged[i]) for i in order]


def evaluate_position(
    obs: XpressObservation,
    *,
    samples: int | None = None,
    seed: int | str = 0,
    time_limit: float | None = None,
) -> XpressJudgement:
    """The position ``obs`` shows, for its player (the mover or not), played on from where it
    stands in :func:`rank`'s futures and match model, both players playing as :func:`rank`'s
    player does (placing as ``greedy``, keeping their low dice): a view of who is winning that
    is the same from either seat."""
    deadline = _deadline(time_limit)
    samples = SAMPLES if samples is None else samples
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    state = state_of(obs)
    lead, left = _lead(obs)
    sums = _future_sums(obs.rules, obs.layout, left)  # before the samples, as in rank
    endings: list[_Ending] = []
    for k in _sampled(samples, deadline):
        endings.append(_play(state, None, _Future(state.layout, seed, k), (0, 1)))
    return _judge(obs.player, endings, lead, sums)
