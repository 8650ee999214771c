"""Xpress's part of a server room: the two-player dice game (:mod:`rummikub.xpress`).

Dice are thrown in the open (docs/xpress.md), so both hands are public: every client, a
spectator too, gets the same game view. The faces of a throw come from the match's seeded
generator on the server; a client only says *which* of its dice to throw, and the throw is
stored with the faces that came up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rummikub.bots.hints import hint
from rummikub.core import Code, IllegalPlayError, NotationError, Rules, Table
from rummikub.xpress import (
    EndTurn,
    Place,
    Throw,
    XpressAction,
    XpressMatch,
    XpressRules,
    action_from_json,
    check,
)
from rummikub.xpress.bots import dice_for
from rummikub.xpress.dice import DieFace
from rummikub.xpress.dice_game import XPRESS
from rummikub.xpress.observation import XpressObservation
from rummikub.xpress.state import XpressState

from ...protocol import messages as p
from ...protocol.codes import ServerCode, refusal
from ...protocol.refusals import ClientError
from .base import RoomView, Turn
from .melds import shown_table

__all__ = ["MELD_RULES", "XpressRoomGame", "place_from_table", "xpress_hint", "xpress_rules"]

#: The melds of Xpress are judged with the tile game's default rules (runs 1-13, no wrap).
MELD_RULES = Rules()


def xpress_rules(spec: str | dict[str, Any], *, stored: bool = False) -> XpressRules:
    """The rules of a new Xpress room: ``"xpress"`` (or ``"standard"``) for the printed game,
    or an object with any of ``rounds``, ``dice_per_player``, ``block_throws``, ``joker_value``.
    With ``stored`` (the rules of a stored room) an option the room predates keeps the behaviour
    it was played under.
    """
    if isinstance(spec, str):
        if spec not in ("xpress", "standard"):
            raise NotationError(f"unknown Xpress rules {spec!r} (use 'xpress' or an object)")
        return XpressRules()
    data = {k: v for k, v in spec.items() if k != "game"}
    return XpressRules.from_dict(data, stored=stored)


def place_from_table(
    state: XpressState, table_json: Sequence[Sequence[str]], dice: Sequence[int] | None
) -> Place:
    """A :class:`Place` from the complete new table a client sends; the dice placed are the
    ones it names, else dice of the player's hand showing the new table's extra faces."""
    table = Table.from_json([list(m) for m in table_json], where="table")
    if dice is not None:
        return Place(tuple(dice), table)
    extra = table.counts() - state.table.counts()
    have = Counter(d.face for d in state.hand)
    missing = extra - have
    if missing:
        shown = " ".join(str(f) for f in sorted(missing.elements()))
        raise IllegalPlayError(
            f"{shown} on the new table is neither on the table nor among your dice",
            code=Code.TILE_FROM_NOWHERE,
            params={"tiles": shown},
        )
    return Place(dice_for(state.hand, list(extra.elements())), table)


def xpress_hint(obs: XpressObservation, time_limit: float = 1.0) -> dict[str, Any]:
    """The dice game's hint (:func:`rummikub.bots.hint`: the evaluation's best move, the move
    the review judges best and the expert plays) as the client gets it: before the throw
    ``{"throw": [dice]}`` to throw again; after it ``{"dice": [...], "table": [[...]]}`` of the
    placement to make (it may hold dice back), or ``{"dice": [], "table": None}`` to end the
    turn."""
    action = hint(XPRESS, obs, time_limit)
    if isinstance(action, Throw):
        return {"throw": list(action.dice)}
    if isinstance(action, Place):
        return {"dice": list(action.dice), "table": shown_table(action.table, MELD_RULES)}
    return {"dice": [], "table": None}


def _dice_json(hand: Sequence[DieFace]) -> list[dict[str, Any]]:
    return [{"die": d.die, "face": str(d.face)} for d in hand]


def _match(room: RoomView) -> XpressMatch:
    assert isinstance(room.match, XpressMatch)
    return room.match


class XpressRoomGame:
    """Xpress in a room: two seats, no turn clock, one bot move per action, open hands."""

    def __init__(self) -> None:
        #: counts throws and round setups, so a client knows when dice were just rolled
        self.roll_id = 0
        #: the dice of the last throw (or of the round's setup roll)
        self.rolled: list[int] = []

    #: the game as refusals name it
    title = "Xpress"
    #: no rated rooms: Xpress has no turn clock yet
    rated = False

    # -- rules and seats -----------------------------------------------------------------
    def rules_from_message(self, spec: str | dict[str, Any]) -> XpressRules:
        return xpress_rules(spec)

    def check_players(self, rules: XpressRules, count: int) -> None:
        if count not in range(rules.players, rules.players + 1):
            raise ClientError(
                ServerCode.BAD_SEATS,
                f"Xpress is for {rules.players} players, not {count}",
                params={"players": count},
            )

    def preset(self, rules: XpressRules) -> str | None:
        return None

    # -- the match -----------------------------------------------------------------------
    #: the most seconds a bot thinks about one action
    bot_seconds = 2.0

    def new_round(self, room: RoomView) -> None:
        """The setup roll: every die of both hands was thrown."""
        self.roll_id += 1
        self.rolled = sorted(d.die for h in _match(room).state.hands for d in h)

    def restored(self, room: RoomView) -> None:
        """After a restart: the generator continues where the stored throws left it."""
        match = _match(room)
        if not match.over:
            match.wind_generator()

    def act(self, room: RoomView, action: Any, *, ms: int | None, hint: bool) -> Turn:
        """A throw is stored with the faces that came up."""
        match = _match(room)
        state = match.state
        placed_before = state.placed
        by_die = {d.die: d for d in state.hand}
        match.act(action, ms=ms)
        turn = match.rounds[-1].turns[-1]
        stored: dict[str, Any]
        entry: dict[str, Any] = {"round": len(match.rounds) - 1, "seat": state.current}
        if isinstance(action, Throw):
            thrown = turn.throw
            assert thrown is not None
            stored = thrown.to_json()
            entry.update(stored)
            self.roll_id += 1
            self.rolled = sorted(thrown.dice)
        elif isinstance(action, Place):
            stored = action.to_json()
            entry.update(
                action="place",
                dice=list(action.dice),
                faces=[str(by_die[d].face) for d in action.dice],
            )
        else:
            stored = action.to_json()
            entry.update(action="end", placed=placed_before)
        return Turn(stored, entry)

    #: the protocol messages that are moves of this game, and their names
    move_names = "throw, place or end_turn"
    moves: tuple[type[Any], ...] = (p.ThrowMsg, p.PlaceMsg, p.EndTurnMsg)

    def action_for(self, room: RoomView, msg: Any) -> XpressAction:
        if isinstance(msg, p.ThrowMsg):
            return Throw(tuple(msg.dice))
        if isinstance(msg, p.EndTurnMsg):
            return EndTurn()
        assert isinstance(msg, p.PlaceMsg)
        return place_from_table(_match(room).state, msg.table, msg.dice)

    def hint_counts(self, action: Any) -> bool:
        return False

    def stored_action(self, data: dict[str, Any]) -> XpressAction:
        return action_from_json(data)

    # -- what clients see ----------------------------------------------------------------
    #: the keys of the public game view, in order
    view_order = (
        "kind round rounds turn step current phase first_turn hands table placed "
        "can_place may_end_turn idle block_throws totals round_over match_over winners "
        "time_left turn_seconds results log roll_id rolled pause_left ready"
    )

    def room_fields(self) -> dict[str, Any]:
        return {"game": "xpress"}

    def game_view(self, room: RoomView) -> dict[str, Any]:
        """Both hands, the phase of the turn and the last throw (dice are thrown in the
        open)."""
        match = _match(room)
        st = match.state
        return {
            "kind": "xpress",
            "rounds": match.rules.rounds,
            "step": room.steps,
            "phase": st.phase,
            "first_turn": st.phase == "place" and self._first_turn(match),
            "hands": [_dice_json(h) for h in st.hands],
            "table": shown_table(st.table, MELD_RULES),
            "placed": st.placed,
            "can_place": st.can_place,
            "may_end_turn": st.end is None and st.may_end_turn(),
            "idle": list(st.idle),
            "block_throws": match.rules.block_throws,
            "turn_seconds": None,
            "roll_id": self.roll_id,
            "rolled": list(self.rolled),
        }

    @staticmethod
    def _first_turn(match: XpressMatch) -> bool:
        current = match.state.current
        return not any(t.player == current and t.throw is not None for t in match.rounds[-1].turns)

    def seat_view(self, room: RoomView, seat: int) -> dict[str, Any]:
        return {}  # nothing is hidden: every client gets the same view

    def result_fields(self, room: RoomView, end: Any) -> dict[str, Any]:
        return {"left": list(end.totals), "hands": [[str(d.face) for d in h] for h in end.hands]}

    #: what a meld is called in table checks
    meld_word = "set"

    def meld_rules(self, room: RoomView) -> Rules:
        return MELD_RULES

    def check_placement(
        self, room: RoomView, table_json: Sequence[Sequence[str]]
    ) -> dict[str, Any]:
        state = _match(room).state
        try:
            err = check(state, place_from_table(state, table_json, None))
            return {"ok": True} if err is None else refusal(err, reason=err.code, message=str(err))
        except (IllegalPlayError, NotationError) as exc:
            return refusal(exc, reason=exc.code, message=str(exc))

    def hint(self, obs: Any) -> dict[str, Any]:
        return xpress_hint(obs)
