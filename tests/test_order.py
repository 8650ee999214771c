"""The order of the suite under ``pytest -n N --dist worksteal`` (tests/conftest.py): the long
tests at the heads of the slices the scheduler hands out, the others in their order."""

from __future__ import annotations

import json
from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import DURATIONS, LONG, spread_long_tests
from tests.durations import durations


@dataclass(frozen=True)
class Item:
    nodeid: str


def slices(items: list[Item], workers: int) -> list[list[Item]]:
    """The first slices worksteal hands the processes (xdist's ``check_schedule``: each idle
    process in turn gets the pending tests divided by the processes left)."""
    out, pending = [], list(items)
    for k in range(workers):
        n = len(pending) // (workers - k)
        out.append(pending[:n])
        pending = pending[n:]
    return out


@given(
    st.lists(st.floats(0, 200), min_size=1, max_size=60),
    st.integers(2, 6),
)
def test_the_long_tests_start_at_once_and_the_others_keep_their_order(
    times: list[float], workers: int
) -> None:
    items = [Item(f"t{k}") for k in range(len(times))]
    seconds = {item.nodeid: s for item, s in zip(items, times, strict=True)}
    out = spread_long_tests(items, seconds, workers)
    assert sorted(out, key=lambda i: i.nodeid) == sorted(items, key=lambda i: i.nodeid)
    long = [i for i in items if seconds[i.nodeid] >= LONG]
    short = [i for i in items if seconds[i.nodeid] < LONG]
    assert [i for i in out if seconds[i.nodeid] < LONG] == short  # the others in their order
    heads = []
    for part in slices(out, workers):  # each slice: its long tests first, longest first
        k = sum(1 for i in part if seconds[i.nodeid] >= LONG)
        assert all(seconds[i.nodeid] >= LONG for i in part[:k])
        assert [seconds[i.nodeid] for i in part[:k]] == sorted(
            (seconds[i.nodeid] for i in part[:k]), reverse=True
        )
        heads.append(part[:k])
    assert sum(map(len, heads)) == len(long)  # every long test at a head
    # the longest test of all starts first, in the first process
    assert not long or out[0] == max(long, key=lambda i: seconds[i.nodeid])


def test_four_long_tests_go_one_to_each_of_four_processes() -> None:
    items = [Item(f"t{k}") for k in range(40)]
    seconds = {"t3": 100.0, "t9": 90.0, "t30": 80.0, "t31": 70.0, "t32": 60.0}
    out = spread_long_tests(items, seconds, 4)
    assert [part[0].nodeid for part in slices(out, 4)] == ["t3", "t9", "t30", "t31"]
    assert slices(out, 4)[3][:2] == [Item("t31"), Item("t32")]  # 70 + 60 against 100, 90, 80


def test_the_durations_file_is_what_the_report_says() -> None:
    report = [
        "12.50s call     tests/a/test_x.py::test_one[b]",
        "1.50s setup    tests/a/test_x.py::test_one[b]",
        "4.00s call     tests/a/test_x.py::test_two",
        "(3 durations < 1s hidden.  Use -vv to show these durations.)",
    ]
    assert durations(report) == {"tests/a/test_x.py::test_one[b]": 14.0}
    stored = json.loads(DURATIONS.read_text(encoding="utf-8"))
    assert stored and all(isinstance(s, float) and s >= 5 for s in stored.values())
