"""Tournament scheduling, statistics, results file and resuming."""

from __future__ import annotations

import json
import math
import os
import signal
import threading
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummikub.bots.specs import make_bot, parse_specs
from rummikub.bots.tournament import (
    GameOutcome,
    TournamentConfig,
    elo_ratings,
    run_tournament,
    runner,
    schedule,
    standings,
    wilson,
)
from rummikub.core import RecordError, RulesError, load_record, preset, verify


def test_paired_deals_rotate_the_seats() -> None:
    games = list(schedule(["a", "b"], 2, 6, seed=10))
    assert [g.seed for g in games] == [10, 10, 11, 11, 12, 12]
    assert [g.seats for g in games[:2]] == [("a", "b"), ("b", "a")]
    assert [g.game for g in games] == list(range(6))


@given(st.integers(2, 4), st.integers(1, 5), st.integers(1, 40))
def test_every_bot_sits_in_every_seat_equally_over_whole_deals(
    players: int, nbots: int, games: int
) -> None:
    bots = [f"b{i}" for i in range(nbots)]
    sched = list(schedule(bots, players, games, seed=0))
    assert len(sched) == games
    by_deal: dict[int, list[tuple[str, ...]]] = {}
    for g in sched:
        by_deal.setdefault(g.deal, []).append(g.seats)
    for deal, seatings in by_deal.items():
        if len(seatings) < players:
            continue  # the last, unfinished deal
        assert len({sched_seed for sched_seed in [g.seed for g in sched if g.deal == deal]}) == 1
        for seat in range(players):
            assert Counter(s[seat] for s in seatings) == Counter(seatings[0])


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(65, 100)
    assert lo == pytest.approx(0.5525, abs=1e-3)
    assert hi == pytest.approx(0.7364, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1.0) and 0.69 < lo < 0.73


@given(st.integers(0, 200), st.integers(1, 200))
def test_wilson_contains_the_rate(wins: int, extra: int) -> None:
    n = wins + extra
    lo, hi = wilson(wins, n)
    assert 0.0 <= lo <= wins / n <= hi <= 1.0


def test_elo_matches_the_logistic_curve_for_two_bots() -> None:
    # 75% for a against b: an Elo difference of 400*log10(3) ~ 191 (prior shrinks it a little)
    points = {("a", "b"): 750.0, ("b", "a"): 250.0}
    meetings = {("a", "b"): 1000, ("b", "a"): 1000}
    r = elo_ratings(["a", "b"], points, meetings)
    diff = r["a"][0] - r["b"][0]
    assert diff == pytest.approx(400 * math.log10(3), abs=2)
    assert r["a"][0] == pytest.approx(-r["b"][0])
    assert 0 < r["a"][1] < 60


def test_elo_of_a_perfect_record_is_finite() -> None:
    r = elo_ratings(["a", "b"], {("a", "b"): 10.0, ("b", "a"): 0.0},
                    {("a", "b"): 10, ("b", "a"): 10})  # fmt: skip
    assert math.isfinite(r["a"][0]) and r["a"][0] > 200


def test_standings_count_wins_scores_and_shared_wins() -> None:
    outcomes = [
        GameOutcome(("a", "b"), (0,), (30, -30), 1),
        GameOutcome(("b", "a"), (1,), (-10, 10), 1),
        GameOutcome(("a", "b"), (0, 1), (0, 0), 1),
    ]
    st_ = standings(outcomes)
    a, b = st_.bots
    assert (a.bot, a.games, a.wins, a.score) == ("a", 3, 2.5, 40)
    assert (b.bot, b.wins) == ("b", 0.5)
    assert a.mean_score == pytest.approx(40 / 3)
    assert a.elo > b.elo


def test_specs() -> None:
    assert parse_specs("greedy, random") == ["greedy", "random"]
    assert parse_specs("greedy,cmd:python x.py --a,b") == ["greedy", "cmd:python x.py --a,b"]
    with pytest.raises(RulesError, match="unknown bot 'nobody'"):
        parse_specs("greedy,nobody")
    with pytest.raises(RulesError, match="needs a command"):
        parse_specs("cmd:")
    assert make_bot("beginner", 1).name == "beginner"


def _config() -> TournamentConfig:
    return TournamentConfig(("beginner", "random"), 2, 7, preset("standard").to_dict(), None)


def test_run_writes_results_and_verifiable_records(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    seen: list[tuple[int, int]] = []
    st_ = run_tournament(_config(), 6, out, workers=1, progress=lambda d, t: seen.append((d, t)))
    assert st_.games == 6
    assert sum(b.games for b in st_.bots) == 12
    assert seen[0] == (0, 6) and seen[-1] == (6, 6)
    lines = out.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "tournament"
    games = [json.loads(x) for x in lines[1:]]
    assert sorted(g["game"] for g in games) == list(range(6))
    records = (tmp_path / "r.records.jsonl").read_text().splitlines()
    assert len(records) == 6
    for line in records:
        verify(load_record(json.loads(line)))
    # paired deals: games 0 and 1 are the same deal with the seats swapped
    assert games[0]["seed"] == games[1]["seed"]
    assert games[0]["seats"] == list(reversed(games[1]["seats"]))


def test_resume_after_interruption_finishes_the_same_tournament(tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    run_tournament(_config(), 8, full, workers=1)
    part = tmp_path / "part.jsonl"
    run_tournament(_config(), 5, part, workers=1)
    # simulate a kill in the middle of writing: a cut results line and an extra record
    with part.open("a") as fh:
        fh.write('{"type": "game", "game": 5, "de')
    with (tmp_path / "part.records.jsonl").open("a") as fh:
        fh.write('{"format": "rummikub-game/1"}\n')
    st_ = run_tournament(_config(), 8, part, workers=1)
    assert st_.games == 8

    def games(path: Path) -> list[dict[str, object]]:
        rows = [json.loads(x) for x in path.read_text().splitlines()[1:]]
        for r in rows:
            r.pop("seconds")
        return sorted(rows, key=lambda r: int(str(r["game"])))

    assert games(part) == games(full)
    assert len((tmp_path / "part.records.jsonl").read_text().splitlines()) == 8


def test_resume_refuses_a_different_tournament(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    run_tournament(_config(), 2, out, workers=1)
    other = TournamentConfig(("beginner", "random"), 2, 8, preset("standard").to_dict(), None)
    with pytest.raises(RecordError) as refused:
        run_tournament(other, 2, out, workers=1)
    # said in words, not as Python tuples
    message = str(refused.value)
    assert message.startswith(f"{out} holds another tournament (")
    assert "(beginner, random; 2 players; seed 7): it differs from this run's" in message
    assert "(beginner, random; 2 players; seed 8) in its seed;" in message
    assert "(" + "'" not in message and "--fresh" in message
    st_ = run_tournament(other, 2, out, workers=1, fresh=True)
    assert st_.games == 2


def test_parallel_workers_give_the_same_games(tmp_path: Path) -> None:
    one = tmp_path / "one.jsonl"
    two = tmp_path / "two.jsonl"
    a = run_tournament(_config(), 4, one, workers=1)
    b = run_tournament(_config(), 4, two, workers=2)
    assert [(x.bot, x.wins, x.score) for x in a.bots] == [(x.bot, x.wins, x.score) for x in b.bots]


def test_a_game_stops_after_the_decision_under_way_once_told_to() -> None:
    """The serial tournament's Ctrl+C does not rely on the KeyboardInterrupt alone (it can be
    lost in a callback from the solver's compiled code): a game checks the stop event after
    every decision, and a game stopped so is not returned."""
    stop = threading.Event()
    decided = []

    class Counting:
        name = "counting"

        def __init__(self) -> None:
            self.bot = make_bot("random", 1)

        def act(self, obs: object, limit: float | None) -> object:
            decided.append(1)
            if len(decided) == 5:
                stop.set()
            return self.bot.act(obs, limit)

    pairing = next(iter(schedule(["random", "greedy"], 2, 1, seed=3)))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(runner, "make_bot", lambda spec, seed, **kw: Counting())
        with pytest.raises(KeyboardInterrupt):
            runner.play_pairing(pairing, preset("standard"), None, "tiles", stop)
    assert len(decided) == 5


def test_ctrl_c_sets_the_stop_event_and_still_raises_at_once() -> None:
    before = signal.getsignal(signal.SIGINT)
    with runner._sigint_flag() as stop:
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(10**8):  # the handler runs at the next bytecode boundary
                pass
        assert stop.is_set()
    assert signal.getsignal(signal.SIGINT) is before
