"""The pure core of an Xpress round: :class:`XpressState`, ``validate`` and ``apply``.

Nothing here throws a die: the faces of a throw come with the :class:`Throw` action (the game
draws them from its seeded generator; a replay reads them from the record). Dice on the table
keep the face they were placed with; the table's sets belong to nobody.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from rummikub.core.errors import Code, IllegalPlayError, UsageError
from rummikub.core.melds import Reading, read_meld, replaced_joker_kept
from rummikub.core.table import Table
from rummikub.core.tiles import Tile, format_tiles, sort_key

from .actions import EndTurn, Place, Throw, XpressAction
from .dice import DieFace, Layout, face_value
from .rules import XpressRules
from .solver import can_place, hand_set

__all__ = [
    "Phase",
    "XpressEnd",
    "XpressState",
    "abandon",
    "apply",
    "check",
    "hand_value",
    "score_round",
    "validate",
    "validate_throw_choice",
]

Phase = Literal["throw", "place"]
EndReason = Literal["out", "blocked", "abandoned"]


@dataclass(frozen=True, slots=True)
class XpressEnd:
    """How a round ended: ``out`` (a player placed all his dice), ``blocked`` or ``abandoned``;
    the winner (None for a drawn blocked round), the dice left, their totals and the scores."""

    reason: EndReason
    winner: int | None
    hands: tuple[tuple[DieFace, ...], ...]
    totals: tuple[int, ...]
    scores: tuple[int, ...]


def hand_value(hand: Sequence[DieFace], rules: XpressRules) -> int:
    """The points of the dice left in a hand (numbers; a joker ``joker_value``)."""
    return sum(face_value(d.face, rules.joker_value) for d in hand)


def score_round(
    rules: XpressRules, hands: Sequence[Sequence[DieFace]], reason: EndReason, winner: int | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(totals of the dice left, scores). ``out``: the winner scores the other's total.
    ``blocked``: the lower total scores the difference. ``abandoned``: nothing."""
    totals = tuple(hand_value(h, rules) for h in hands)
    scores = [0] * len(hands)
    if winner is not None and reason == "out":
        scores[winner] = sum(t for i, t in enumerate(totals) if i != winner)
    elif winner is not None and reason == "blocked":
        scores[winner] = max(totals) - min(totals)
    return totals, tuple(scores)


@dataclass(frozen=True, slots=True)
class XpressState:
    """A round in progress. Immutable: :func:`apply` returns the next state.

    ``hands`` are each player's unplaced dice with the faces they show; ``table`` the sets on
    the table (faces) and ``table_dice`` which dice lie there; ``phase`` is ``throw`` before the
    player to move has thrown this turn and ``place`` after; ``placed`` counts the dice placed
    this turn; ``can_place`` says whether a placement was possible right after the throw;
    ``idle`` counts, per player, the throws in a row with no die placed (any placement resets
    both); ``started`` says who has begun a turn this round.
    """

    rules: XpressRules
    layout: Layout
    hands: tuple[tuple[DieFace, ...], ...]
    table: Table
    table_dice: tuple[DieFace, ...]
    current: int
    phase: Phase
    placed: int
    can_place: bool
    idle: tuple[int, ...]
    started: tuple[bool, ...]
    turn: int = 0
    end: XpressEnd | None = None

    @classmethod
    def start(
        cls, rules: XpressRules, layout: Layout, hands: Sequence[Sequence[DieFace]], first: int
    ) -> XpressState:
        """The round after the setup roll: ``hands`` hold the dice each player took from the
        pouch with the faces they rolled; ``first`` moves first (his first throw is this roll).

        Raises :class:`UsageError` (``bad-seat``) for a wrong number of hands or a first player
        who is not a seat, :class:`IllegalPlayError` (``bad-dice``, ``bad-face``) for a deal
        the dice cannot make.
        """
        if len(hands) != rules.players:
            raise UsageError(
                f"Xpress is for {rules.players} players, got {len(hands)}",
                code=Code.BAD_SEAT,
                params={"players": len(hands)},
            )
        if first not in range(rules.players):
            raise UsageError(
                f"first player {first} is not a seat", code=Code.BAD_SEAT, params={"seat": first}
            )
        seen: set[int] = set()
        for p, hand in enumerate(hands):
            if len(hand) != rules.dice_per_player:
                raise IllegalPlayError(
                    f"player {p + 1} has {len(hand)} dice, the rules give {rules.dice_per_player}",
                    code=Code.BAD_DICE,
                    params={"count": len(hand), "dice": rules.dice_per_player},
                )
            for d in hand:
                err = _face_error(layout, d)
                if err is not None:
                    raise err
                if d.die in seen:
                    raise IllegalPlayError(
                        f"die {d.die} is dealt twice", code=Code.BAD_DICE, params={"die": d.die}
                    )
                seen.add(d.die)
        sorted_hands = tuple(tuple(sorted(h)) for h in hands)
        started = tuple(p == first for p in range(rules.players))
        return cls(
            rules,
            layout,
            sorted_hands,
            Table(),
            (),
            first,
            "place",
            0,
            can_place(Table(), [d.face for d in sorted_hands[first]], new_set=False),
            (0,) * rules.players,
            started,
        )

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def hand(self) -> tuple[DieFace, ...]:
        """The unplaced dice of the player to move."""
        return self.hands[self.current]

    def may_end_turn(self) -> bool:
        return self.phase == "place" and _end_turn_error(self) is None


def _face_error(layout: Layout, d: DieFace) -> IllegalPlayError | None:
    if d.die not in range(len(layout)):
        return IllegalPlayError(
            f"there is no die {d.die}", code=Code.BAD_DICE, params={"die": d.die}
        )
    if d.face not in layout.faces_of(d.die):
        return IllegalPlayError(
            f"die {d.die} has no face {d.face}",
            code=Code.BAD_FACE,
            params={"die": d.die, "face": str(d.face)},
        )
    return None


def _pick(state: XpressState, dice: Sequence[int], what: str) -> tuple[DieFace, ...]:
    if not dice:
        raise IllegalPlayError(f"{what} at least one die", code=Code.NO_DICE)
    if len(set(dice)) != len(dice):
        raise IllegalPlayError(f"{what} each die once (a die is named twice)", code=Code.NO_DICE)
    by_die = {d.die: d for d in state.hand}
    missing = [d for d in dice if d not in by_die]
    if missing:
        raise IllegalPlayError(
            f"die {missing[0]} is not one of your unplaced dice "
            f"({' '.join(str(d.die) for d in state.hand)})",
            code=Code.NOT_IN_HAND,
            params={"die": missing[0]},
        )
    return tuple(by_die[d] for d in dice)


def check(state: XpressState, action: XpressAction) -> IllegalPlayError | None:
    """The reason ``action`` is illegal now, or None (raises :class:`UsageError` once the
    round is over)."""
    try:
        validate(state, action)
    except IllegalPlayError as exc:
        return exc
    return None


def validate(state: XpressState, action: XpressAction) -> None:
    """Raise :class:`IllegalPlayError` (with ``code``) if ``action`` is not legal now,
    :class:`UsageError` once the round is over."""
    _check_running(state)
    if isinstance(action, Throw):
        _validate_throw(state, action)
    elif isinstance(action, Place):
        _validate_place(state, action)
    elif isinstance(action, EndTurn):
        err = _end_turn_error(state)
        if err is not None:
            raise err
    else:
        raise IllegalPlayError(
            f"unknown action {action!r}",
            code=Code.UNKNOWN_ACTION,
            params={"action": type(action).__name__},
        )


def _check_running(state: XpressState) -> None:
    if state.end is not None:
        raise UsageError("the round is over", code=Code.ROUND_OVER)


def _end_turn_error(state: XpressState) -> IllegalPlayError | None:
    if state.phase != "place":
        return IllegalPlayError("throw first: every turn starts with a throw", code=Code.MUST_THROW)
    if state.placed == 0 and state.can_place:
        return IllegalPlayError(
            "you can place dice, so you must place at least one before ending the turn",
            code=Code.MUST_PLACE,
        )
    if state.rules.must_place_sets:
        # "If the player has a set, he/she must place it on the table": the turn cannot end
        # while the unplaced dice still hold a complete set (docs/xpress.md)
        found = hand_set([d.face for d in state.hand])
        if found is not None:
            return IllegalPlayError(
                f"you hold a complete set ({found}): place it before ending the turn",
                code=Code.MUST_PLACE_SET,
                params={"meld": str(found)},
            )
    return None


def validate_throw_choice(state: XpressState, dice: Sequence[int]) -> None:
    """Raise unless the player to move may throw ``dice`` now (faces not yet known)."""
    _check_running(state)
    if state.phase != "throw":
        raise IllegalPlayError("you have already thrown this turn", code=Code.ALREADY_THROWN)
    _pick(state, dice, "throw")


def _validate_throw(state: XpressState, action: Throw) -> None:
    validate_throw_choice(state, action.dice)
    if action.faces is None:
        raise IllegalPlayError(
            "the throw has no faces yet (the game throws the dice)", code=Code.NO_FACES
        )
    if len(action.faces) != len(action.dice):
        raise IllegalPlayError(
            f"{len(action.dice)} dice thrown but {len(action.faces)} faces given",
            code=Code.BAD_FACE,
        )
    for die, face in zip(action.dice, action.faces, strict=True):
        err = _face_error(state.layout, DieFace(die, face))
        if err is not None:
            raise err


def _faces(faces: Counter[Tile]) -> str:
    return format_tiles(sorted(faces.elements(), key=sort_key))


def _validate_place(state: XpressState, action: Place) -> list[Reading]:
    if state.phase != "place":
        raise IllegalPlayError("throw first: every turn starts with a throw", code=Code.MUST_THROW)
    chosen = _pick(state, action.dice, "place")
    old = state.table.counts()
    placed = Counter(d.face for d in chosen)
    new = action.table.counts()
    expected = old + placed
    gone = expected - new
    if gone:
        table_gone = gone & old
        if table_gone:
            raise IllegalPlayError(
                f"dice missing from the new table: {_faces(table_gone)}"
                " (dice on the table stay on the table)",
                code=Code.TABLE_TILE_MISSING,
                params={"tiles": _faces(table_gone)},
            )
        raise IllegalPlayError(
            f"placed dice not on the new table: {_faces(gone)}",
            code=Code.TILE_MISSING,
            params={"tiles": _faces(gone)},
        )
    extra = new - expected
    if extra:
        raise IllegalPlayError(
            f"{_faces(extra)} on the new table is neither on the table nor among the placed dice",
            code=Code.TILE_FROM_NOWHERE,
            params={"tiles": _faces(extra)},
        )
    readings: list[Reading] = []
    for i, meld in enumerate(action.table.melds):
        try:
            readings.append(read_meld(meld))
        except IllegalPlayError as exc:
            raise IllegalPlayError(
                f"set {i + 1} ({meld}): {exc}",
                code=Code.INVALID_MELD,
                params={**exc.params, "number": i + 1},
                meld=i,
            ) from None
    if state.rules.freed_joker_new_set:
        kept = replaced_joker_kept(state.table.melds, action.table.melds)
        if kept is not None:
            raise IllegalPlayError(
                f"the joker of {kept[0]} was replaced by the die it stood for but is still in "
                f"that set ({kept[1]}); a joker taken from a set must become part of another "
                "set in the same turn",
                code=Code.JOKER_RULE,
                params={"why": Code.JOKER_KEPT_IN_SET, "meld": str(kept[1])},
            )
    return readings


def _next_turn(state: XpressState, idle: tuple[int, ...]) -> XpressState:
    nxt = (state.current + 1) % state.players
    first_turn = not state.started[nxt]
    started = tuple(s or p == nxt for p, s in enumerate(state.started))
    if first_turn:
        # the setup roll is this player's first throw
        possible = can_place(
            state.table,
            [d.face for d in state.hands[nxt]],
            new_set=state.rules.freed_joker_new_set,
        )
        return replace(
            state,
            current=nxt,
            phase="place",
            placed=0,
            can_place=possible,
            idle=idle,
            started=started,
            turn=state.turn + 1,
        )
    return replace(
        state,
        current=nxt,
        phase="throw",
        placed=0,
        can_place=False,
        idle=idle,
        started=started,
        turn=state.turn + 1,
    )


def _finish(state: XpressState, reason: EndReason, winner: int | None) -> XpressState:
    totals, scores = score_round(state.rules, state.hands, reason, winner)
    return replace(state, end=XpressEnd(reason, winner, state.hands, totals, scores))


def abandon(state: XpressState) -> XpressState:
    """End the round without a winner (scores nothing)."""
    if state.end is not None:
        return state
    return _finish(state, "abandoned", None)


def _apply_place(state: XpressState, action: Place, readings: list[Reading]) -> XpressState:
    chosen = set(action.dice)
    moved = tuple(d for d in state.hand if d.die in chosen)
    hand = tuple(d for d in state.hand if d.die not in chosen)
    hands = tuple(hand if p == state.current else h for p, h in enumerate(state.hands))
    table = Table(tuple(r.meld for r in readings))
    nxt = replace(
        state,
        hands=hands,
        table=table,
        table_dice=tuple(sorted(state.table_dice + moved)),
        placed=state.placed + len(moved),
        idle=(0,) * state.players,
    )
    if not hand:
        return _finish(nxt, "out", state.current)
    return nxt


def apply(state: XpressState, action: XpressAction) -> XpressState:
    """The state after ``action`` by the player to move; raises :class:`IllegalPlayError`
    (changing nothing) when the action is illegal, :class:`UsageError` once the round is
    over."""
    if isinstance(action, Place):
        _check_running(state)
        return _apply_place(state, action, _validate_place(state, action))
    validate(state, action)
    if isinstance(action, Throw):
        assert action.faces is not None
        thrown = dict(zip(action.dice, action.faces, strict=True))
        hand = tuple(DieFace(d.die, thrown.get(d.die, d.face)) for d in state.hand)
        hands = tuple(hand if p == state.current else h for p, h in enumerate(state.hands))
        possible = can_place(
            state.table, [d.face for d in hand], new_set=state.rules.freed_joker_new_set
        )
        return replace(state, hands=hands, phase="place", placed=0, can_place=possible)
    # EndTurn
    idle = state.idle
    if state.placed == 0:
        idle = tuple(n + 1 if p == state.current else n for p, n in enumerate(idle))
        if all(n >= state.rules.block_throws for n in idle):
            totals = [hand_value(h, state.rules) for h in state.hands]
            low = min(totals)
            lows = [p for p, t in enumerate(totals) if t == low]
            winner = lows[0] if len(lows) == 1 else None
            return _finish(replace(state, idle=idle, turn=state.turn + 1), "blocked", winner)
    return _next_turn(state, idle)
