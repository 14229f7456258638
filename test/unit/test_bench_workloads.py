"""The benchmark suite's workloads and machinery (``bench/workloads.py``, ``bench/suite.py``):
the programs are well formed in both forms with the requested number of bindings, and a
tiny run of the suite measures every stage. No timing is asserted."""

from __future__ import annotations

import gc
import itertools
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp

from relax_dialect.dialect import Relax
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.ops.dataflow import DataflowOp, OutputOp
from relax_dialect.ops.functions import FunctionOp
from relax_dialect.ops.values import ConstantOp, ShapeOp
from relax_dialect.well_formed import check_well_formed

pytestmark = pytest.mark.heavy

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import suite  # noqa: E402
import timing  # noqa: E402
import workloads  # noqa: E402


@pytest.fixture(autouse=True)
def frozen_test_session() -> Iterator[None]:
    """The test session's objects out of the collector's reach, as the suite freezes what its
    stages start from: the collections the machinery makes before each sample walk only
    what the test made (else each walks the whole session, seconds apiece)."""
    gc.freeze()
    yield
    gc.unfreeze()


def bindings(module: ModuleOp) -> int:
    """The bindings of ``@main``'s dataflow block (operand leaves and the output not counted)."""
    (function,) = [op for op in module.body.block.ops if isinstance(op, FunctionOp)]
    (dataflow,) = [op for op in function.body.block.ops if isinstance(op, DataflowOp)]
    leaves = (ShapeOp, ConstantOp, OutputOp)
    return sum(1 for op in dataflow.body.block.ops if not isinstance(op, leaves))


@pytest.mark.parametrize("name", sorted(workloads.WORKLOADS))
@pytest.mark.parametrize("size", [1, 37, 120])
def test_workload_parses_in_both_forms(name: str, size: int):
    text = workloads.tvmscript(name, size)
    read = parse_tvmscript(text, f"{name}.py")
    assert check_well_formed(read) == []
    assert bindings(read) == size
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Relax)
    parsed = parse_module(ctx, workloads.mlir(name, size), f"{name}.mlir")
    assert check_well_formed(parsed) == []
    assert bindings(parsed) == size


@pytest.mark.parametrize("name", sorted(workloads.WORKLOADS))
def test_workload_is_tvms_printed_form(name: str):
    """TVM parses the program, finds it well formed and prints it back unchanged."""
    tvm = pytest.importorskip("tvm")
    text = workloads.tvmscript(name, 60)
    module = tvm.script.from_source(text)
    assert tvm.relax.analysis.check_well_formed(module)
    printed = module.script().splitlines()
    assert [line for line in printed if line and "tvm.tirx.layout" not in line] == [
        line for line in text.splitlines() if line
    ]


def test_stages_are_measured():
    (stages,) = suite.measure_stages([(workloads.tvmscript("resnet", 30), "resnet.py")])
    expected = {"parse-tvmscript", "parse-mlir", "verify", "well-formed", "relax-o2", "lower"}
    assert expected <= set(stages)
    assert all("seconds" in stage and stage["peak_mb"] > 0 for stage in stages.values())
    assert all(stage["collector_seconds"] >= 0 for stage in stages.values())


def test_samples_do_equal_work_at_every_size(monkeypatch: pytest.MonkeyPatch):
    """A sample at a size makes the work of one run at the largest size (at most
    ``MOST_RUNS`` runs) and counts their mean. (A fake clock: each run takes 10 ms.)"""
    assert [suite.runs_per_sample(s, [1000, 10_000, 100_000]) for s in (1000, 10_000, 100_000)] == [
        suite.MOST_RUNS,
        10,
        1,
    ]
    assert [suite.runs_per_sample(s, [200, 1000]) for s in (200, 1000)] == [5, 1]
    clock = [0.0]
    monkeypatch.setattr(time, "perf_counter", lambda: clock[0])
    setups: list[int] = []

    def setup() -> int:
        setups.append(len(setups))
        return setups[-1]

    def hundredth(_: int) -> None:
        clock[0] += 0.01

    stages = suite.Stages([5], 2)
    stages.run("run", lambda _, argument: hundredth(argument), lambda _: setup())
    assert len(setups) == 2 * 5 and stages.results[0]["run"]["seconds"] == pytest.approx(0.01)


def test_the_sizes_take_a_sample_each_per_round(monkeypatch: pytest.MonkeyPatch):
    """Round by round, smallest size first; the rounds follow the largest size's samples
    (a fake clock: a run at size i lasts i + 1 seconds)."""
    clock = [0.0]
    monkeypatch.setattr(time, "perf_counter", lambda: clock[0])
    order: list[int] = []

    def run(size: int, _: None) -> int:
        order.append(size)
        clock[0] += size + 1
        return size * 10

    stages = suite.Stages([2, 1], repeat=2, least_seconds=5.0)
    assert stages.run("run", run) == [0, 10]
    assert order == [0, 0, 1, 0, 0, 1, 0, 0, 1]  # 2 + 2 s at the largest, then a third
    assert [result["run"]["samples"] for result in stages.results] == [[1.0] * 3, [2.0] * 3]


def test_a_stage_failing_at_one_size_goes_on_at_the_others():
    def run(size: int, _: None) -> int:
        if size == 1:
            raise ValueError("too large\nmore")
        return size

    stages = suite.Stages([1, 1, 1], repeat=2)
    assert stages.run("run", run, tolerate=True) == [0, None, 2]
    assert stages.results[1]["run"] == {"error": "ValueError: too large"}
    assert len(stages.results[2]["run"]["samples"]) == 2
    assert stages.run("next", run, sizes=[0, 2]) == [0, None, 2]
    assert "next" not in stages.results[1]


def test_memory_and_pauses_come_from_the_size_alone():
    timed = {"sizes": [{"a": {"seconds": 1.0, "peak_mb": 900.0, "collector_seconds": 0.5}}] * 2}
    alone = {"sizes": [{"a": {"seconds": 1.2, "peak_mb": 100.0, "collector_seconds": 0.1}}]}
    stage = suite.size_stages(timed, 1, alone)["a"]
    assert stage == {"seconds": 1.0, "peak_mb": 100.0, "collector_seconds": 0.1}
    assert suite.size_stages(timed, 0, {"error": "crashed"}) == {"error": "crashed"}


def test_a_stage_is_the_median_of_its_samples(monkeypatch: pytest.MonkeyPatch):
    clock = iter([0.0, 0.3, 1.0, 1.1, 2.0, 2.2])  # samples of 0.3, 0.1 and 0.2 s
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock))
    stages = suite.Stages([1], 3)
    stages.run("run", lambda _, __: None)
    result = stages.results[0]["run"]
    assert result["seconds"] == pytest.approx(0.2)
    assert result["samples"] == pytest.approx([0.3, 0.1, 0.2])
    runs = [{"seconds": 9.0}, {"error": "crashed"}, {"seconds": 7.0}, {"seconds": 8.0}]
    assert suite.median_run(runs) == {"seconds": 8.0, "samples": [7.0, 8.0, 9.0]}
    assert suite.median_run(runs[:3])["seconds"] == 7.0  # the faster of the middle two
    assert suite.median_run([{"error": "crashed"}]) == {"error": "crashed"}


def test_a_short_stage_gets_more_samples(monkeypatch: pytest.MonkeyPatch):
    """Up to three times ``repeat`` samples, until they total ``least_seconds``."""
    clock = itertools.count(step=0.5)  # every sample (one run) lasts 0.5 s
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock))
    for repeat, least_seconds, count in [(3, 0.0, 3), (1, 1.2, 3), (2, 1.2, 3), (2, 9.0, 6)]:
        stages = suite.Stages([1], repeat, least_seconds=least_seconds)
        stages.run("run", lambda _, __: None)
        assert len(stages.results[0]["run"]["samples"]) == count
    stages = suite.Stages([4], 1, least_seconds=3.0)  # a sample of 4 runs: 2 s
    stages.run("run", lambda _, __: None)
    assert stages.results[0]["run"]["samples"] == pytest.approx([0.5, 0.5])


def test_collector_pauses_are_counted_while_installed():
    with timing.CollectorPauses() as pauses:
        gc.collect()
        counted = pauses.seconds
        assert counted > 0
    gc.collect()
    assert pauses.seconds == counted


def test_linearity_leaves_the_collector_out():
    """A stage whose own time scales 10x is linear even if collections add to it at
    the larger size only; the ratio with the pauses is printed alongside."""
    runs = [
        {"workload": "mlp", "size": 10_000, "stages": {"relax-cse": {"seconds": 1.0}}},
        {
            "workload": "mlp",
            "size": 100_000,
            "stages": {"relax-cse": {"seconds": 10.0, "collector_seconds": 2.0}},
        },
    ]
    results = {"sizes": [10_000, 100_000], "runs": runs}
    (linear,) = [row for row in suite.targets(results) if "linear" in row["target"]]
    assert linear["met"] == "yes"
    assert "mlp 10.0" in linear["measured"] and "pauses 12.0" in linear["measured"]


def test_quick_machinery(tmp_path: Path):
    """Two tiny sizes through subprocesses and the command line, then every report."""
    results = suite.run_suite(
        [30, 60], ["transformer"], ["relax-dce"], 1, figures=None, workdir=tmp_path, warm_up=False
    )
    assert suite.failures(results) == []
    (small, large) = results["runs"]
    assert (small["size"], large["size"]) == (30, 60)
    assert {"parse-tvmscript", "relax-o2", "print-lowered", "cli"} <= set(large["stages"])
    text = suite.report(results)
    assert "relax-opt end to end" in text
    assert "2x size: ratio (exp)" in text and "collector s" in text
    assert "| collector |" in suite.markdown(results)
    targets = {row["target"]: row for row in results["targets"]}
    assert any("linear" in target for target in targets)
    pytest.importorskip("matplotlib")
    suite.plot(results, str(tmp_path / "scaling.png"))
    assert (tmp_path / "scaling.png").stat().st_size > 0


def test_targets_from_recorded_results():
    """The targets table reads a full run's results: met, not met, indicative."""
    stage = {"seconds": 1.0, "peak_mb": 100.0}
    runs = [
        {
            "workload": "transformer",
            "size": size,
            "stages": {"parse-tvmscript": {**stage, "seconds": size / 1e4}, "cli": stage},
            "tvm": {"stages": {key: {**stage, "seconds": 1.0} for key in suite.END_TO_END}},
        }
        for size in (10_000, 100_000)
    ]
    runs[1]["stages"]["cli"] = {"seconds": 12.0, "peak_mb": 3000.0}
    figures = {
        "interpreter": {"bindings": 10_000, "overhead_us": 3.0},
        "transformer": {"seq": 128, "layers": 2, "reference": 1.0, "lowered": 1.5, "numpy": 1.0},
    }
    results = {"sizes": [10_000, 100_000], "runs": runs, "figures": figures}
    met = {row["target"].split(":")[0]: row["met"] for row in suite.targets(results)}
    assert met["end to end, transformer 10k TVMScript"] == "yes"  # 7 s / 1 s
    assert met["every stage linear"] == "no"  # cli: 12x
    assert met["peak memory on 100k bindings < 2 GB (relax-opt at 100,000)"] == "no"
    assert met["reference interpreter overhead < 20 us/binding"] == "yes"
    assert met["lowered interpreter within 2x of the reference (transformer)"] == "yes"
    assert met["MLIR backend with tiling within 1.5x of NumPy (transformer)"] == "not measured"


def test_interleaved_engines_warm_up_and_swap_places():
    """Each turn starts with an untimed call, every other round runs the engines in reverse
    order, and each engine's median counts only its timed calls."""
    called: list[str] = []
    engines = {name: (lambda name=name: called.append(name)) for name in ("a", "b")}
    medians = timing.interleaved_medians(engines, rounds=2, calls=2)
    assert called == ["a"] * 3 + ["b"] * 3 + ["b"] * 3 + ["a"] * 3
    assert set(medians) == {"a", "b"} and all(m >= 0 for m in medians.values())
