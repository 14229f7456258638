"""Processes taking turns (``bench/turns.py``): one measures at a time, round the
processes, and one that fails does not stop the others."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import turns  # noqa: E402

MEASURER = f"""
import sys, time
sys.path.insert(0, {str(BENCH)!r})
import turns

log, name, fail_after = sys.argv[1], sys.argv[2], int(sys.argv[3])
turn = turns.Turn(sys.argv[sys.argv.index("--turns") + 1])
for sample in range(3):
    turn.take()
    if sample == fail_after:
        sys.exit(3)
    start = time.monotonic()
    time.sleep(0.05)
    with open(log, "a") as out:
        out.write(f"{{name}} {{sample}} {{start}} {{time.monotonic()}}\\n")
print(name)
"""


def measure(tmp_path: Path, fail_after: dict[str, int]) -> tuple[list[int], list[list[str]]]:
    script = tmp_path / "measurer.py"
    script.write_text(MEASURER)
    log = tmp_path / "log"
    outputs = [(tmp_path / f"{name}.out").open("w+b") for name in fail_after]
    commands = [
        ([sys.executable, str(script), str(log), name, str(after)], out)
        for (name, after), out in zip(fail_after.items(), outputs, strict=True)
    ]
    statuses = turns.alternate(commands)
    for out in outputs:
        out.close()
    lines = [line.split() for line in log.read_text().splitlines()]
    return statuses, sorted(lines, key=lambda line: float(line[2]))


def test_processes_measure_one_at_a_time_in_turn(tmp_path: Path):
    statuses, samples = measure(tmp_path, {"small": -1, "large": -1})
    assert statuses == [0, 0]
    assert [(name, int(sample)) for name, sample, *_ in samples] == [
        (name, sample) for sample in range(3) for name in ("small", "large")
    ]
    for before, after in itertools.pairwise(samples):
        assert float(before[3]) <= float(after[2])  # no overlap
    assert (tmp_path / "large.out").read_text() == "large\n"


def test_a_failing_process_leaves_the_others_their_turns(tmp_path: Path):
    statuses, samples = measure(tmp_path, {"small": 1, "large": -1})
    assert statuses == [3, 0]
    assert [(name, int(sample)) for name, sample, *_ in samples] == [
        ("small", 0),
        ("large", 0),
        ("large", 1),
        ("large", 2),
    ]
