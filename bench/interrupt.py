"""How fast Ctrl+C stops ``rummikub tournament``: the seconds from SIGINT (sent to the whole
process group, as a terminal does) to the end of the process, and the finished games it kept.

    python bench/interrupt.py                 # greedy,strategic with --jobs 1 and 2, 3 runs each
    python bench/interrupt.py --runs 5 --bots greedy,random

Every run starts a fresh tournament, waits until ``--after`` games are in its results file and
interrupts it; the report is the median and the worst stop time per ``--jobs``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def finished(out: Path) -> int:
    return max(0, len(out.read_text(encoding="utf-8").splitlines()) - 1) if out.exists() else 0


def one_run(bots: str, jobs: int, after: int, where: Path) -> tuple[float, int, int]:
    """(seconds to stop, games in the file, games the message counted) of one interruption."""
    out = where / f"r{jobs}.jsonl"
    for f in where.glob(f"r{jobs}*"):
        f.unlink()
    cmd = [sys.executable, "-m", "rummikub.cli.main", "tournament", "--bots", bots, "--games",
           "10000", "--jobs", str(jobs), "--quiet", "--out", str(out)]  # fmt: skip
    env = {**os.environ, "LANGUAGE": "en"}
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                            start_new_session=True, env=env)  # fmt: skip
    while finished(out) < after:
        if proc.poll() is not None:
            raise SystemExit(f"the tournament ended early: {proc.communicate()[1]}")
        time.sleep(0.02)
    start = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate()
    stop = time.monotonic() - start
    said = int(err.split("interrupted: ")[1].split(" ")[0]) if "interrupted: " in err else -1
    return stop, finished(out), said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="greedy,strategic")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--after", type=int, default=2, help="games finished before Ctrl+C")
    parser.add_argument("--jobs", default="1,2")
    args = parser.parse_args()
    print(f"cpus {os.cpu_count()}, load {os.getloadavg()[0]:.1f}, bots {args.bots}")
    with tempfile.TemporaryDirectory() as tmp:
        for jobs in (int(j) for j in args.jobs.split(",")):
            stops = []
            for _ in range(args.runs):
                stop, kept, said = one_run(args.bots, jobs, args.after, Path(tmp))
                stops.append(stop)
                print(f"  --jobs {jobs}: stopped in {stop:.2f} s, {kept} games kept "
                      f"(the message says {said})")  # fmt: skip
            print(json.dumps({"jobs": jobs, "median_s": round(statistics.median(stops), 2),
                              "max_s": round(max(stops), 2), "runs": args.runs}))  # fmt: skip


if __name__ == "__main__":
    main()
