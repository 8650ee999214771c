"""The command line as a whole: examples in every --help, a list of commands in whole
sentences, --version, and one name for parallelism (--jobs/-j) in every command."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from rummikub.cli.main import app

runner = CliRunner()


def _commands(group: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command and group under ``group`` (Typer's own Click objects)."""
    for name, command in group.commands.items():
        yield (*path, name)
        if hasattr(command, "commands"):
            yield from _commands(command, (*path, name))


ALL = list(_commands(typer.main.get_command(app)))


def test_every_command_is_checked() -> None:
    assert ("replay",) in ALL and ("xpress", "play") in ALL and ("ratings", "calibrate") in ALL
    assert len(ALL) >= 18


@pytest.mark.parametrize("path", ALL, ids=" ".join)
def test_every_help_shows_an_example_of_its_command(path: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    after = result.output.partition("Examples:")[2]
    assert f"rummikub {' '.join(path)}" in after


def test_the_list_of_commands_is_in_whole_sentences() -> None:
    """Each entry of the list is its command's first sentence, its lines filled: a line broken
    in the middle of a sentence (as the docstrings are) left a word alone on a line."""
    for group in ((), ("xpress",), ("ratings",), ("accounts",)):
        result = runner.invoke(app, [*group, "--help"], env={"COLUMNS": "100"})
        box = result.output.partition("Commands")[2].partition("╰")[0]
        entries: list[list[str]] = []
        for row in box.splitlines()[1:]:
            text = row.strip("│ ")
            name, _, rest = row.strip("│").partition("  ")
            if name.strip():
                entries.append([rest.strip()])
            else:
                entries[-1].append(text.strip())
        assert entries, group
        for lines in entries:
            assert lines[-1].endswith((".", "~.")), lines
            # every line but the last is filled to the width of the box
            assert all(len(line) > 70 for line in lines[:-1]), lines


def test_version() -> None:
    for flag in ("--version", "-V"):
        result = runner.invoke(app, [flag])
        assert result.exit_code == 0
        assert result.output == f"rummikub {metadata.version('rummikub')}\n"


@pytest.mark.parametrize("path", [("tournament",), ("simulate",), ("analyse",), ("serve",)])
def test_parallelism_is_jobs_in_every_command(path: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "100"})
    assert "--jobs" in result.output and "-j " in result.output
    assert "--workers" not in result.output and "-w " not in result.output


def test_the_old_name_workers_still_works(tmp_path: Path) -> None:
    """Old scripts keep working: --workers/-w (hidden) is read as --jobs, with a note."""
    outs = []
    for flag in ("--jobs", "--workers", "-w"):
        out = tmp_path / f"{flag.strip('-')}.jsonl"
        args = ["simulate", "-p", "2", "-n", "2", "--seed", "3", flag, "2", "-o", str(out), "-q"]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        assert ("note: --workers is now --jobs (-j)" in result.output) == (flag != "--jobs")
        outs.append([line[:200] for line in out.read_text(encoding="utf-8").splitlines()])
    assert outs[0] == outs[1] == outs[2]
    out = tmp_path / "t.jsonl"
    args = ["tournament", "--bots", "random,beginner", "-n", "2", "-w", "1", "-o", str(out), "-q"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "note: --workers is now --jobs (-j)" in result.output


def test_the_tournament_report(tmp_path: Path) -> None:
    """The head-to-head table has a header row and tells the diagonal (·) from two bots that
    never met; both intervals are printed one way; under 30 games a warning."""
    out = tmp_path / "r.jsonl"
    args = ["tournament", "--bots", "random,beginner,greedy", "-p", "2", "-n", "2", "--seed", "1"]
    result = runner.invoke(app, [*args, "-j", "1", "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "win % (95% interval)" in lines[0] and "Elo (95% interval)" in lines[0]
    assert "±" not in result.output and "–" not in result.output
    rows = {line.split()[0]: line for line in lines[2:5]}
    assert set(rows) == {"random", "beginner", "greedy"}
    assert all(line.count(" to ") == 2 for line in rows.values())
    at = lines.index("(· the bot itself; never: the two never met)")
    assert lines[at + 1].split() == ["random", "beginner", "greedy"]
    table = {line.split()[0]: line.split()[1:] for line in lines[at + 2 : at + 5]}
    # two games: one deal of random against beginner, seats swapped; greedy met nobody
    assert table["random"][0] == table["beginner"][1] == table["greedy"][2] == "·"
    assert table["random"][2] == table["greedy"][0] == table["beginner"][2] == "never"
    assert table["random"][1].endswith("/2") and table["beginner"][0].endswith("/2")
    assert "warning: only 2 games: the intervals are wide" in result.output
    more = runner.invoke(app, [*args[:-4], "-n", "30", "-j", "1", "-o", str(out), "-q"])
    assert more.exit_code == 0, more.output
    assert "warning" not in more.output


def test_xpress_follows_the_system_locale_as_play_does(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from rummikub.tui import xpress_app

    seen: dict[str, object] = {}

    class Ran:
        def run(self) -> None:
            seen["ran"] = True

    def for_play(**kwargs: object) -> Ran:
        seen.update(kwargs)
        return Ran()

    monkeypatch.setattr(xpress_app.XpressApp, "for_play", for_play)
    monkeypatch.setenv("LANGUAGE", "sv_SE.UTF-8")
    result = runner.invoke(app, ["xpress", "play", "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert seen == {**seen, "ran": True, "lang": "sv", "name": "Du"}
    seen.clear()
    result = runner.invoke(app, ["xpress", "play", "--seed", "4", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert seen == {**seen, "ran": True, "lang": "en", "name": "You"}
    out = tmp_path / "x.jsonl"
    # greedy bots: a record in Swedish is what is looked at, not how well it was played
    simulate = ["simulate", "--game", "xpress", "--bots", "greedy", "-n", "1", "-o", str(out)]
    simulated = runner.invoke(app, simulate)
    assert simulated.exit_code == 0, simulated.output
    result = runner.invoke(app, ["xpress", "replay", "--text", str(out)])
    assert result.exit_code == 0 and result.output.startswith("Omgång 1: ")
