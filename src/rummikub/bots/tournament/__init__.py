"""Bot tournaments: paired deals, parallel games, a resumable results file, and statistics
(win rate with a 95% interval, mean score per round, Elo with error)."""

from __future__ import annotations

from .results import GameResult, ResultsFile, TournamentConfig, records_path
from .runner import Interrupted, play_pairing, run_tournament
from .schedule import Pairing, schedule
from .stats import BotStats, GameOutcome, Standings, elo_ratings, standings, wilson

__all__ = [
    "BotStats", "GameOutcome", "GameResult", "Interrupted", "Pairing", "ResultsFile",
    "Standings", "TournamentConfig", "elo_ratings", "play_pairing", "records_path",
    "run_tournament", "schedule", "standings", "wilson",
]  # fmt: skip
