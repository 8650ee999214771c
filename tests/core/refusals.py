"""Real refusals of the rules engine, one or more per code: the position, the action, and the
code and params the refusal must carry. Shared by the tests of the errors and of the
catalogue (every one of them is worded in every language)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rummikub.core import (
    Draw,
    Meld,
    Pass,
    RoundState,
    Rules,
    RummikubError,
    apply,
    check_play,
    preset,
    read_meld,
)
from rummikub.core.errors import Param

from .strategies import STANDARD, play, position

STRICT = STANDARD.replace(joker_rule="strict")
BOTH = STANDARD.replace(group_needs_both_colours=True)
NEW_SET = STANDARD.replace(freed_joker_new_set=True)
CLASSIC = preset("classic-strict")
OPENED = position("R1 R2 R3 | K5 B5 O5", ["R4 K5 J B9", "K1"], pool="O13 O12")
EMPTY_POOL = position("R1 R2 R3", ["K1", "K2"])


def _at(table: str, rack: str, rules: Rules = STANDARD, opened: bool = True) -> RoundState:
    return position(table, [rack, "K1"], opened=[opened, True], rules=rules)


@dataclass(frozen=True)
class Refusal:
    """``make()`` raises (or returns) the refusal, which must carry ``code`` and ``params``."""

    name: str
    make: Callable[[], RummikubError | None]
    code: str
    params: dict[str, Param]

    def error(self) -> RummikubError:
        try:
            err = self.make()
        except RummikubError as exc:
            return exc
        assert err is not None, f"{self.name}: accepted"
        return err


def _checked(state: RoundState, text: str) -> Callable[[], RummikubError | None]:
    return lambda: check_play(state, play(text))


def _applied(state: RoundState, action: object) -> Callable[[], RummikubError | None]:
    def run() -> None:
        apply(state, action)  # type: ignore[arg-type]

    return run


def _read(text: str) -> Callable[[], RummikubError | None]:
    def run() -> None:
        read_meld(Meld.parse(text))

    return run


def _meld(meld: str, why: str, number: int | None = None, **more: Param) -> dict[str, Param]:
    out: dict[str, Param] = {"meld": meld, "why": why, **more}
    if number is not None:
        out["number"] = number
    return out


REFUSALS = [
    Refusal("no rack tile", _checked(OPENED, "-> R1 R2 R3 | K5 B5 O5"), "no-rack-tile", {}),
    Refusal(
        "not on the rack",
        _checked(OPENED, "R5 -> R1 R2 R3 R5 | K5 B5 O5"),
        "not-on-rack",
        {"tiles": "R5"},
    ),
    Refusal(
        "no such tile",
        _checked(OPENED, "R14 -> R1 R2 R3 | K5 B5 O5"),
        "not-on-rack",
        {"tiles": "R14"},
    ),
    Refusal(
        "table tile back to the rack",
        _checked(OPENED, "R4 -> R1 R2 R3 R4"),
        "table-tile-missing",
        {"tiles": "K5 B5 O5"},
    ),
    Refusal(
        "placed tile missing",
        _checked(OPENED, "R4 J -> R1 R2 R3 R4 | K5 B5 O5"),
        "tile-missing",
        {"tiles": "J"},
    ),
    Refusal(
        "tile from nowhere",
        _checked(OPENED, "R4 -> R1 R2 R3 R4 J | K5 B5 O5"),
        "tile-from-nowhere",
        {"tiles": "J"},
    ),
    Refusal(
        "meld too short",
        _checked(OPENED, "R4 -> R1 R2 R3 | K5 B5 O5 | R4"),
        "invalid-meld",
        _meld("R4", "meld-too-short", 3, count=1),
    ),
    Refusal(
        "meld of mixed tiles",
        _checked(OPENED, "K5 B9 J -> R1 R2 R3 | K5 B5 O5 | K5 B9 J"),
        "invalid-meld",
        _meld("K5 B9 J", "meld-mixed", 3),
    ),
    Refusal(
        "colour twice in a group",
        _checked(OPENED, "K5 -> R1 R2 R3 | K5 B5 O5 K5"),
        "invalid-meld",
        _meld("K5 B5 O5 K5", "meld-group-repeats", 2, tile="K5"),
    ),
    Refusal("only jokers", _read("J J J"), "invalid-meld", _meld("J J J", "meld-only-jokers")),
    Refusal(
        "number twice in a run",
        _read("R7 R8 R8"),
        "invalid-meld",
        _meld("R7 R8 R8", "meld-run-repeats", tile="R8"),
    ),
    Refusal(
        "gaps in a run",
        _read("R1 R2 R5"),
        "invalid-meld",
        _meld("R1 R2 R5", "meld-run-gaps", first="R1", last="R5", gaps=2, jokers=0),
    ),
    Refusal(
        "group too big",
        _read("R7 B7 K7 O7 J"),
        "invalid-meld",
        _meld("R7 B7 K7 O7 J", "meld-group-too-big", limit=4, count=5),
    ),
    Refusal(
        "run too long",
        _read("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J"),
        "invalid-meld",
        _meld(
            "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J", "meld-run-too-long", limit=13, count=14
        ),
    ),
    Refusal(
        "not a tile of the rules",
        _read("R14 R1 R2"),
        "invalid-meld",
        _meld("R14 R1 R2", "meld-bad-tile", tile="R14", colours="K, R, B, O", numbers=13),
    ),
    Refusal(
        "joker role that does not fit",
        _read("R5 J=K6 R7"),
        "invalid-meld",
        _meld("R5 J=K6 R7", "meld-joker-role", roles="J=K6"),
    ),
    Refusal(
        "opening worth too little",
        _checked(_at("", "R1 R2 R3 K9", opened=False), "R1 R2 R3 -> R1 R2 R3"),
        "opening-value",
        {"value": 6, "needed": 30},
    ),
    Refusal(
        "opening touches the table",
        _checked(
            _at("R4 R5 R6", "R7 K10 K11 K12", opened=False),
            "R7 K10 K11 K12 -> R4 R5 R6 R7 | K10 K11 K12",
        ),
        "opening-touches-table",
        {"meld": "R4 R5 R6"},
    ),
    Refusal(
        "freed joker kept in its set",
        _checked(_at("R5 J R7 | K9 B9 O9", "R6 B1 B2", NEW_SET), "R6 -> R5 R6 R7 J | K9 B9 O9"),
        "joker-rule",
        {"why": "joker-kept-in-set", "meld": "R5 R6 R7 J"},
    ),
    Refusal(
        "strict joker meld broken",
        _checked(_at("R1 R2 J R4 R5 R6", "R3", STRICT), "R3 -> R1 R2 J | R3 R4 R5 R6"),
        "joker-rule",
        {"why": "joker-meld-broken", "meld": "R1 R2 J R4 R5 R6"},
    ),
    Refusal(
        "group of three needs both colours",
        _checked(_at("K7 B7 J", "R7 O7 B1 B2", BOTH), "R7 B1 B2 -> K7 R7 B7 | B1 B2 J"),
        "joker-rule",
        {"why": "joker-group-needs-both", "meld": "K7 B7 J"},
    ),
    Refusal(
        "strict freed joker not in a new meld",
        _checked(
            _at("R4 J R6 | K1 K2 K3 K4 | B4 B5 B6 B7", "R5", STRICT),
            "R5 -> R4 R5 R6 | K1 K2 K3 K4 J | B4 B5 B6 B7",
        ),
        "joker-rule",
        {"why": "joker-not-in-new-meld"},
    ),
    Refusal(
        "joker replaced from the table",
        _checked(
            _at("R4 J R6 | K5 R5 B5 O5", "K9 K10", CLASSIC),
            "K9 K10 -> R4 R5 R6 | K5 B5 O5 | K9 K10 J",
        ),
        "joker-rule",
        {"why": "joker-swap-from-table"},
    ),
    Refusal("draw from an empty pool", _applied(EMPTY_POOL, Draw()), "pool-empty", {}),
    Refusal("pass with tiles in the pool", _applied(OPENED, Pass()), "pool-not-empty", {}),
    Refusal("no action at all", _applied(OPENED, object()), "unknown-action", {"action": "object"}),
]


def every_error() -> list[RummikubError]:
    """The errors of :data:`REFUSALS`."""
    return [r.error() for r in REFUSALS]
