"""What the screens need of the app that shows them: the translator, the clock tick, the bot
pace and a new game. The screens ask for it through :func:`host_of` and never import the app,
so the app (which imports the screens) and the screens do not import each other."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from textual.screen import Screen

from rummikub.i18n import Translator

__all__ = ["GameHost", "host_of"]


@runtime_checkable
class GameHost(Protocol):
    """The app's side of the screens: ``t`` words messages, ``tick`` is how often (seconds)
    the clock is checked, ``speed`` the bot pace (0 slowest .. 4 instant)."""

    t: Translator
    tick: float
    speed: int

    def new_game(self) -> None:
        """Show the new-game screen."""
        ...


def host_of(screen: Screen[Any]) -> GameHost:
    """The app showing ``screen``, as a :class:`GameHost`."""
    app = screen.app
    if not isinstance(app, GameHost):
        raise TypeError(f"{type(app).__name__} cannot host the Rummikub screens")
    return app
