"""A room that plays Rummikub Xpress, the two-player dice game (``rummikub.xpress``).

It shares the seats, tokens, storage, clocks and connections of the tile game's rooms (the
room manager calls the same hooks on both kinds of room) and replaces the game: an
:class:`~rummikub.xpress.XpressMatch` whose every action is checked by the Xpress engine.

Dice are thrown in the open (docs/xpress.md), so both hands are public: every client, a
spectator too, gets the same game view. The faces of a throw come from the match's seeded
generator on the server; a client only says *which* of its dice to throw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rummikub.core import Code, IllegalPlayError, Meld, NotationError, Rules, Table, read_meld
from rummikub.xpress import (
    EndTurn,
    Place,
    Throw,
    XpressAction,
    XpressMatch,
    XpressPlayer,
    XpressRules,
    action_from_json,
    best_placement,
    check,
    xpress_record,
)
from rummikub.xpress.bots import BOTS, ExpertBot, XpressBot, dice_for, get_bot, place_best
from rummikub.xpress.dice import DieFace
from rummikub.xpress.observation import XpressObservation

from .codes import refusal
from .room import BotTask, Seat, SeatedRoom, Settings, Status, shown_meld, shown_table

__all__ = ["XPRESS_BOTS", "XpressRoom", "xpress_rules"]

#: Bot levels of Xpress rooms (strongest last).
XPRESS_BOTS = [b for b in ("random", "greedy", "expert") if b in BOTS]
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


def _dice_json(hand: Sequence[DieFace]) -> list[dict[str, Any]]:
    return [{"die": d.die, "face": str(d.face)} for d in hand]


@dataclass
class XpressRoom(SeatedRoom):
    """A two-seat room playing Xpress."""

    game: ClassVar[str] = "xpress"

    code: str
    rules: XpressRules
    settings: Settings
    seed: int
    seats: list[Seat]
    created_at: float
    status: Status = "waiting"
    match: XpressMatch | None = None
    seq: int = 0
    turn_started: float | None = None
    finished_at: float | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)
    hinted: set[tuple[int, int]] = field(default_factory=set)
    ready: set[int] = field(default_factory=set)
    pause_until: float | None = None
    #: actions taken in the current round (a bot moves once per action)
    steps: int = 0
    #: counts throws and round setups, so a client knows when dice were just rolled
    roll_id: int = 0
    rolled: list[int] = field(default_factory=list)
    bots: dict[tuple[int, str], XpressBot] = field(default_factory=dict, repr=False)

    # -- the match -----------------------------------------------------------------------
    def start(self) -> None:
        players = [XpressPlayer(self.seat_label(s), s.kind, s.bot) for s in self.seats]
        self.match = XpressMatch(players, self.seed, rules=self.rules)
        self.status = "playing"
        self._new_round()

    def _new_round(self) -> None:
        assert self.match is not None
        self.steps = 0
        self.roll_id += 1
        self.rolled = sorted(d.die for h in self.match.state.hands for d in h)

    @property
    def started(self) -> bool:
        return self.match is not None

    @property
    def in_turn(self) -> bool:
        return self.match is not None and not self.match.round_over

    def turn_key(self) -> tuple[int, int]:
        assert self.match is not None
        return (len(self.match.rounds) - 1, self.steps)

    def current_seat(self) -> Seat | None:
        if not self.in_turn:
            return None
        assert self.match is not None
        return self.seats[self.match.state.current]

    def deadline(self) -> float | None:
        return None  # Xpress rooms have no turn clock

    @property
    def round_over(self) -> bool:
        return self.match is not None and self.match.round_over

    @property
    def match_over(self) -> bool:
        return self.match is not None and self.match.over

    def rules_json(self) -> dict[str, Any]:
        return self.rules.to_dict()

    def act(self, action: object, *, ms: int | None, hint: bool) -> tuple[dict[str, Any], bool]:
        """Apply an action of the player to move (raises :class:`IllegalPlayError` and
        changes nothing if it is refused); returns the action as stored (a throw with the
        faces that came up)."""
        if not isinstance(action, Throw | Place | EndTurn):
            raise IllegalPlayError("not a move of Xpress", code=Code.WRONG_GAME)
        if self.match is None or self.match.round_over:
            raise IllegalPlayError("no turn is being played", code=Code.NOT_IN_TURN)
        state = self.match.state
        seat = state.current
        placed_before = state.placed
        by_die = {d.die: d for d in state.hand}
        self.match.act(action, ms=ms)
        turn = self.match.rounds[-1].turns[-1]
        stored: dict[str, Any]
        entry: dict[str, Any] = {"round": len(self.match.rounds) - 1, "seat": seat}
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
        self.steps += 1
        self.log.append(entry)
        if len(self.log) > 200:
            del self.log[:-200]
        if self.match.over:
            self.status = "finished"
        return stored, False

    def stored_action(self, data: dict[str, Any]) -> XpressAction:
        return action_from_json(data)

    def restored(self) -> None:
        """After a restart: the generator continues where the stored throws left it."""
        if self.match is not None and not self.match.over:
            self.match.wind_generator()

    def next_round(self) -> None:
        assert self.match is not None
        self.match.next_round()
        self.ready.clear()
        self.pause_until = None
        self._new_round()

    def round_result(self) -> dict[str, Any] | None:
        if self.match is None or not self.match.rounds or self.match.rounds[-1].end is None:
            return None
        end = self.match.rounds[-1].end
        return {
            "round": len(self.match.rounds) - 1,
            "reason": end.reason,
            "winner": end.winner,
            "scores": list(end.scores),
        }

    def results(self) -> list[dict[str, Any]]:
        if self.match is None:
            return []
        out = []
        for i, r in enumerate(self.match.rounds):
            if r.end is None:
                continue
            out.append(
                {
                    "round": i,
                    "reason": r.end.reason,
                    "winner": r.end.winner,
                    "scores": list(r.end.scores),
                    "left": list(r.end.totals),
                    "hands": [[str(d.face) for d in h] for h in r.end.hands],
                }
            )
        return out

    def record(self) -> dict[str, Any]:
        assert self.match is not None
        return xpress_record(self.match)

    def lobby_info(self) -> dict[str, Any]:
        return {"game": self.game, "preset": None}

    # -- bots and hints ------------------------------------------------------------------
    def bot_task(self, seat: Seat, level: str, time_left: float | None) -> BotTask:
        """The next action of the bot playing ``seat``: one throw, placement or end of turn
        (the manager asks again for the next one)."""
        assert self.match is not None
        if level not in BOTS:
            level = "greedy"
        key = (seat.seat, level)
        if key not in self.bots:
            self.bots[key] = get_bot(level, seed=self.seed * 10 + seat.seat)
        bot = self.bots[key]
        obs = self.match.observation(seat.seat, time_left)
        return BotTask(bot.name, lambda: bot.act(obs, 2.0), lambda: fallback(obs))

    def hint_task(self, seat: int) -> Callable[[], dict[str, Any]]:
        assert self.match is not None
        obs = self.match.observation(seat)
        return lambda: xpress_hint(obs)

    # -- what clients see ----------------------------------------------------------------
    def public_view(self, now: float) -> dict[str, Any]:
        """The state every client of the room gets (dice are thrown in the open)."""
        room: dict[str, Any] = {
            "code": self.code,
            "game": self.game,
            "status": self.status,
            "rules": self.rules.to_dict(),
            "settings": self.settings.to_dict(),
            "seats": [s.public() for s in self.seats],
        }
        view: dict[str, Any] = {"type": "state", "seq": self.seq, "room": room, "game": None}
        m = self.match
        if m is None:
            return view
        st = m.state
        view["game"] = {
            "kind": "xpress",
            "round": len(m.rounds) - 1,
            "rounds": self.rules.rounds,
            "turn": st.turn,
            "step": self.steps,
            "current": st.current,
            "phase": st.phase,
            "first_turn": st.phase == "place" and self._first_turn(),
            "hands": [_dice_json(h) for h in st.hands],
            "table": shown_table(st.table, MELD_RULES),
            "placed": st.placed,
            "can_place": st.can_place,
            "may_end_turn": st.end is None and st.may_end_turn(),
            "idle": list(st.idle),
            "block_throws": self.rules.block_throws,
            "totals": list(m.totals),
            "round_over": m.round_over,
            "match_over": m.over,
            "winners": m.winners if m.over else [],
            "time_left": None,
            "turn_seconds": None,
            "results": self.results(),
            "log": self.log[-40:],
            "roll_id": self.roll_id,
            "rolled": list(self.rolled),
            "pause_left": (
                None if self.pause_until is None else max(0.0, round(self.pause_until - now, 2))
            ),
            "ready": sorted(self.ready),
        }
        return view

    def _first_turn(self) -> bool:
        assert self.match is not None
        turns = self.match.rounds[-1].turns
        current = self.match.state.current
        return not any(t.player == current and t.throw is not None for t in turns)

    def view(self, public: dict[str, Any], seat: int | None) -> dict[str, Any]:
        out = dict(public)
        out["you"] = seat
        return out

    def check_table(self, seat: int, table_json: Sequence[Sequence[str]]) -> dict[str, Any]:
        """Judge each set of a table a player is building and, on his turn, the placement."""
        melds: list[dict[str, Any]] = []
        for i, m in enumerate(table_json):
            try:
                meld = Meld.from_json(list(m), where=f"set {i + 1}")
                reading = read_meld(meld, MELD_RULES)
                melds.append(
                    {
                        "ok": True,
                        "value": reading.value,
                        "kind": reading.kind,
                        "meld": shown_meld(meld, MELD_RULES),
                    }
                )
            except (IllegalPlayError, NotationError) as exc:
                melds.append(refusal(exc, reason=str(exc)))
        out: dict[str, Any] = {"type": "checked", "melds": melds}
        if self.match is not None and self.in_turn and self.match.state.current == seat:
            try:
                err = check(self.match.state, self.place_from_table(table_json, None))
                out["play"] = (
                    {"ok": True} if err is None else refusal(err, reason=err.code, message=str(err))
                )
            except (IllegalPlayError, NotationError) as exc:
                out["play"] = refusal(exc, reason=exc.code, message=str(exc))
        return out

    # -- actions from protocol messages --------------------------------------------------
    def place_from_table(
        self, table_json: Sequence[Sequence[str]], dice: Sequence[int] | None
    ) -> Place:
        """A :class:`Place` from the complete new table a client sends; the dice placed are
        the ones it names, else dice of the player's hand showing the new table's extra
        faces."""
        assert self.match is not None
        state = self.match.state
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

    def throw_action(self, dice: Sequence[int]) -> Throw:
        return Throw(tuple(dice))

    def end_action(self) -> EndTurn:
        return EndTurn()


def fallback(obs: XpressObservation) -> XpressAction:
    """An action that is always legal for the player to move: throw every unplaced die, or
    place the most dice / end the turn."""
    if obs.phase == "throw":
        return Throw(tuple(d.die for d in obs.hand))
    return place_best(obs)


def xpress_hint(obs: XpressObservation, time_limit: float = 1.0) -> dict[str, Any]:
    """Before the throw: ``{"throw": [dice]}`` to throw again (the expert bot's choice).
    After it: ``{"dice": [...], "table": [[...]]}`` of the best placement (the most dice, then
    the most points), or ``{"dice": [], "table": None}`` when nothing can be placed."""
    if obs.phase == "throw":
        keep = ExpertBot(seed=obs.turn, samples=16).choose_keep(obs, time_limit)
        return {"throw": [d.die for d in obs.hand if d.die not in keep]}
    best = best_placement(
        obs.table, [d.face for d in obs.hand], new_set=obs.rules.freed_joker_new_set
    )
    if not best.count:
        return {"dice": [], "table": None}
    return {
        "dice": list(dice_for(obs.hand, best.faces)),
        "table": shown_table(best.table, MELD_RULES),
    }
