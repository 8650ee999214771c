"""The keys the README and docs/terminal.md name for the game screen are the keys it binds."""

from __future__ import annotations

import re
from pathlib import Path

from rummikub.tui.screens import GameScreen

ROOT = Path(__file__).resolve().parents[2]
#: what the docs call a key, as Textual names it
KEY_NAMES = {"Enter": "enter", "Space": "space", "+": "plus", "−": "minus", "Ctrl+S": "ctrl+s"}


def _action(key: str) -> str:
    """The action the game screen binds ``key`` to (as the docs write the key)."""
    name = KEY_NAMES.get(key, key.lower())
    found = [b.action for b in GameScreen.BINDINGS if name in b.key.split(",")]  # type: ignore[union-attr]
    assert found, f"the game screen binds no key {key!r}"
    return found[0]


def _terminal_paragraph() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Play in the terminal", 1)[1].split("\n## ", 1)[0]
    return " ".join(section.split())


def test_the_readme_names_the_keys_the_game_screen_binds() -> None:
    text = _terminal_paragraph()
    claims = {
        r"drop them into a meld \(([^)]*)\)": "drop",
        r"or a new meld \(([^)]*)\)": "new_meld",
        r"split \(([^)]*)\)": "split",
        r"join \(([^)]*)\)": "join",
    }
    for pattern, action in claims.items():
        found = re.search(pattern, text)
        assert found is not None, pattern
        # "Enter / `+`", "Enter, or click the `+` after it": the keys come before the mouse
        keys = [k.strip(" `") for k in found.group(1).split(", or click")[0].split("/")]
        assert keys and all(keys), (pattern, found.group(1))
        for key in keys:
            assert _action(key) == action, (key, found.group(0))
    pace = re.search(r"`\+`/`−`/F set the bots' pace", text)
    assert pace is not None
    assert [_action(k) for k in ("+", "−", "F")] == ["speed(-1)", "speed(1)", "speed(9)"]
