"""The Textual application: new game -> game (with handovers and round ends) -> ..., or the
replay viewer."""

from __future__ import annotations

import time
from pathlib import Path

from textual.app import App

from rummikub.core import GameRecord
from rummikub.i18n import Translator, translator

from .screens import GameScreen, NewGameScreen, ReplayScreen
from .session import Clock, GameSetup, Session

__all__ = ["RummikubApp"]


class RummikubApp(App[None]):
    """Play Rummikub in the terminal.

    ``session``: start straight into this game (e.g. a resumed one); ``record``: open the
    replay viewer instead. ``clock`` is the turn clock (injectable for tests), ``tick`` how
    often (seconds) the clock is checked, ``speed`` the initial bot pace (0 slowest .. 4
    instant), ``save_path`` where Ctrl+S saves, ``autosave`` where every turn is saved,
    ``review_samples`` the deals a position the replay's review samples (default the analysis's).
    """

    CSS_PATH = "app.tcss"
    TITLE = "Rummikub"

    def __init__(
        self,
        *,
        lang: str | None = None,
        session: Session | None = None,
        record: GameRecord | None = None,
        seed: int | None = None,
        clock: Clock = time.monotonic,
        tick: float = 0.25,
        speed: int = 1,
        save_path: Path | None = None,
        autosave: Path | None = None,
        review_samples: int | None = None,
    ) -> None:
        super().__init__()
        self.t: Translator = translator(lang)
        self.session = session
        self.record = record
        self.seed = seed
        self.clock = clock
        self.tick = tick
        self.speed = speed
        self.save_path = save_path
        self.autosave = autosave
        self.review_samples = review_samples

    def on_mount(self) -> None:
        self.title = self.t("app.title")
        if self.record is not None:
            self.push_screen(ReplayScreen(self.record, review_samples=self.review_samples))
        elif self.session is not None:
            self.start(self.session)
        else:
            self.new_game()

    def new_game(self) -> None:
        """Show the new-game screen; its result starts the game."""
        self.push_screen(NewGameScreen(seed=self.seed), self._setup_done)

    def _setup_done(self, setup: GameSetup | None) -> None:
        if setup is None:
            self.exit()
            return
        session = Session.new(
            setup, clock=self.clock, save_path=self.save_path, autosave=self.autosave
        )
        self.start(session)

    def start(self, session: Session) -> None:
        self.session = session
        session.clock = self.clock
        if self.save_path is not None:
            session.save_path = self.save_path
        if self.autosave is not None:
            session.autosave = self.autosave
        # Replace whatever game screens are open with the new game.
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(GameScreen(session))
