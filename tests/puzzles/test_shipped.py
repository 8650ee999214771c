"""The shipped set: at least 1,000 puzzles, across the goals and themes, every one verified
(its position, its goal and every stored solution through the engine; the solver's full check
ran when the set was made, ``make puzzles``)."""

from __future__ import annotations

from collections import Counter

from rummikub.puzzles import Goal
from rummikub.puzzles.verify import shipped, verify


def test_every_shipped_puzzle_verifies() -> None:
    puzzles = shipped()
    assert len(puzzles) >= 1000
    assert len({p.id for p in puzzles}) == len(puzzles)
    for p in puzzles:
        verify(p)


def test_the_set_spans_the_goals_themes_and_ratings() -> None:
    puzzles = shipped()
    goals = Counter(p.goal for p in puzzles)
    assert set(goals) == set(Goal)
    for goal in (Goal.GO_OUT, Goal.MOST_TILES, Goal.FREE_JOKER):
        assert goals[goal] >= 100
    themes = Counter(t for p in puzzles for t in p.themes)
    for theme in ("split-run", "run-to-group", "group-to-run", "joker-retrieval", "move-4"):
        assert themes[theme] >= 50
    ratings = sorted(p.rating for p in puzzles)
    assert ratings[-1] - ratings[0] >= 600
    # every puzzle beats the naive ways (open puzzles: the obvious packing falls short)
    assert all(p.naive < p.target for p in puzzles if p.goal in (Goal.GO_OUT, Goal.MOST_TILES))
