"""The table of game parts: per game, where each package above the games finds its part of it.

A game's rules are a :class:`~rummikub.core.interface.Game`; the rest of the platform has one
part per game in a package above :mod:`rummikub.games` (its bot levels in ``bots``, its judge in
``analysis``, its room part in ``server``...). This package may not import those packages, so
the table names each part by reference, ``"module:attribute"`` (the syntax of entry points), and
each consumer resolves the reference in its own layer with
:func:`rummikub.games.game_part`: importing a part's
module is the consumer's import, never this package's.

========== ======================================================================================
part       what the reference resolves to, and who reads it
========== ======================================================================================
bots       ``{level: factory(seed)}``, weakest first (:func:`rummikub.bots.get_bot`)
hint       ``hint(observation, seconds) -> action`` (:func:`rummikub.bots.hint`)
judge      ``judge(record, progress, depth, samples, seed) -> turns judged``
           (:func:`rummikub.analysis.analyse`)
room       ``RoomGame()``: the game's part of a server room
           (:func:`rummikub.server.rooms.games.room_game`)
env        ``GameSpec(limit=...)``: the learning environments' part
           (:func:`rummikub.envs.spec_for`)
web        not a reference: the key (``game``) of the game's adapter in the web client's
           ``static/js/games.js``
describe   optional; ``describe(record, translator) -> lines`` (``rummikub replay --text``;
           without it the steps are described one by one)
outside    optional; ``factory(command, name=, default_limit=)``: a bot played by an outside
           program (``--bots cmd:COMMAND``)
========== ======================================================================================

``needs_solver`` names what of the game plays with the solver (the ``solver`` extra): parts
(``hint``, ``judge``) and bot levels (``bots.greedy``); the command line checks the extra before
a long run starts.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, fields
from functools import cache
from typing import Literal

from rummikub.core.errors import RulesError

__all__ = [
    "OPTIONAL_PARTS",
    "PART_NAMES",
    "WHAT",
    "GameParts",
    "MissingPart",
    "PartName",
    "resolve",
]

PartName = Literal["bots", "hint", "judge", "room", "env", "describe", "outside"]

#: the parts that are references, in the table's order
PART_NAMES: tuple[PartName, ...] = ("bots", "hint", "judge", "room", "env", "describe", "outside")
#: the parts a game may go without (its consumers then fall back or refuse)
OPTIONAL_PARTS: frozenset[str] = frozenset({"describe", "outside"})

#: what each part is called in the error of a game without it
WHAT = {
    "bots": "bots",
    "hint": "hints",
    "judge": "analysis",
    "room": "server rooms",
    "env": "learning environments",
    "describe": "text describer",
    "outside": "outside-program bots",
    "web": "web adapter",
}


@dataclass(frozen=True, slots=True)
class GameParts:
    """The parts of one game (module docstring); ``None``: the game has no such part."""

    bots: str | None = None
    hint: str | None = None
    judge: str | None = None
    room: str | None = None
    env: str | None = None
    web: str | None = None
    describe: str | None = None
    outside: str | None = None
    needs_solver: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in PART_NAMES and value is not None:
                module, colon, attribute = value.partition(":")
                if not (module and colon and attribute):
                    raise ValueError(f"part {f.name}: {value!r} is not 'module:attribute'")


class MissingPart(RulesError):
    """The game has no such part (``xpress has no outside-program bots``)."""


@cache
def resolve(reference: str) -> object:
    """The object ``"package.module:attribute.path"`` names (imported on first use)."""
    module, _, path = reference.partition(":")
    obj: object = importlib.import_module(module)
    for attribute in path.split("."):
        obj = getattr(obj, attribute)
    return obj
