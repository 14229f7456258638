"""Where two threads lose, parallel region by parallel region (issue 33).

    python bench/regions.py [--model bert] [--calls 20] [--top 25] [--foreground]

Compiles a model of ``threads.py`` for OpenMP and calls it ``--calls`` times under ``perf
record``, once with libomp limited to one thread (``OMP_THREAD_LIMIT=1``: every region runs
on the calling thread, same library, same kernels) and once on two threads, each in a child
process. Uprobes on libomp's ``__kmpc_fork_call`` and on its return time every parallel
region; a region is named by its kernel and call site. It prints, per call, the wall time,
the time inside regions and the time outside them (host code, kernels' serial loops and the
Python call), then the regions sorted by what two threads lose on them: their two-thread
time minus half their one-thread time. The probes add a few microseconds to each region.
Needs Linux ``perf`` and root (the uprobes are added if missing, and those added are removed
at the end); ``--foreground`` as in ``threads.py``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from threads import MODELS, own_session, priority

from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.backends.backend import RunOptions
from relax_xdsl.lowering.threads import openmp_library
from relax_xdsl.lowering.toolchain import find_toolchain

FORK = "__kmpc_fork_call"
EVENTS = (f"probe_libomp:{FORK}", f"probe_libomp:{FORK}__return")
Region = tuple[str, str]
"""A region's kernel and call site (the return address of its fork)."""


def add_probes() -> list[str]:
    """Add the uprobes on the entry and return of libomp's fork that are missing; the events
    added (those already there are someone else's, and stay)."""
    listed = subprocess.run(["perf", "probe", "-l"], capture_output=True, text=True).stdout
    library = str(openmp_library(find_toolchain().runtime).resolve())
    added = []
    for suffix, event in (("", EVENTS[0]), ("%return", EVENTS[1])):
        if event not in listed:
            command = ["perf", "probe", "-q", "-x", library, "--add", f"{FORK}{suffix}"]
            subprocess.run(command, check=True)
            added.append(event)
    return added


def remove_probes(events: list[str]) -> None:
    """Remove the uprobes ``events``."""
    for event in events:
        subprocess.run(["perf", "probe", "-q", "-d", event], check=False)


def calls(args: argparse.Namespace) -> None:
    """The child: one untimed call, then ``--calls`` calls of the two-thread build."""
    case = MODELS[args.model]()
    compiled = compile_function(case.module, "main", "mlir", RunOptions(tile=True, threads=2))
    compiled(*case.args)
    if args.foreground:
        priority(-20)
    time.sleep(0.5)  # a gap that separates the timed calls from the first
    for _ in range(args.calls):
        compiled(*case.args)
    if args.foreground:
        priority(0)


def record(args: argparse.Namespace, threads: int, data: Path) -> None:
    environment = dict(os.environ, OMP_THREAD_LIMIT=str(threads), KMP_WARNINGS="false")
    child = [sys.executable, __file__, "--child", f"--model={args.model}"]
    child += [f"--calls={args.calls}"] + (["--foreground"] if args.foreground else [])
    events = [option for event in EVENTS for option in ("-e", event)]
    command = ["perf", "record", "-q", "-g", "-o", str(data), *events, *child]
    subprocess.run(command, check=True, env=environment, stdout=subprocess.DEVNULL)


def timed_regions(data: Path, count: int) -> list[tuple[float, float, Region]]:
    """(start, end, region) of the regions of the last ``count`` calls: those after the last
    pause of half a second or more."""
    script = ["perf", "script", "-i", str(data), "-F", "time,event,ip,sym"]
    text = subprocess.run(script, capture_output=True, text=True, check=True).stdout
    regions, opened = [], None
    for sample in text.strip().split("\n\n"):
        header, *frames = sample.strip().splitlines()
        moment = float(header.split(":")[0])
        caller = frames[0 if "return" in header else 1].split()
        region = (caller[1] if len(caller) > 1 else "?", caller[0])
        if "return" not in header:
            opened = moment
        elif opened is not None:
            regions.append((opened, moment, region))
            opened = None
    pauses = [i for i in range(1, len(regions)) if regions[i][0] - regions[i - 1][1] >= 0.5]
    return regions[pauses[-1] :] if pauses else regions


def summary(regions: list[tuple[float, float, Region]], count: int) -> tuple[dict, float, float]:
    """Per region its time per call; the wall time per call (from the first region's start
    to the last one's end) and the time inside regions."""
    times: dict[Region, list[float]] = defaultdict(list)
    for start, end, region in regions:
        times[region].append(end - start)
    per_call = {r: statistics.median(t) * len(t) / count for r, t in times.items()}
    wall = (regions[-1][1] - regions[0][0]) / count
    return per_call, wall, sum(end - start for start, end, _ in regions) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="bert", choices=sorted(MODELS))
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--foreground", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        calls(args)
        return
    if args.foreground:
        own_session()
    added = add_probes()
    measured = {}
    try:
        with tempfile.TemporaryDirectory() as work:
            for threads in (1, 2):
                data = Path(work) / f"{threads}.data"
                record(args, threads, data)
                measured[threads] = summary(timed_regions(data, args.calls), args.calls)
    finally:
        remove_probes(added)
    print(f"{args.model}, {args.calls} calls, ms per call, load {os.getloadavg()[0]:.1f}")
    for threads, (per_call, wall, inside) in measured.items():
        print(
            f"  {threads} thread(s): wall {wall * 1e3:.2f}, inside regions {inside * 1e3:.2f} "
            f"({len(per_call)} call sites), outside {(wall - inside) * 1e3:.2f}"
        )
    one, two = measured[1][0], measured[2][0]
    losses = sorted(((two.get(r, 0.0) - t / 2, r) for r, t in one.items()), reverse=True)
    print("| kernel | call site | 1T ms | 2T ms | 2T / 1T | lost ms |")
    print("|---|---|---|---|---|---|")
    for lost, region in losses[: args.top]:
        ratio = two.get(region, 0.0) / one[region]
        cells = [f"{one[region] * 1e3:.3f}", f"{two.get(region, 0.0) * 1e3:.3f}"]
        print(
            f"| {region[0]} | {region[1]} | " + " | ".join(cells) + f" | {ratio:.2f} | "
            f"{lost * 1e3:.3f} |"
        )
    print(f"lost in regions: {sum(lost for lost, _ in losses) * 1e3:.2f} ms per call")


if __name__ == "__main__":
    main()
