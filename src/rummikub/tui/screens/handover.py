"""Hot-seat handover: the rack is hidden until the next person is at the keyboard."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

__all__ = ["HandoverScreen"]


class HandoverScreen(Screen[None]):
    """A blank screen saying whose turn it is; any key or click continues."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        from ..app import RummikubApp

        app = self.app
        assert isinstance(app, RummikubApp)
        with Middle(), Center():
            yield Static(app.t("handover.pass_to", name=self.player), id="handover-text")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss(None)
