"""The error hierarchy of the rules engine, and the codes that say what went wrong.

Every error is a :class:`ValueError`, so callers that only care about "bad input" can catch that.
Every error carries a machine-readable :class:`Code` and its ``params`` (a small mapping of
JSON-able values: the meld, the tile, the count...). Interfaces show a person the message of the
code from their message catalogue (:mod:`rummikub.i18n`), never ``str(err)``, which is an
English sentence for developers and logs.

Two kinds of refusal are kept apart:

- :class:`IllegalPlayError`: an action a player chose that the rules forbid now (an invalid
  meld, a tile not on the rack, drawing from an empty pool...). A game program shows it to
  the player and asks again.
- :class:`UsageError`: a program that misuses the API (a seat number that is not a seat, an
  action after the round or the match ended, the next round while one is running). It is a
  bug of the caller, not a move of a player.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

__all__ = [
    "Code",
    "IllegalPlayError",
    "NotationError",
    "Param",
    "RecordError",
    "RulesError",
    "RummikubError",
    "UsageError",
]

#: the type of one parameter of an error: text (a meld, a tile, a name) or a number
Param = str | int


class Code(StrEnum):
    """What went wrong, for programs: stable values (they appear in records and on the wire).

    Each code has a message ``error.<value>`` in every message catalogue. The ``params`` an
    error carries are listed per code; the message may use any of them.
    """

    #: any error without a more precise code
    ERROR = "error"
    #: an illegal play without a more precise code
    ILLEGAL = "illegal"

    # -- a play of the tile game --------------------------------------------------------
    #: a play that places no tile from the rack
    NO_RACK_TILE = "no-rack-tile"
    #: ``tiles``: played tiles that are not on the rack (or not tiles of these rules)
    NOT_ON_RACK = "not-on-rack"
    #: ``tiles``: tiles that were on the table and are not on the new table
    TABLE_TILE_MISSING = "table-tile-missing"
    #: ``tiles``: played tiles (dice) that are not on the new table
    TILE_MISSING = "tile-missing"
    #: ``tiles``: tiles (faces) on the new table that came from nowhere
    TILE_FROM_NOWHERE = "tile-from-nowhere"
    #: ``meld`` (as written), ``why`` (a ``meld-*`` code) and that code's params; from a
    #: play, also ``number`` (1-based) and the error's ``meld`` attribute (0-based)
    INVALID_MELD = "invalid-meld"
    #: ``value``, ``needed``: the opening melds are worth too little
    OPENING_VALUE = "opening-value"
    #: ``meld``: a table meld touched before opening
    OPENING_TOUCHES_TABLE = "opening-touches-table"
    #: ``why`` (a ``joker-*`` code), ``meld`` where one meld is to blame
    JOKER_RULE = "joker-rule"
    #: drawing from an empty pool
    POOL_EMPTY = "pool-empty"
    #: passing while the pool has tiles
    POOL_NOT_EMPTY = "pool-not-empty"
    #: ``action``: an action of no known kind
    UNKNOWN_ACTION = "unknown-action"
    #: an action of the other game (a die throw in the tile game...)
    WRONG_GAME = "wrong-game"
    #: an action of a player whose turn it is not
    NOT_YOUR_TURN = "not-your-turn"
    #: an action while no turn is being played (between rounds)
    NOT_IN_TURN = "not-in-turn"
    #: ``tile``: a tile that these rules do not have (a solver position)
    NOT_A_TILE = "not-a-tile"
    #: ``tile``, ``count``, ``limit``: more copies of a tile than the rules have
    TOO_MANY_COPIES = "too-many-copies"
    #: an answer of an outside bot that is not a valid answer
    BAD_ANSWER = "bad-answer"

    # -- why a meld is not valid (the ``why`` of invalid-meld) --------------------------
    #: ``tile``
    MELD_BAD_TILE = "meld-bad-tile"
    #: ``count``: fewer than 3 tiles
    MELD_TOO_SHORT = "meld-too-short"
    MELD_ONLY_JOKERS = "meld-only-jokers"
    #: ``roles``: the written joker roles do not fit the meld
    MELD_JOKER_ROLE = "meld-joker-role"
    #: ``tile``: a colour twice in a group
    MELD_GROUP_REPEATS = "meld-group-repeats"
    #: ``limit``, ``count``
    MELD_GROUP_TOO_BIG = "meld-group-too-big"
    #: ``tile``: a number twice in a run
    MELD_RUN_REPEATS = "meld-run-repeats"
    #: ``limit``, ``count``
    MELD_RUN_TOO_LONG = "meld-run-too-long"
    #: ``first``, ``last``, ``gaps``, ``jokers``: more gaps than jokers
    MELD_RUN_GAPS = "meld-run-gaps"
    #: ``count``, ``numbers``: the run does not fit between 1 and ``numbers``
    MELD_RUN_OFF_END = "meld-run-off-end"
    #: numbers and colours both differ
    MELD_MIXED = "meld-mixed"
    #: not a valid group or run (no more precise reason)
    MELD_INVALID = "meld-invalid"

    # -- why the joker rule forbids a play (the ``why`` of joker-rule) ------------------
    #: ``meld``: a freed joker left in the set its replacement went to
    JOKER_KEPT_IN_SET = "joker-kept-in-set"
    #: ``meld``: a meld with a joker broken up under the strict joker rule
    JOKER_MELD_BROKEN = "joker-meld-broken"
    #: ``meld``: a joker taken from a group of three without both missing colours
    JOKER_GROUP_NEEDS_BOTH = "joker-group-needs-both"
    #: a freed joker not used in a new meld (strict joker rule)
    JOKER_NOT_IN_NEW_MELD = "joker-not-in-new-meld"
    #: a joker replaced by a tile from the table, not from the rack
    JOKER_SWAP_FROM_TABLE = "joker-swap-from-table"

    # -- Xpress (the dice game) ---------------------------------------------------------
    #: ``die``: a die that does not exist; ``count``, ``dice`` of a hand of the wrong size
    BAD_DICE = "bad-dice"
    #: ``die``, ``face``: a face the die does not have; or faces that do not match the dice
    BAD_FACE = "bad-face"
    #: no die named, or a die named twice
    NO_DICE = "no-dice"
    #: ``die``: a die that is not among the player's unplaced dice
    NOT_IN_HAND = "not-in-hand"
    #: a throw without faces (the game throws the dice)
    NO_FACES = "no-faces"
    #: placing or ending the turn before throwing
    MUST_THROW = "must-throw"
    #: ending the turn without placing though dice can be placed
    MUST_PLACE = "must-place"
    #: ``meld``: ending the turn while the unplaced dice hold a complete set
    MUST_PLACE_SET = "must-place-set"
    #: a second throw in one turn
    ALREADY_THROWN = "already-thrown"

    # -- misuse of the API (UsageError) -------------------------------------------------
    #: ``seat`` (and ``players``): a seat number or a number of players that does not fit
    BAD_SEAT = "bad-seat"
    #: an action after the round ended
    ROUND_OVER = "round-over"
    #: the next round while the current one is being played
    ROUND_NOT_OVER = "round-not-over"
    #: an action after the match ended
    MATCH_OVER = "match-over"
    #: ``name``, ``value``: an argument of an API call that does not fit (an unknown option,
    #: an action index that is not one of the candidates offered)
    BAD_ARGUMENT = "bad-argument"

    # -- input that is not valid --------------------------------------------------------
    #: ``token`` where known: text that is not valid notation
    BAD_NOTATION = "bad-notation"
    #: ``field`` where known: invalid rules
    BAD_RULES = "bad-rules"
    #: ``count``, ``min``, ``max``: a number of players the rules do not allow
    PLAYER_COUNT = "player-count"
    #: ``round``, ``turn`` (1-based) where known: a record that is malformed or does not replay
    BAD_RECORD = "bad-record"


class RummikubError(ValueError):
    """Base class of every error raised by the rules engine: ``code`` and ``params`` say what
    went wrong for programs; ``str(err)`` says it in English for developers."""

    code: Code = Code.ERROR

    def __init__(
        self,
        message: str = "",
        *,
        code: Code | None = None,
        params: Mapping[str, Param] | None = None,
    ) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params: dict[str, Param] = dict(params or {})


class NotationError(RummikubError):
    """Text that is not valid notation (a tile, meld, table, rack, play or record field)."""

    code = Code.BAD_NOTATION

    def __init__(self, message: str, *, token: str | None = None, position: int | None = None):
        self.token = token
        self.position = position
        where = ""
        if token is not None:
            where = f" (token {token!r}"
            where += f" at position {position})" if position is not None else ")"
        super().__init__(message + where, params={"token": token} if token is not None else None)


class IllegalPlayError(RummikubError):
    """An action that breaks the rules of the game in the current state.

    ``code`` (a :class:`Code`) and ``params`` say why; ``meld`` is the index of the meld to
    blame, if one is. ``reason`` is the code's value, kept for older callers.
    """

    code = Code.ILLEGAL

    def __init__(
        self,
        message: str,
        *,
        code: Code | None = None,
        params: Mapping[str, Param] | None = None,
        meld: int | None = None,
        reason: str | None = None,
    ):
        if code is None and reason is not None:
            code = Code(reason)
        super().__init__(message, code=code, params=params)
        self.meld = meld

    @property
    def reason(self) -> str:
        """The code's value (the name of ``code`` before there was a :class:`Code`)."""
        return self.code.value


class UsageError(RummikubError):
    """A program that misuses the API: a seat that is not a seat, an action after the round or
    the match ended, the next round while a round is being played. Not a player's illegal
    move: the caller has a bug (or a client sent nonsense)."""

    def __init__(
        self, message: str, *, code: Code, params: Mapping[str, Param] | None = None
    ) -> None:
        super().__init__(message, code=code, params=params)


class RulesError(RummikubError):
    """An invalid rules object: unknown field, value out of range, inconsistent options."""

    code = Code.BAD_RULES

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        code: Code | None = None,
        params: Mapping[str, Param] | None = None,
    ):
        self.field = field
        values: dict[str, Param] = {"field": field} if field is not None else {}
        super().__init__(message, code=code, params={**values, **(params or {})})


class RecordError(RummikubError):
    """A game record that is malformed or does not replay: names the round and turn."""

    code = Code.BAD_RECORD

    def __init__(self, message: str, *, round: int | None = None, turn: int | None = None):
        self.round = round
        self.turn = turn
        where = ""
        params: dict[str, Param] = {}
        if round is not None:
            where = f"round {round + 1}"
            params["round"] = round + 1
            if turn is not None:
                where += f", turn {turn + 1}"
                params["turn"] = turn + 1
            where += ": "
        super().__init__(where + message, params=params)
