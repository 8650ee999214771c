"""Rewrite ``tests/durations.json`` from the ``--durations`` report of a whole run of the suite
(``make durations``): each test's setup, call and teardown seconds added up, the tests that took
at least a few seconds kept (the order of ``tests/conftest.py`` needs only the long ones).

    pytest -n 4 --dist worksteal -q --durations=0 --durations-min=1 | python tests/durations.py
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

#: a line of pytest's report: ``12.34s call     tests/x/test_y.py::test_z[a]``
LINE = re.compile(r"^(\d+(?:\.\d+)?)s (setup|call|teardown)\s+(\S.*)$")
#: tests shorter than this (seconds, all phases) are left out of the file
KEEP = 5.0


def durations(report: Iterable[str]) -> dict[str, float]:
    """Each test's seconds (setup + call + teardown) of a report, the long ones, longest first."""
    total: dict[str, float] = defaultdict(float)
    for line in report:
        found = LINE.match(line.rstrip("\n"))
        if found:
            total[found.group(3)] += float(found.group(1))
    kept = sorted(((round(s, 1), test) for test, s in total.items() if s >= KEEP), reverse=True)
    return {test: s for s, test in kept}


def main() -> None:
    report = sys.stdin.read()
    sys.stdout.write(report)  # the run's own output, as it was
    found = durations(report.splitlines())
    if not found:
        sys.exit("no durations in the report: run pytest with --durations=0")
    out = Path(__file__).with_name("durations.json")
    out.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    print(f"{len(found)} tests of {KEEP:g} s or more -> {out}")


if __name__ == "__main__":
    main()
