"""The evaluation of a position (who is winning, from one player's view), as the analysis uses
it: :mod:`rummikub.bots.evaluation`, where the expert and the hint use it too."""

from rummikub.bots.evaluation import (
    DEEP_SAMPLES,
    DEFAULT_SAMPLES,
    DEPTHS,
    Depth,
    Evaluation,
    candidate_moves,
    evaluate,
    judge_seed,
    rank_moves,
)

__all__ = [
    "DEEP_SAMPLES",
    "DEFAULT_SAMPLES",
    "DEPTHS",
    "Depth",
    "Evaluation",
    "candidate_moves",
    "evaluate",
    "judge_seed",
    "rank_moves",
]
