"""``rummikub engine LEVEL``: a built-in bot served over ``rummikub-bot/1`` as a process — a
conversation with the engine as a subprocess, its errors, and a seeded tournament in which the
engine plays exactly the moves of the bot in the host's own process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from rummikub.bots.greedy import GreedyBot
from rummikub.bots.play import play_match
from rummikub.bots.protocol import PROTOCOL, parse_answer
from rummikub.cli.main import app
from rummikub.core import Match, preset
from rummikub.core.record import match_record

ENGINE = [sys.executable, "-m", "rummikub", "engine"]


def converse(level: str, lines: list[str], *args: str) -> tuple[list[dict[str, object]], int, str]:
    """Every line sent at once; the engine's answers, its exit status and standard error."""
    done = subprocess.run(
        [*ENGINE, level, *args], input="".join(line + "\n" for line in lines),
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    return (
        [json.loads(x) for x in done.stdout.splitlines() if x.strip()],
        done.returncode,
        done.stderr,
    )


def message(kind: str, **fields: object) -> str:
    return json.dumps({"type": kind, **fields})


def test_a_conversation_hello_a_move_a_bad_message_and_quit() -> None:
    rules = preset("standard")
    match = Match(rules, ["a", "b"], seed=5)
    obs = match.observation(match.state.current, 30.0)
    bad_obs = {k: v for k, v in obs.to_json().items() if k != "rack"}
    answers, status, err = converse("greedy", [
        message("hello", protocol=PROTOCOL),
        message("new_game", rules=rules.to_dict(), player=obs.player, players=2),
        message("turn", observation=obs.to_json(), time_limit=30.0),
        "this is not json",
        message("turn", observation=bad_obs, time_limit=30.0),
        message("a_later_message", words="ignored"),
        message("quit"),
        message("turn", observation=obs.to_json(), time_limit=30.0),  # after quit: unread
    ])  # fmt: skip
    assert status == 0
    assert answers[0] == {"type": "ready", "name": "greedy", "protocol": PROTOCOL}
    # the move is the in-process bot's move for the same observation
    assert parse_answer(json.dumps(answers[1])) == GreedyBot().act(obs, 30.0)
    assert answers[2]["type"] == "error" and "not JSON" in str(answers[2]["message"])
    assert answers[3]["type"] == "error" and "'rack'" in str(answers[3]["message"])
    assert len(answers) == 4  # nothing for the unknown message, nothing after quit
    assert "bad message" in err


def test_another_protocol_is_refused_with_status_2() -> None:
    answers, status, _ = converse("random", [message("hello", protocol="rummikub-bot/9")])
    assert status == 2
    assert answers == [
        {"type": "error", "reason": "protocol",
         "message": f"this engine speaks {PROTOCOL}, not 'rummikub-bot/9'"}
    ]  # fmt: skip


def test_options_are_checked_before_serving() -> None:
    runner = CliRunner()
    bad = runner.invoke(app, ["engine", "greedy", "--limit", "0.5"])
    assert bad.exit_code == 1 and "options of expert, not of greedy" in bad.output
    bad = runner.invoke(app, ["engine", "wizard"])
    assert bad.exit_code == 1 and "unknown bot 'wizard'" in bad.output
    bad = runner.invoke(app, ["engine", "expert", "--samples", "0"])
    assert bad.exit_code == 1 and "--samples must be at least 1" in bad.output
    bad = runner.invoke(app, ["engine", "expert", "--limit", "-1"])
    assert bad.exit_code == 1 and "--limit must be a positive number" in bad.output


def test_the_expert_engine_takes_its_search_options() -> None:
    rules = preset("standard")
    match = Match(rules, ["a", "b"], seed=2)
    obs = match.observation(match.state.current, 5.0)
    answers, status, _ = converse(
        "expert",
        [message("hello", protocol=PROTOCOL), message("turn", observation=obs.to_json(),
                                                      time_limit=5.0)],
        "--limit", "0.2", "--samples", "4", "--name", "old-expert",
    )  # fmt: skip
    assert status == 0
    assert answers[0]["name"] == "old-expert"
    assert "action" in answers[1]


def test_a_tournament_against_the_engine_plays_greedy_against_greedy(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    cmd = f"cmd:{sys.executable} -m rummikub engine greedy"
    result = CliRunner().invoke(app, [
        "tournament", "--bots", f"greedy,{cmd}", "--games", "2", "--seed", "11",
        "--jobs", "1", "--out", str(out), "--quiet",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    games = [json.loads(x) for x in out.read_text().splitlines()[1:]]
    assert [g["problems"] for g in games] == [[0, 0], [0, 0]]
    records = [json.loads(x) for x in (tmp_path / "t.records.jsonl").read_text().splitlines()]
    for g, rec in zip(games, records, strict=True):
        alone = play_match(preset("standard"), [GreedyBot(), GreedyBot()], g["seed"])
        assert list(alone.totals) == g["totals"]
        assert list(alone.winners) == g["winners"]
        # the same moves, turn by turn (the thinking times aside)
        assert moves(rec) == moves(match_record(alone))


def moves(record: dict[str, Any]) -> list[list[dict[str, Any]]]:
    return [[{k: v for k, v in t.items() if k != "ms"} for t in r["turns"]]
            for r in record["rounds"]]  # fmt: skip
