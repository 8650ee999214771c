"""The ``rummikub solve`` command."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from rummikub.cli.main import app

runner = CliRunner()
POSITION = {
    "table": [["R1", "R2", "R3"], ["K5", "B5", "O5"]],
    "rack": ["R4", "J", "K1"],
    "opened": True,
    "rules": "standard",
}


def test_human_output() -> None:
    result = runner.invoke(app, ["solve", "--table", "R1 R2 R3 | K5 B5 O5", "--rack", "R4 J K1"])
    assert result.exit_code == 0, result.output
    assert "Play 3 tiles: K1 R4 J  (value 6, 1 table meld changed)" in result.output
    assert "K5 B5 O5" in result.output
    # every joker shows what it stands for
    assert "  K1 R1 J=1\n" in result.output
    result = runner.invoke(app, ["solve", "--table", "R5 R6 R7", "--rack", "J"])
    assert result.exit_code == 0 and "R5 R6 R7 J=R8" in result.output


def test_human_output_nothing_and_not_opened() -> None:
    result = runner.invoke(app, ["solve", "--rack", "R1 R2 R3", "--not-opened"])
    assert result.exit_code == 0
    assert "No opening worth 30" in result.output
    result = runner.invoke(app, ["solve", "--table", "R1 R2 R3", "--rack", "K9"])
    assert "No tile can be placed" in result.output


def test_human_errors() -> None:
    result = runner.invoke(app, ["solve", "--table", "R1 R2", "--rack", "K9", "--lang", "en"])
    assert result.exit_code == 1
    # a refusal of the engine, in the words of the message catalogue
    assert result.output.strip() == (
        "error: R1 R2 is not a valid set: a set needs at least 3 tiles (this has 2)."
    )
    assert runner.invoke(app, ["solve", "--rack", "K9", "--objective", "x"]).exit_code == 1
    assert runner.invoke(app, ["solve"]).exit_code == 1


def test_json_mode() -> None:
    result = runner.invoke(app, ["solve", "--json"], input=json.dumps(POSITION))
    assert result.exit_code == 0
    out = json.loads(result.output)
    assert out["tiles"] == 3 and out["optimal"] is True
    assert sorted(out["play"]) == ["J", "K1", "R4"]


def test_json_mode_error_exits_non_zero() -> None:
    bad = {**POSITION, "table": [["R1", "R2"]]}
    result = runner.invoke(app, ["solve", "--json"], input=json.dumps(bad))
    assert result.exit_code == 1
    out = json.loads(result.output)
    assert "R1 R2" in out["error"] and out["code"] == "invalid-meld"
    assert out["params"] == {"meld": "R1 R2", "why": "meld-too-short", "count": 2, "number": 1}


def test_the_answer_in_swedish_with_real_plurals() -> None:
    args = ["solve", "--lang", "sv", "--table", "R1 R2 R3 | K5 B5 O5"]
    result = runner.invoke(app, [*args, "--rack", "R4 J K1"])
    assert result.exit_code == 0, result.output
    assert "Lägg 3 brickor: K1 R4 J  (värde 6, 1 kombination på bordet ändrad)" in result.output
    assert "Nytt bord:" in result.output
    result = runner.invoke(app, [*args, "--rack", "R4"])
    assert "Lägg 1 bricka: R4  (värde 4, 1 kombination på bordet ändrad)" in result.output
    result = runner.invoke(app, [*args, "--rack", "R7 B7 O7"])
    assert "Lägg 3 brickor: R7 B7 O7  (värde 21)\n" in result.output, result.output
    result = runner.invoke(app, ["solve", "--lang", "sv", "--table", "R1 R2", "--rack", "K9"])
    assert result.exit_code == 1
    assert result.output.strip() == (
        "error: R1 R2 är ingen giltig kombination: "
        "en kombination behöver minst 3 brickor (den här har 2)."
    )
    assert runner.invoke(app, [*args, "--rack", "R4", "--lang", "xx"]).exit_code == 1


def test_jsonl_streams_results_and_errors_in_order() -> None:
    lines = [
        json.dumps(POSITION),
        "not json",
        json.dumps({**POSITION, "opened": False}),
        json.dumps({**POSITION, "rack": ["R1", "R1", "R1"]}),
    ]
    result = runner.invoke(
        app, ["solve", "--jsonl", "--objective", "value"], input="\n".join(lines) + "\n"
    )
    assert result.exit_code == 1  # two lines failed
    outs = [json.loads(x) for x in result.stdout.splitlines()]
    assert len(outs) == 4
    assert outs[0]["value"] == 9  # R4 and a joker standing for R5
    assert "error" in outs[1] and "error" in outs[3]
    assert outs[1]["line"] == 2 and outs[3]["line"] == 4
    assert outs[2]["tiles"] == 0 and outs[2]["table"] == POSITION["table"]
    assert result.stderr == "error: 2 of 4 positions failed (input lines 2, 4)\n"


def test_jsonl_says_how_many_failed_and_which_lines_were_blank() -> None:
    lines = [json.dumps(POSITION), "", '{"table": [], "rack": [R1]}', "  ", json.dumps(POSITION)]
    result = runner.invoke(app, ["solve", "--jsonl"], input="\n".join(lines) + "\n")
    assert result.exit_code == 1
    outs = [json.loads(x) for x in result.stdout.splitlines()]
    assert len(outs) == 3 and outs[1] == {
        "error": "not valid JSON: Expecting value at line 3, column 24",
        "line": 3,
    }
    assert result.stderr == (
        "error: 1 of 3 positions failed (input line 3); "
        "2 blank lines skipped (no result for them)\n"
    )
    clean = runner.invoke(app, ["solve", "--jsonl"], input=json.dumps(POSITION) + "\n\n")
    assert clean.exit_code == 0 and len(clean.stdout.splitlines()) == 1
    assert clean.stderr == "note: 1 blank line skipped (no result for it)\n"


def test_json_names_the_line_and_column_of_a_json_error() -> None:
    text = '{\n  "table": [],\n  "rack": [R1]\n}\n'  # R1 at line 3, column 12
    result = runner.invoke(app, ["solve", "--json"], input=text)
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {
        "error": "not valid JSON: Expecting value at line 3, column 12"
    }
    result = runner.invoke(app, ["solve", "--json"], input='{"rack": ["R1"], "table": tru}')
    assert json.loads(result.stdout)["error"].endswith("at line 1, column 27")


def test_a_colour_letter_the_game_does_not_have() -> None:
    for token in ("X4", "G4"):
        result = runner.invoke(app, ["solve", "--table", "R1 R2 R3", "--rack", f"{token} K1"])
        assert result.exit_code == 1
        assert result.output.strip() == (
            f"error: --rack: {token} is not a tile of these rules "
            "(colours K, R, B, O, numbers 1 to 13)."
        )


def test_help_shows_no_type_after_a_plain_flag() -> None:
    result = runner.invoke(app, ["solve", "--help"])
    assert result.exit_code == 0
    assert "<bool>" not in result.output
    assert "<str>" in result.output or "TEXT" in result.output
