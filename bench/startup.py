"""How long the ``rummikub`` command takes to start: the median wall time of N runs of each
command as a subprocess, after one run that is not counted (it writes the bytecode caches and,
after an install, compiles the solver's kernels).

    python bench/startup.py               # 7 runs of each command
    python bench/startup.py --runs 15 --command "rummikub replay --help"

The runs use the ``rummikub`` next to this Python (the virtual environment's) with bytecode
caching on (an installed package has its ``.pyc`` files; ``PYTHONDONTWRITEBYTECODE`` is
dropped from the environment of the runs, or every import would compile its source again).
On a busy machine the wall times grow with the load; the CPU time (user + system, median) is
the steadier figure. Targets (issue 31): ``rummikub --help`` under 0.3 s, a warm ``solve``
of a trivial position under 1 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = (
    "rummikub --help",
    "rummikub --version",
    "rummikub solve --help",
    'rummikub solve --rack "R1 R2 R3"',
    'rummikub solve --table "R1 R2 R3 | K5 B5 O5" --rack "R4 J K1"',
    'rummikub solve --table "R1 R2 R3 | K5 B5 O5 | B9 B10 B11 B12 | K7 K8 J" '
    '--rack "R4 K1 O9 R9 B13 K6 O10 O11 B8 O8 K9 R10"',
)


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system) of one run of ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{shlex.join(argv)} failed: {done.stderr.strip()}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return took, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--command", action="append", help="a command to time (repeatable)")
    args = parser.parse_args()
    exe = Path(sys.executable).with_name("rummikub")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("LANGUAGE", "en")
    load = os.getloadavg()[0]
    print(f"{args.runs} runs each; {os.cpu_count()} cpus, load {load:.1f}; {exe}")
    for command in args.command or COMMANDS:
        argv = [str(exe), *shlex.split(command)[1:]]
        timed(argv, env)  # caches written, kernels compiled
        runs = [timed(argv, env) for _ in range(args.runs)]
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        best = min(w for w, _ in runs)
        print(f"{wall:6.3f} s median {best:6.3f} s best {cpu:6.3f} s CPU   {command}")


if __name__ == "__main__":
    main()
