"""The training example runs: a few episodes of REINFORCE move the policy's weights, and the
trained policy beats the ``random`` bot (as the solver's candidates let even a fresh one)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_policy.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_policy", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_trains_and_beats_random() -> None:
    example = load()
    w = example.train(8, seed=3)
    assert w.shape == (example.FEATURES,) and np.abs(w).sum() > 0
    assert (example.train(8, seed=3) == w).all()  # seeded: the same weights again
    assert example.evaluate(w, 6, seed=3, opponent="random") > 0.5
