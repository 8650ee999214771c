"""The bots' ratings: calibrated from real tournament games, anchored on greedy, shipped with
the package and shown by ``rummikub ratings``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rummikub.bots.tournament import run_tournament
from rummikub.bots.tournament.results import TournamentConfig
from rummikub.cli.main import app
from rummikub.core import UsageError, preset
from rummikub.ratings import bot_rating, bot_ratings, calibrate, calibration, read_results
from rummikub.ratings.model import MU


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A seeded tournament of random, beginner and greedy (12 games)."""
    out = tmp_path_factory.mktemp("calibration") / "t.jsonl"
    config = TournamentConfig(
        ("random", "beginner", "greedy"), 2, 40, preset("standard").to_dict(), None, "tiles"
    )
    run_tournament(config, 12, out, workers=1)
    return out


def test_the_calibration_orders_the_levels_and_anchors_greedy(results: Path) -> None:
    games, tournaments = read_results([results])
    assert len(games) == 12 and tournaments[0].bots == ("random", "beginner", "greedy")
    field = calibrate(games)["tiles"]
    assert field["greedy"].mu == pytest.approx(MU)
    assert field["random"].mu < field["greedy"].mu
    assert all(r.sigma < 25 / 3 for r in field.values())  # every bot played and was learned
    with pytest.raises(UsageError, match="no 'expert' to anchor"):
        calibrate(games, anchor="expert")


def test_the_command_writes_what_it_prints(results: Path, tmp_path: Path) -> None:
    out = tmp_path / "bots.json"
    result = CliRunner().invoke(app, ["ratings", "calibrate", str(results), "-o", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    assert doc["rated_games"] == 12
    assert doc["made_by"] == "rummikub ratings calibrate t.jsonl --anchor greedy"
    assert doc["tournaments"][0]["seed"] == 40
    assert set(doc["games"]["tiles"]) == {"random", "beginner", "greedy"}
    assert "greedy" in result.output and "tiles bots, strongest first:" in result.output
    bad = CliRunner().invoke(app, ["ratings", "calibrate", str(tmp_path / "none.jsonl")])
    assert bad.exit_code != 0 and "none.jsonl" in bad.output


def test_the_shipped_calibration_loads_and_ranks_the_levels() -> None:
    tiles = bot_ratings("tiles")
    assert set(tiles) == {"random", "beginner", "greedy", "strategic", "expert"}
    # measured: beginner (new melds, then tiles at the ends of the table's melds) beats random
    assert tiles["random"].mu < tiles["beginner"].mu < tiles["greedy"].mu < tiles["strategic"].mu
    assert tiles["greedy"].mu == pytest.approx(MU)
    xpress = bot_ratings("xpress")
    assert xpress["random"].mu < xpress["greedy"].mu
    assert calibration()["rated_games"] >= 700
    with pytest.raises(UsageError, match="no rating for the tiles bot 'nobody'"):
        bot_rating("nobody")


@pytest.mark.parametrize(
    ("game", "order"),
    [
        ("tiles", ["expert", "strategic", "greedy", "beginner", "random"]),
        ("xpress", ["expert", "greedy", "random"]),
    ],
)
def test_the_command_lists_the_bots_strongest_first_by_the_figure_it_shows(
    game: str, order: list[str]
) -> None:
    """The order "strongest first" is true of the figures printed, and both follow the measured
    strengths (the estimate mu): expert above strategic, beginner above random."""
    result = CliRunner().invoke(app, ["ratings", "bots", "--game", game])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"{game} bots, strongest first:"
    assert lines[1].split() == ["bot", "rating", "mu", "sigma"]
    rows = [line.split() for line in lines[2:] if line.startswith("  ")]
    field = bot_ratings(game)
    assert [r[0] for r in rows] == sorted(field, key=lambda b: -field[b].mu) == order
    shown = [int(r[1]) for r in rows]
    assert shown == sorted(shown, reverse=True) and len(set(shown)) == len(shown)
    assert [float(r[2]) for r in rows] == [round(field[r[0]].mu, 2) for r in rows]
    assert lines[-1].startswith("(from ")


def test_the_levels_are_listed_weakest_first_as_measured() -> None:
    """The new-game form, the web lobby and every list of levels go weakest first, in the
    order of the calibrated ratings."""
    from rummikub.bots import bot_levels
    from rummikub.tui.session import bot_levels as form_levels

    for game in ("tiles", "xpress"):
        field = bot_ratings(game)
        assert list(bot_levels(game)) == sorted(field, key=lambda b: field[b].mu), game
    assert form_levels() == ["random", "beginner", "greedy", "strategic", "expert"]


def test_the_records_of_a_tournament_calibrate_as_its_results(results: Path) -> None:
    """``ratings calibrate`` on the tournament's game records (``OUT.records.jsonl``, what a
    user calls games.jsonl) rates the same games as on its results file, in the same order."""
    records = results.with_name("t.records.jsonl")
    from_results, _ = read_results([results])
    from_records, configs = read_results([records])
    assert configs == []
    assert [(g, r.seats, r.totals, r.winners) for g, r in from_results] == [
        (g, r.seats, r.totals, r.winners) for g, r in from_records
    ]
    assert calibrate(from_records) == calibrate(from_results)
    result = CliRunner().invoke(app, ["ratings", "calibrate", str(records)])
    assert result.exit_code == 0, result.output
    assert "tiles bots, strongest first:" in result.output and "bad tournament header" not in (
        result.output
    )


def test_simulated_games_calibrate_and_other_files_are_refused(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    args = ["-p", "2", "-n", "4", "--seed", "3", "--bots", "random,greedy", "-o", str(games), "-q"]
    made = CliRunner().invoke(app, ["simulate", *args])
    assert made.exit_code == 0, made.output
    result = CliRunner().invoke(app, ["ratings", "calibrate", str(games)])
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "random" in result.output
    header = tmp_path / "h.jsonl"
    header.write_text('{"type": "tournament", "players": 2}\n', encoding="utf-8")
    notes = tmp_path / "notes.jsonl"
    notes.write_text('{"hello": 1}\n', encoding="utf-8")
    person = tmp_path / "person.jsonl"
    record = json.loads(games.read_text(encoding="utf-8").splitlines()[0])
    record["players"][1] = {"name": "Ann", "kind": "human"}
    person.write_text(json.dumps(record) + "\n", encoding="utf-8")
    refusals = {
        header: f"error: {header}: line 1: bad tournament header: it has no 'bots' field",
        notes: f"error: {notes}: not a tournament's results file",
        person: f"error: {person}: line 1: seat 2 (Ann) is not a bot",
    }
    for path, message in refusals.items():
        result = CliRunner().invoke(app, ["ratings", "calibrate", str(path)])
        assert result.exit_code == 1, result.output
        assert result.output.startswith(message), result.output
