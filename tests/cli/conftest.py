"""The command line speaks the system's language unless told (``--lang``): these tests run it
in English whatever the machine's locale."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
