"""The words of the command line: grammar and plurals from the message catalogue, errors in
the language of the interface, one wording for a bad tile."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from rummikub.cli.main import app

from ..core.games import score_table_record

runner = CliRunner()


def _with_you(rec: dict[str, Any], name: str = "You") -> dict[str, Any]:
    """The record with its first seat a person called ``name`` and the others bots (a game of
    the terminal: one person against bots)."""
    players = [{"name": name, "kind": "human"}]
    players += [{"name": p["name"], "kind": "bot", "bot": "greedy"} for p in rec["players"][1:]]
    return {**rec, "players": players}


def _replay(tmp_path: Path, rec: dict[str, Any], *args: str) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    result = runner.invoke(app, ["replay", "--text", *args, str(path)])
    assert result.exit_code == 0, result.output
    return result.output


def test_replay_text_speaks_to_you_in_the_second_person(tmp_path: Path) -> None:
    out = _replay(tmp_path, _with_you(score_table_record()), "--lang", "en")
    assert "Round 1: you start" in out
    assert "You are dealt R1 R2 R3 R4" in out
    assert "You draw R5" in out
    assert "You play R1 R2 R3 R4 R5" in out
    assert "B draws O1" in out  # the others in the third person
    for wrong in ("You is", "You plays", "You draws", "You starts", "You passes"):
        assert wrong not in out
    assert "Totals: You -14, B -29, C +4, D +39" in out


def test_replay_text_in_swedish_names_you_du(tmp_path: Path) -> None:
    out = _replay(tmp_path, _with_you(score_table_record()), "--lang", "sv")
    assert "Omgång 1: du börjar" in out
    assert "Du får R1 R2 R3 R4" in out and "Du tar R5" in out
    assert "Totalt: Du -14" in out and "You" not in out


def test_a_person_with_a_name_is_spoken_of_in_the_third_person(tmp_path: Path) -> None:
    out = _replay(tmp_path, _with_you(score_table_record(), "Ann"), "--lang", "en")
    assert "Ann is dealt R1 R2 R3 R4" in out and "Ann plays R1 R2 R3 R4 R5" in out
    assert "You" not in out


def test_xpress_replay_text_speaks_to_you(tmp_path: Path) -> None:
    out = tmp_path / "x.jsonl"
    args = ["simulate", "--game", "xpress", "--bots", "greedy", "-n", "1", "--seed", "5"]
    args += ["-o", str(out), "-q"]
    assert runner.invoke(app, args).exit_code == 0
    rec = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    text = _replay(tmp_path, _with_you(rec), "--lang", "en")
    assert "You roll " in text and "You throw " in text
    for wrong in ("You rolls", "You throws", "You places", "You is"):
        assert wrong not in text
    assert " throws 1 dice" not in text


BAD_TILE_EN = "{tile} is not a tile of these rules (colours K, R, B, O, numbers 1 to 13)."
BAD_TILE_SV = "{tile} är ingen bricka i de här reglerna (färger K, R, B, O, tal 1 till 13)."


def test_one_wording_for_a_bad_tile_in_solve_and_assist() -> None:
    """A colour the rules lack (P5: the notation knows 8 colours, the game 4), a number past
    13, a letter of no colour: the same sentence, naming only the colours of these rules."""
    for command in ("solve", "assist"):
        for tile in ("P5", "R14", "Q5"):
            args = [command, "--table", "R1 R2 R3", "--rack", f"K1 {tile}", "--lang", "en"]
            if command == "assist":
                args.append("--text")
            result = runner.invoke(app, args)
            assert result.exit_code == 1
            assert result.output.strip() == "error: --rack: " + BAD_TILE_EN.format(tile=tile)
    result = runner.invoke(app, ["solve", "--table", "R1 R14 R2", "--rack", "K1"])
    assert result.output.strip() == "error: --table: " + BAD_TILE_EN.format(tile="R14")


def test_a_bad_tile_lists_the_colours_of_the_rules_in_force() -> None:
    six = '{"colours": 6}'
    result = runner.invoke(app, ["solve", "--rack", "R1 Y5", "--rules", six, "--lang", "en"])
    assert result.output.strip() == (
        "error: --rack: Y5 is not a tile of these rules "
        "(colours K, R, B, O, G, P, numbers 1 to 13)."
    )


def test_solve_errors_speak_the_language_of_the_interface() -> None:
    def error(*args: str) -> str:
        result = runner.invoke(app, ["solve", *args, "--lang", "sv"])
        assert result.exit_code == 1
        return result.output.strip()

    assert error("--rack", "R1 R14") == "error: --rack: " + BAD_TILE_SV.format(tile="R14")
    assert error() == (
        "error: ange ditt ställ med --rack (och bordet med --table), eller använd --json"
    )
    assert error("--rack", "R1", "--rules", "nope").startswith(
        "error: okänd förinställning 'nope' (förinställningar: standard, "
    )
    assert error("--rack", "R1", "--objective", "most") == (
        "error: okänt mål 'most' (välj bland tiles, value, min-change)"
    )
    assert error("--rack", "R1", "--time-limit", "0") == (
        "error: --time-limit måste vara större än noll"
    )
    refused = error("--table", "R1 R2 R3", "--rack", "R1 R1 R1")
    assert refused.startswith("error: ") and "R1" in refused
    assert not any(word in refused for word in (" is ", " the ", " appears "))


#: "1 games" (not "0.1 games a second", a rate that depends on the machine's speed)
ONE_MANY = re.compile(r"(?<![\d.])1 (games|rounds|players|decisions|plays|violations)\b")
EXAMPLE_BOT = Path(__file__).resolve().parents[2] / "examples" / "bots" / "simple_bot.py"


def test_simulate_counts_one_game_and_one_round(tmp_path: Path) -> None:
    out = tmp_path / "one.jsonl"
    result = runner.invoke(app, ["simulate", "-p", "2", "-n", "1", "--seed", "2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    rounds = len(json.loads(out.read_text(encoding="utf-8"))["rounds"])
    assert rounds == 1  # the standard preset plays one round
    assert "tiles: 1 game (1 round) in " in result.output
    assert not ONE_MANY.search(result.output)


def test_a_game_of_one_player_is_refused_in_words() -> None:
    for args in (
        ["simulate", "-p", "1", "-n", "1"],
        ["tournament", "--bots", "random,beginner", "-p", "1", "-n", "2"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 1
        assert result.output.strip() == "error: These rules are for 2–4 players, not 1."


def test_the_outside_bot_report_counts_properly() -> None:
    cmd = f"{sys.executable} {EXAMPLE_BOT}"
    args = ["bot", "--cmd", cmd, "--against", "random", "--games", "1", "--seed", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "simple_bot against random: 1 game (" in result.output
    assert not ONE_MANY.search(result.output)
