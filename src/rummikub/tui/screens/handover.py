"""Hot-seat handover: the rack is hidden until the next person is at the keyboard."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static

from ..host import host_of

__all__ = ["HandoverScreen"]


class HandoverScreen(Screen[None]):
    """A blank screen saying whose turn it is; any key or click continues."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        app = host_of(self)
        with Middle(), Center():
            yield Static(app.t("handover.pass_to", name=self.player), id="handover-text")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss(None)
