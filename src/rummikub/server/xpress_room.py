"""Xpress rooms by their old name: :class:`XpressRoom` is a :class:`~.room.Room` of Xpress
with its part's Xpress-only helpers typed (the server itself uses :class:`~.room.Room` for
every game; the Xpress part is :mod:`.games.xpress`)."""

from __future__ import annotations

from collections.abc import Sequence

from rummikub.bots.registry import bot_levels
from rummikub.xpress import Place, XpressRules
from rummikub.xpress.dice_game import XPRESS
from rummikub.xpress.dice_game import fallback_action as fallback

from .games.xpress import XpressRoomGame, xpress_hint, xpress_rules
from .games.xpress import place_from_table as _place_from_table
from .room import Room
from .seats import Seat, Settings

__all__ = ["XPRESS_BOTS", "XpressRoom", "fallback", "xpress_hint", "xpress_rules"]

#: Bot levels of Xpress rooms (strongest last).
XPRESS_BOTS = list(bot_levels(XPRESS.name))


class XpressRoom(Room):
    """A two-seat room playing Xpress."""

    def __init__(
        self,
        code: str,
        rules: XpressRules,
        settings: Settings,
        seed: int,
        seats: list[Seat],
        created_at: float,
    ) -> None:
        super().__init__(code, rules, settings, seed, seats, created_at, game=XPRESS)

    @property
    def xpress(self) -> XpressRoomGame:
        assert isinstance(self.part, XpressRoomGame)
        return self.part

    @property
    def rolled(self) -> list[int]:
        """The dice of the last throw."""
        return self.xpress.rolled

    def place_from_table(
        self, table_json: Sequence[Sequence[str]], dice: Sequence[int] | None
    ) -> Place:
        assert self.match is not None
        return _place_from_table(self.match.state, table_json, dice)
