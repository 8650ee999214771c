"""Tools for testing games and bots of the platform: the conformance suite of the game
interface (:func:`check_game`), which every game runs in its test suite (in the spirit of
pgx's ``api_test``)."""

from __future__ import annotations

from .conformance import ConformanceSummary, GameContractError, check_game

__all__ = ["ConformanceSummary", "GameContractError", "check_game"]
