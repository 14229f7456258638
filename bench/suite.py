"""The benchmark suite: every stage of the tool chain on generated programs, against TVM.

    python bench/suite.py [--sizes 1000,10000,100000] [--workloads transformer,mlp,resnet]
                          [--quick] [--tvm-python PATH] [--tvm-max-size 10000]
                          [--plot FILE.png] [--json FILE] [--repeat N] [--least-seconds S]
                          [--markdown]
    python bench/suite.py --from-json FILE [--markdown] [--plot FILE.png]

For each workload of ``workloads.py``, in a fresh subprocess with ``relax-opt``'s
garbage-collector thresholds holding the programs of every size side by side, one
sample at every size per round so that both sides of a ratio come from the same
process and the same seconds (``Stages``): parse the TVMScript, print it as the
dialect's MLIR text and parse that back, verify the operations, check
well-formedness, run each pass (on its own clone of the module), ``relax-o1``,
``relax-o2``, ``convert-relax-to-linalg`` on the ``relax-o2`` result, and print
(dialect text, TVMScript, the lowered module in generic form); then the command
line end to end, ``relax-opt FILE.py -p relax-o2,convert-relax-to-linalg -o /dev/null``,
in its own process, the sizes in turn. Per stage: seconds (the median of
``--repeat`` samples, 3 by default, more for a stage whose samples total under
``--least-seconds``, 15 by default; a sample is the mean of as many runs as make
the work of one run at the largest size, up to 10: ``runs_per_sample``; every
sample is kept in the JSON), bindings per second
and peak resident memory (the high-water mark reset before the stage, measured
with each size alone: one more process per size runs each stage once), and
between consecutive sizes the time ratio and the scaling exponent.
A stage's seconds leave out the garbage collector's pauses, which are reported
on their own (measured with the size alone, as the memory): the collector runs
each time 100,000 more objects are alive, so a stage timed alone on 10,000
bindings rarely pays for it while the same stage on 100,000 does; inside
``relax-opt`` the count carries over from stage to stage, and the end-to-end
row, a whole ``relax-opt`` process, includes it.

With ``--tvm-python`` (default: ``$TVM_PYTHON``, else this Python when it can
import ``tvm``), ``tvm_stages.py`` runs TVM 0.25's stages on the same file for
sizes up to ``--tvm-max-size``, and the ratios are printed. Then the other
figures of the issue's targets: the reference interpreter's overhead
(``interpreter_overhead.py``), and on the transformer of ``models.py`` the
lowered interpreter against the reference one and tiled native code against
NumPy; last, a table of the targets, measured and met or not.

``--quick`` (what CI runs): sizes 200 and 1,000 of the transformer chain and the
small models, in well under a minute. The suite reports; it fails only when
something crashes, never on a timing. ``--from-json`` prints (``--markdown``: as
the tables of ``docs/benchmarks.md``) and plots a saved run.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib.util
import itertools
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import workloads
from timing import CollectorPauses, peak_mb, reset_peak
from tvm_stages import END_TO_END

from relax_dialect.passes.pipelines import O2Pass

HERE = Path(__file__).resolve().parent
QUICK_SIZES = (200, 1000)
PASSES = tuple(dict.fromkeys(O2Pass.PASSES))
"""The passes timed on their own (those of ``relax-o2``); ``--passes all`` for every one."""
CLI_PIPELINE = "relax-o2,convert-relax-to-linalg"
STAGES = {
    "parse-tvmscript": "parse TVMScript",
    "parse-mlir": "parse MLIR text",
    "verify": "verify (operation verifiers)",
    "well-formed": "well-formedness check",
    **{name: name for name in PASSES},
    "relax-o1": "relax-o1",
    "relax-o2": "relax-o2",
    "lower": "convert-relax-to-linalg",
    "verify-lowered": "verify lowered",
    "print-mlir": "print dialect text",
    "print-tvmscript": "print TVMScript",
    "print-lowered": "print lowered (generic)",
    "cli": "relax-opt end to end",
}
"""Stage keys and their labels, in the order of the tables."""
VERSUS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("parse TVMScript", ("parse-tvmscript",), ("parse",)),
    ("well-formedness", ("verify", "well-formed"), ("well_formed",)),
    ("normalize", ("relax-normalize",), ("Normalize",)),
    ("canonicalize bindings", ("relax-canonicalize-bindings",), ("CanonicalizeBindings",)),
    ("dead-code elimination", ("relax-dce",), ("DeadCodeElimination",)),
    ("constant folding", ("relax-fold-constant",), ("FoldConstant",)),
    ("lowering (LegalizeOps)", ("lower",), ("LegalizeOps",)),
    ("fusion", ("relax-fuse-ops",), ("AnnotateTIROpPattern", "FuseOps")),
    ("print TVMScript", ("print-tvmscript",), ("print",)),
    ("end to end", ("cli",), END_TO_END),
)
"""Our stages against TVM's: (label, ours, TVM's); times are summed."""
MB = 1024 * 1024
MOST_RUNS = 10
"""The most runs in a sample (``runs_per_sample``)."""
MOST_SAMPLES_FACTOR = 3
"""A short stage's samples: at most this many times ``--repeat`` (``Stages``)."""
LEAST_SECONDS = 15.0
"""The least time a stage is sampled for, by default (``Stages``)."""


# --- measuring, in one process holding every size of a workload -------------------------


class Stages:
    """Times actions as stages at several sizes held side by side: each round takes one
    sample at every size, smallest first, so the two sides of a ratio come from the same
    process and the same seconds (docs/benchmarks/history.md, "Sizes side by side").
    A stage's seconds at a size are the median of its samples (the faster of the middle
    two for an even count, as ``median_run``), the collector's pauses left out and kept
    apart (their median too); and the peak memory of its runs.

    At least ``repeat`` rounds; more while the largest size's samples total under
    ``least_seconds``, up to ``MOST_SAMPLES_FACTOR`` times ``repeat``: short samples are
    the noisy ones (2–3 s samples of one stage spread by ±20% on this host), long ones
    average the host's spells out themselves.

    The median, not the best: this host is fast in spells of 0.2–1 s, and the best
    of a few samples is whichever caught the most of them, a draw that differs
    from size to size (docs/benchmarks/history.md, "The median of the samples").

    A sample at size ``i`` is the mean of ``runs[i]`` runs, each on a fresh
    ``setup(i)``; the suite gives the sizes samples of equal work (``runs_per_sample``).
    With several sizes, what a stage starts from is frozen out of the collector's reach
    (``gc.freeze``): the collection before every run would otherwise walk every size's
    programs."""

    def __init__(
        self,
        runs: Sequence[int],
        repeat: int = 1,
        progress: Callable[[int, str], None] | None = None,
        least_seconds: float = 0.0,
    ):
        self.runs = list(runs)
        self.repeat = repeat
        self.progress = progress
        self.least_seconds = least_seconds
        self.results: list[dict[str, dict[str, Any]]] = [{} for _ in self.runs]

    def more_samples(self, samples: Sequence[float]) -> bool:
        """Whether the largest size's ``samples`` (seconds per run) call for another round."""
        if len(samples) < self.repeat:
            return True
        short = sum(samples) * self.runs[-1] < self.least_seconds
        return short and len(samples) < MOST_SAMPLES_FACTOR * self.repeat

    def run(
        self,
        key: str,
        action: Callable[[int, Any], Any],
        setup: Callable[[int], Any] = lambda _: None,
        tolerate: bool = False,
        sizes: Sequence[int] | None = None,
    ) -> list[Any]:
        """``action(i, setup(i))`` timed in rounds (``more_samples``; ``setup`` untimed) at
        each size ``i`` of ``sizes`` (default: all); the last result at each size (None
        elsewhere). With ``tolerate``, an exception is recorded as the stage's error at
        that size, which then leaves the stage."""
        active = list(range(len(self.runs)) if sizes is None else sizes)
        samples: dict[int, list[float]] = {i: [] for i in active}
        collector: dict[int, list[float]] = {i: [] for i in active}
        peaks = dict.fromkeys(active, 0.0)
        results: list[Any] = [None] * len(self.runs)
        if len(self.runs) > 1:
            gc.unfreeze()
            gc.collect()
            gc.freeze()
        while active and self.more_samples(samples[active[-1]]):
            for i in list(active):
                results[i] = None  # freed before the sample's first setup
                try:
                    own, paused, peak, results[i] = self.sample(i, action, setup)
                except Exception as error:
                    if not tolerate:
                        raise
                    message = (str(error).strip().splitlines() or [""])[0]
                    self.results[i][key] = {"error": f"{type(error).__name__}: {message}"[:300]}
                    active.remove(i)
                    continue
                samples[i].append(own)
                collector[i].append(paused)
                peaks[i] = max(peaks[i], peak)
        for i in active:
            seconds = statistics.median_low(samples[i])
            self.results[i][key] = {
                "seconds": seconds,
                "collector_seconds": statistics.median_low(collector[i]),
                "peak_mb": peaks[i],
                "samples": samples[i],
            }
            if self.progress:
                self.progress(i, f"{key} {seconds:.3f} s")
        return results

    def sample(
        self, i: int, action: Callable[[int, Any], Any], setup: Callable[[int], Any]
    ) -> tuple[float, float, float, Any]:
        """One sample at size ``i``: seconds per run without the collector's pauses, the
        pauses per run, the peak memory, and the last run's result."""
        own, paused, peak, result = 0.0, 0.0, 0.0, None
        for _ in range(self.runs[i]):
            result = None  # freed before the next setup
            argument = setup(i)
            gc.collect()
            reset_peak()
            with CollectorPauses() as pauses:
                start = time.perf_counter()
                result = action(i, argument)
                own += time.perf_counter() - start - pauses.seconds
            paused += pauses.seconds
            peak = max(peak, peak_mb())
        return own / self.runs[i], paused / self.runs[i], peak, result


def measure_stages(
    programs: Sequence[tuple[str, str]],
    passes: Sequence[str] = PASSES,
    repeat: int = 1,
    progress: Callable[[int, str], None] | None = None,
    runs: Sequence[int] | None = None,
    least_seconds: float = 0.0,
) -> list[dict[str, dict[str, Any]]]:
    """Our stages (all but ``cli``) on each TVMScript ``(text, name)`` of ``programs``,
    the sizes side by side: per program ``{key: {seconds, collector_seconds, peak_mb,
    samples}}`` (``Stages`` for the options; ``runs``: per program, default 1 each)."""
    from xdsl.context import Context
    from xdsl.dialects.arith import Arith
    from xdsl.dialects.builtin import Builtin, ModuleOp
    from xdsl.dialects.func import Func

    from relax_dialect.dialect import Relax
    from relax_dialect.frontends.mlir import parse_module
    from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
    from relax_dialect.frontends.tvmscript.printer import print_tvmscript
    from relax_dialect.passes import pass_class
    from relax_dialect.well_formed import _ModuleChecker, verify_operations
    from relax_xdsl.lowering.convert_relax_to_linalg import ConvertRelaxToLinalgPass
    from relax_xdsl.lowering.toolchain import generic_text

    ctx = Context()
    for dialect in (Builtin, Func, Arith, Relax):
        ctx.load_dialect(dialect)
    stages = Stages(runs or [1] * len(programs), repeat, progress, least_seconds)
    texts = [text for text, _ in programs]
    names = [name for _, name in programs]
    read: list[ModuleOp] = stages.run(
        "parse-tvmscript", lambda i, _: parse_tvmscript(texts[i], names[i], ctx=ctx)
    )
    mlir: list[str] = stages.run("print-mlir", lambda i, _: workloads.print_module(read[i]))
    stages.run("print-tvmscript", lambda i, _: print_tvmscript(read[i]))
    read = []  # each stage's peak includes what is held: one module per size at a time
    parsed: list[ModuleOp] = stages.run(
        "parse-mlir", lambda i, _: parse_module(ctx, mlir[i], f"{names[i]}.mlir")
    )
    mlir = []
    checks = (("verify", verify_operations), ("well-formed", lambda m: _ModuleChecker(m).run()))
    for key, check in checks:
        problems = stages.run(key, lambda i, _, check=check: check(parsed[i]))
        for name, found in zip(names, problems, strict=True):
            if found:
                raise RuntimeError(f"{name} is ill-formed: {found[0]}")
    for pass_name in (*passes, "relax-o1", "relax-o2"):
        optimized: list[Any] = []  # the previous pass's results freed before this one
        optimized = stages.run(
            pass_name,
            lambda _, clone, pass_name=pass_name: (
                pass_class(pass_name)().apply(ctx, clone) or clone
            ),
            lambda i: parsed[i].clone(),
            tolerate=True,
        )
    modules: list[ModuleOp | None] = optimized  # relax-o2's results
    parsed = []
    lowered: list[ModuleOp | None] = stages.run(
        "lower",
        lambda _, clone: ConvertRelaxToLinalgPass().apply(ctx, clone) or clone,
        lambda i: modules[i].clone(),  # pyright: ignore[reportOptionalMemberAccess]
        tolerate=True,
        sizes=present(modules),
    )
    modules = []
    problems = stages.run(
        "verify-lowered", lambda i, _: verify_operations(lowered[i]), sizes=present(lowered)
    )
    for i in present(lowered):
        if problems[i]:
            error = f"ill-formed lowered module: {problems[i][0]}"
            stages.results[i]["verify-lowered"] = {"error": error}
    stages.run("print-lowered", lambda i, _: generic_text(lowered[i]), sizes=present(lowered))
    return stages.results


def present(values: Sequence[object | None]) -> list[int]:
    """The sizes (indices) at which a stage left a result."""
    return [i for i, value in enumerate(values) if value is not None]


def every_pass() -> list[str]:
    """The registered passes that run without options, pipelines and checks excluded."""
    from relax_dialect.passes import PASSES as REGISTERED

    needs_options = ("relax-bind-symbolic-vars", "relax-bind-params", "relax-fuse-by-pattern")
    excluded = ("relax-check-well-formed", "relax-o1", "relax-o2", *needs_options)
    return [name for name in REGISTERED if name not in excluded]


def relax_opt_command() -> list[str]:
    """How to run ``relax-opt`` with this Python."""
    installed = Path(sys.executable).parent / "relax-opt"
    if installed.exists():
        return [str(installed)]
    return [sys.executable, "-m", "relax_xdsl.tools.relax_opt"]


def run_cli(path: Path, pipeline: str = CLI_PIPELINE) -> dict[str, Any]:
    """``relax-opt PATH -p PIPELINE -o /dev/null``: wall seconds, CPU seconds (user and
    system) and the process's peak memory, or ``{"error": ...}`` when it fails."""
    command = [*relax_opt_command(), str(path), "-p", pipeline, "-o", os.devnull]
    start = time.perf_counter()
    process = subprocess.Popen(command, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    errors = process.stderr.read().decode() if process.stderr else ""
    if process.returncode != 0:
        lines = errors.strip().splitlines() or [""]
        return {"error": f"relax-opt exited with {process.returncode}: {lines[0][:300]}"}
    cpu = usage.ru_utime + usage.ru_stime
    return {"seconds": seconds, "cpu_seconds": cpu, "peak_mb": usage.ru_maxrss / 1024}


def median_run(runs: Sequence[dict[str, Any]], key: str = "seconds") -> dict[str, Any]:
    """Of a command's runs, the one of median ``key`` (the faster of the middle two for
    an even count) with every run's ``key``; the first failure if none ran."""
    timed = sorted((r for r in runs if key in r), key=lambda r: r[key])
    if not timed:
        return runs[0]
    return {**timed[(len(timed) - 1) // 2], "samples": [r[key] for r in timed]}


def measure_figures(quick: bool) -> dict[str, Any]:
    """The issue's per-component figures, from the scripts that measure them."""
    import interpreter_overhead
    import models

    figures: dict[str, Any] = {}
    bindings = 1000 if quick else 10_000
    overhead = interpreter_overhead.measure(bindings, 3 if quick else 5)
    figures["interpreter"] = {"bindings": bindings, **overhead}
    seq, layers, repeat = (32, 1, 3) if quick else (128, 2, 10)
    backends = ["reference", "lowered"]
    if shutil.which("mlir-opt-22"):
        backends.append("mlir tiled")
    model = models.transformer(seq, layers)
    try:
        row = models.measure(model, repeat, tuple(backends), compile_times=False)
    except Exception as error:  # a backend failing is a figure missing, not a crash
        row = {"error": f"{type(error).__name__}: {error}"[:300]}
    figures["transformer"] = {"seq": seq, "layers": layers, "repeat": repeat, **row}
    return figures


# --- the suite: subprocesses that measure ------------------------------------------


def child_command(arguments: Sequence[str]) -> list[str]:
    """This script with ``arguments``, in a fresh Python."""
    return [sys.executable, str(Path(__file__).resolve()), *arguments]


def child_result(status: int, output: bytes, arguments: Sequence[str]) -> dict[str, Any]:
    """The JSON a child printed, or ``{"error": ...}`` (its standard error passed through)."""
    if status != 0:
        return {"error": f"{' '.join(arguments)}: exited with status {status}"}
    return json.loads(output)


def child(arguments: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run this script with ``arguments``; what it printed (``child_result``)."""
    done = subprocess.run(child_command(arguments), stdout=subprocess.PIPE, env=env, check=False)
    return child_result(done.returncode, done.stdout, arguments)


def size_stages(timed: dict[str, Any], index: int, alone: dict[str, Any]) -> dict[str, Any]:
    """The stages of size ``index`` as timed side by side (``timed``), each with the peak
    memory and the collector's pauses measured with that size alone (``alone``: a
    process holding only its program, so the figures are its own); a child's error
    where one failed."""
    for result in (timed, alone):
        if "error" in result:
            return result
    stages, own = timed["sizes"][index], alone["sizes"][0]
    for key, stage in stages.items():
        if "seconds" in stage and "seconds" in own.get(key, {}):
            stage["peak_mb"] = own[key]["peak_mb"]
            stage["collector_seconds"] = own[key]["collector_seconds"]
    return stages


def tvm_python(option: str | None) -> str | None:
    """The Python that runs TVM's stages, if any."""
    if option:
        return option
    if os.environ.get("TVM_PYTHON"):
        return os.environ["TVM_PYTHON"]
    return sys.executable if importlib.util.find_spec("tvm") else None


def run_tvm(python: str, path: Path, timeout: float) -> dict[str, Any]:
    """TVM's stages on ``path`` (``tvm_stages.py`` in ``python``), or ``{"error": ...}``."""
    out = path.with_suffix(".tvm.json")
    command = [python, str(HERE / "tvm_stages.py"), str(path), "--json", str(out)]
    try:
        done = subprocess.run(command, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    if done.returncode != 0:
        lines = done.stderr.decode().strip().splitlines() or [f"exit status {done.returncode}"]
        return {"error": lines[-1][:300]}
    return json.loads(out.read_text())


STARTED = time.perf_counter()


def progress(message: str) -> None:
    """A measured stage, on standard error (a child's passes through to the terminal)."""
    print(f"    {message}", file=sys.stderr, flush=True)


def log(message: str) -> None:
    """Progress on standard error, with the seconds since the start."""
    print(f"[{time.perf_counter() - STARTED:6.1f} s] {message}", file=sys.stderr, flush=True)


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    memory = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f"{int(line.split()[1]) / MB:.0f} GiB"
    except OSError:
        pass
    versions = {}
    for package in ("xdsl", "numpy"):
        try:
            versions[package] = str(importlib.import_module(package).__version__)
        except ImportError:
            versions[package] = "?"
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": memory,
        "python": platform.python_version(),
        **versions,
        "load": load(),
    }


def load() -> float:
    """The one-minute load average (NaN where unknown)."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan


def runs_per_sample(size: int, sizes: Sequence[int]) -> int:
    """Runs in a sample at ``size``: as many as make the work of one run at the largest
    size, at most ``MOST_RUNS``. Samples of equal work last about as long, so they
    meet the host's changes of speed alike (2-second samples at 10k caught fast
    spells that 20-second ones at 100k averaged out, inflating the ratios)."""
    return max(1, min(MOST_RUNS, max(sizes) // size))


def run_suite(
    sizes: Sequence[int],
    names: Sequence[str],
    passes: Sequence[str] = PASSES,
    repeat: int | None = None,
    least_seconds: float = 0.0,
    tvm: str | None = None,
    tvm_max_size: int = 10_000,
    tvm_timeout: float = 3600,
    figures: str | None = "full",
    workdir: Path | None = None,
    warm_up: bool = True,
    checkpoint: Path | None = None,
) -> dict[str, Any]:
    """Measure everything; the results as one JSON-able dictionary. ``figures``: "quick"
    or "full" measures of the interpreters and models, or None; ``warm_up``: run each
    workload's stages once on a small program before timing (imports, first calls);
    ``checkpoint``: where to write the results so far after each measurement."""
    workdir = workdir or Path(tempfile.mkdtemp(prefix="relax-bench-"))
    results: dict[str, Any] = {
        "machine": machine(),
        "sizes": list(sizes),
        "runs_per_sample": {size: runs_per_sample(size, sizes) for size in sizes},
        "runs": [],
    }
    tvm_version = None
    times = repeat or 3
    for name in names:
        paths = {size: workdir / f"{name}_{size}.py" for size in sizes}
        for size, path in paths.items():
            path.write_text(workloads.tvmscript(name, size))
        log(f"{name}: our stages, the sizes side by side (median of {times} or more samples)")
        arguments = ["--passes", ",".join(passes), *(["--warm-up", name] if warm_up else [])]
        timed = child(
            [
                "--stages-of",
                ",".join(str(path) for path in paths.values()),
                "--runs",
                ",".join(str(runs_per_sample(size, sizes)) for size in sizes),
                "--repeat",
                str(times),
                "--least-seconds",
                str(least_seconds),
                *arguments,
            ]
        )
        log(f"{name}: each size alone, each stage once (peak memory, the collector's pauses)")
        alone = [child(["--stages-of", str(path), *arguments]) for path in paths.values()]
        per_size = [size_stages(timed, i, alone[i]) for i in range(len(sizes))]
        log(f"{name}: relax-opt -p {CLI_PIPELINE}, the sizes in turn")
        clis: dict[int, list[dict[str, Any]]] = {size: [] for size in sizes}
        for _ in range(times):
            for size, path in paths.items():
                clis[size].append(run_cli(path))
        for size, stages in zip(sizes, per_size, strict=True):
            run: dict[str, Any] = {"workload": name, "size": size}
            if "error" in stages:
                run["error"], stages = stages["error"], {}
            stages["cli"] = median_run(clis[size])
            run["stages"] = stages
            if tvm and size <= tvm_max_size:
                log(f"{name} {size:,}: TVM's stages")
                run["tvm"] = run_tvm(tvm, paths[size], tvm_timeout)
                tvm_version = run["tvm"].get("version", tvm_version)
            results["runs"].append(run)
            if checkpoint:
                checkpoint.write_text(json.dumps(results, indent=1))
        log(f"{name}: done")
    results["machine"]["tvm"] = tvm_version
    if figures:
        log("interpreter overhead and models")
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
        results["figures"] = child(["--figures", figures], env)
    results["machine"]["load_after"] = load()
    results["targets"] = targets(results)
    return results


# --- reporting -------------------------------------------------------------------------


def by_size(results: dict[str, Any], workload: str) -> dict[int, dict[str, Any]]:
    return {r["size"]: r for r in results["runs"] if r["workload"] == workload}


def measured(stages: dict[str, Any], key: str) -> bool:
    return "seconds" in stages.get(key, {})


def seconds(stages: dict[str, Any], keys: Sequence[str], wall: bool = False) -> float | None:
    """The summed seconds of the stages ``keys`` (``wall``: the collector's pauses
    included); None unless all were measured."""
    if not all(measured(stages, k) for k in keys):
        return None
    paused = [stages[k].get("collector_seconds", 0) if wall else 0 for k in keys]
    return sum(stages[k]["seconds"] for k in keys) + sum(paused)


def collector(stages: dict[str, Any], key: str) -> str:
    """The collector's pauses during a stage, as a cell ("" where not measured)."""
    paused = stages.get(key, {}).get("collector_seconds")
    return "" if paused is None else f"{paused:.3f}"


def peak(stages: dict[str, Any], keys: Sequence[str]) -> float | None:
    if not all(measured(stages, k) for k in keys):
        return None
    return max(stages[k]["peak_mb"] for k in keys)


def failures(results: dict[str, Any]) -> list[str]:
    """What crashed (TVM's failures are not ours and not listed)."""
    found = []
    for run in results["runs"]:
        where = f"{run['workload']} {run['size']:,}"
        if "error" in run:
            found.append(f"{where}: {run['error']}")
        found += [f"{where}, {k}: {s['error']}" for k, s in run["stages"].items() if "error" in s]
    if "error" in results.get("figures", {}):
        found.append(f"figures: {results['figures']['error']}")
    return found


def scaling(small: float, large: float, size_small: int, size_large: int) -> tuple[float, float]:
    """The time ratio and the exponent ``e`` of ``time ~ size^e`` between two sizes."""
    ratio = large / small
    return ratio, math.log(ratio) / math.log(size_large / size_small)


def stage_keys(stage_sets: Sequence[dict[str, Any]]) -> list[str]:
    """The stages measured in any of ``stage_sets``, in table order (other passes
    before the pipelines)."""
    order = list(STAGES)
    present = dict.fromkeys(k for stages in stage_sets for k in stages)
    return sorted(present, key=lambda k: order.index(k) if k in STAGES else order.index("relax-o1"))


def stage_table(results: dict[str, Any], workload: str) -> str:
    """Seconds, bindings/s and peak MiB per stage and size, and the scaling."""
    runs = by_size(results, workload)
    sizes = sorted(runs)
    keys = stage_keys([runs[s]["stages"] for s in sizes])
    header = f"{'stage':30s}" + "".join(f"{f'{s:,} bindings':>30s}" for s in sizes)
    pairs = list(itertools.pairwise(sizes))
    header += f"{'collector s':>13s}"
    header += "".join(f"{f'{b // a}x size: ratio (exp)':>24s}" for a, b in pairs)
    sub = f"{'':30s}" + f"{'s':>10s}{'bindings/s':>12s}{'MiB':>8s}" * len(sizes)
    lines = [f"== {workload} (seconds: the collector's pauses left out) ==", header, sub]
    for key in keys:
        row = f"{STAGES.get(key, key):30s}"
        for size in sizes:
            stage = runs[size]["stages"].get(key)
            if stage is None or "error" in stage:
                row += f"{'—' if stage is None else 'failed':>30s}"
                continue
            rate = size / stage["seconds"]
            row += f"{stage['seconds']:10.3f}{rate:12,.0f}{stage['peak_mb']:8.0f}"
        row += f"{collector(runs[sizes[-1]]['stages'], key):>13s}"
        for a, b in pairs:
            sa, sb = seconds(runs[a]["stages"], [key]), seconds(runs[b]["stages"], [key])
            if sa and sb:
                ratio, exponent = scaling(sa, sb, a, b)
                row += f"{f'{ratio:.1f} ({exponent:.2f})':>24s}"
        lines.append(row)
    return "\n".join(lines)


def tvm_table(results: dict[str, Any], workload: str) -> str | None:
    """Our stages against TVM's, per size where TVM ran."""
    runs = {s: r for s, r in by_size(results, workload).items() if "tvm" in r}
    if not runs:
        return None
    lines = [f"== {workload}: ours against TVM {results['machine'].get('tvm') or ''} =="]
    lines.append(
        f"{'stage':24s}{'bindings':>10s}{'ours s':>10s}{'TVM s':>10s}{'ours/TVM':>10s}"
        f"{'TVM/ours':>10s}{'ours MiB':>10s}{'TVM MiB':>10s}"
    )
    for size, run in sorted(runs.items()):
        tvm = run["tvm"]
        if "error" in tvm:
            lines.append(f"{'(TVM failed)':24s}{size:>10,}  {tvm['error']}")
            continue
        for label, ours_keys, tvm_keys in VERSUS:
            ours = seconds(run["stages"], ours_keys, wall=True)
            theirs = seconds(tvm["stages"], tvm_keys)
            if ours is None or theirs is None:
                continue
            ours_mb = peak(run["stages"], ours_keys) or 0
            theirs_mb = peak(tvm["stages"], tvm_keys) or 0
            lines.append(
                f"{label:24s}{size:>10,}{ours:10.3f}{theirs:10.3f}{ours / theirs:10.2f}"
                f"{times_faster(theirs / ours):>10s}{ours_mb:10.0f}{theirs_mb:10.0f}"
            )
    lines.append(
        "TVM's end to end is the sum of its stages from parsing to FuseOps (Python start-up "
        "and importing tvm excluded);\nours is the relax-opt process, start-up included."
    )
    return "\n".join(lines)


def times_faster(ratio: float) -> str:
    """A speed ratio with two significant digits or so: 0.046x, 2.8x, 66x."""
    return f"{ratio:.3f}x" if ratio < 0.1 else f"{ratio:.1f}x" if ratio < 10 else f"{ratio:.0f}x"


def figures_table(figures: dict[str, Any]) -> str:
    lines = ["== interpreters and native code (bench/interpreter_overhead.py, bench/models.py) =="]
    interp = figures["interpreter"]
    lines.append(
        f"reference interpreter, {interp['bindings']:,} add bindings on 4x4: run "
        f"{interp['interpreted'] * 1e3:.1f} ms, NumPy directly {interp['direct'] * 1e3:.1f} ms, "
        f"overhead {interp['overhead_us']:.1f} us/binding (compile once {interp['compile']:.2f} s)"
    )
    model = figures["transformer"]
    title = f"transformer x{model['layers']}, s = {model['seq']}"
    if "error" in model:
        lines.append(f"{title}: {model['error']}")
        return "\n".join(lines)
    numpy = model["numpy"]
    cells = [
        f"{name} {model[name] * 1e3:.1f} ms ({model[name] / numpy:.2f}x)"
        for name in ("reference", "lowered", "mlir tiled")
        if name in model
    ]
    lines.append(
        f"{title} ({model['bindings']:.0f} bindings), best of {model['repeat']}: "
        + ", ".join(cells)
        + f", NumPy {numpy * 1e3:.2f} ms (ratios to NumPy)"
    )
    return "\n".join(lines)


def targets(results: dict[str, Any]) -> list[dict[str, str]]:
    """Each target of the issue: what was measured, and whether it is met. A target
    measured at other sizes than its own is marked in parentheses (indicative)."""
    rows: list[dict[str, str]] = []

    def add(target: str, measured: str, met: bool | None, exact: bool = True) -> None:
        verdict = "not measured" if met is None else ("yes" if met else "no")
        rows.append(
            {
                "target": target,
                "measured": measured,
                "met": verdict if exact or met is None else f"({verdict})",
            }
        )

    transformer = by_size(results, "transformer")
    with_tvm = [
        s
        for s, r in transformer.items()
        if s <= 10_000
        and measured(r["stages"], "cli")
        and seconds(r.get("tvm", {}).get("stages", {}), END_TO_END)
    ]
    if with_tvm:
        size = max(with_tvm)
        run = transformer[size]
        ours = run["stages"]["cli"]["seconds"]
        theirs = seconds(run["tvm"]["stages"], END_TO_END) or math.nan
        add(
            "end to end, transformer 10k TVMScript: >= 5x faster than TVM",
            f"{theirs / ours:.1f}x at {size:,} (ours {ours:.2f} s, TVM {theirs:.2f} s)",
            theirs / ours >= 5,
            size == 10_000,
        )
    else:
        add("end to end, transformer 10k TVMScript: >= 5x faster than TVM", "TVM not run", None)

    worst: list[str] = []
    linear: bool | None = None
    exact = True
    for workload in dict.fromkeys(r["workload"] for r in results["runs"]):
        sizes = sorted(by_size(results, workload))
        if len(sizes) < 2:
            continue
        small, large = sizes[-2], sizes[-1]
        exact = exact and (small, large) == (10_000, 100_000)
        a, b = (
            by_size(results, workload)[small]["stages"],
            by_size(results, workload)[large]["stages"],
        )
        both = [k for k in a if measured(a, k) and measured(b, k)]
        if not both:
            continue
        ratios = {k: (seconds(b, [k]) or 0) / (seconds(a, [k]) or 1) for k in both}
        walls = {k: (seconds(b, [k], True) or 0) / (seconds(a, [k], True) or 1) for k in both}
        key, wall_key = max(ratios, key=ratios.__getitem__), max(walls, key=walls.__getitem__)
        limit = 1.1 * large / small
        linear = (linear is not False) and ratios[key] <= limit
        worst.append(
            f"{workload} {ratios[key]:.1f} ({STAGES.get(key, key)}, {small:,}->{large:,}; "
            f"with the collector's pauses {walls[wall_key]:.1f}, {STAGES.get(wall_key, wall_key)})"
        )
    add(
        "every stage linear: time(100k)/time(10k) <= 11",
        "worst: " + "; ".join(worst) if worst else "one size only",
        linear,
        exact,
    )

    largest = max(results["sizes"])
    peaks = []
    for workload in dict.fromkeys(r["workload"] for r in results["runs"]):
        run = by_size(results, workload).get(largest)
        if run is None or not measured(run["stages"], "cli"):
            continue
        cli = run["stages"]["cli"]["peak_mb"]
        stages = max(s.get("peak_mb", 0) for k, s in run["stages"].items() if k != "cli")
        peaks.append((cli, f"{workload} {cli:,.0f} MiB (stages {stages:,.0f})"))
    add(
        f"peak memory on 100k bindings < 2 GB (relax-opt at {largest:,})",
        "; ".join(p[1] for p in peaks) or "relax-opt failed",
        max(p[0] for p in peaks) < 2048 if peaks else None,
        largest == 100_000,
    )

    figures = results.get("figures")
    if figures and "error" not in figures:
        interp = figures["interpreter"]
        add(
            "reference interpreter overhead < 20 us/binding",
            f"{interp['overhead_us']:.1f} us at {interp['bindings']:,} bindings",
            interp["overhead_us"] < 20,
        )
        model = figures["transformer"]
        ratio = model.get("lowered", math.nan) / model.get("reference", math.nan)
        add(
            "lowered interpreter within 2x of the reference (transformer)",
            f"{ratio:.2f}x (s = {model['seq']}, {model['layers']} layers)",
            ratio <= 2 if not math.isnan(ratio) else None,
        )
        ratio = model.get("mlir tiled", math.nan) / model.get("numpy", math.nan)
        add(
            "MLIR backend with tiling within 1.5x of NumPy (transformer)",
            f"{ratio:.2f}x (s = {model['seq']}, {model['layers']} layers)"
            if not math.isnan(ratio)
            else "mlir-opt-22 not installed",
            ratio <= 1.5 if not math.isnan(ratio) else None,
        )
    return rows


def targets_table(rows: list[dict[str, str]]) -> str:
    width = max(len(r["target"]) for r in rows)
    lines = ["== targets (in parentheses: measured at other sizes than the target's) =="]
    lines += [f"{r['target']:{width}s}  {r['met']:>14s}  {r['measured']}" for r in rows]
    return "\n".join(lines)


def machine_line(m: dict[str, Any], separator: str) -> str:
    """The date, machine and versions a run was measured on."""
    return (
        f"{m['date']}{separator} {m['cpu']} ({m['cores']} cores, {m['memory']}), "
        f"Python {m['python']}, xDSL {m['xdsl']}, NumPy {m['numpy']}"
        + (f", TVM {m['tvm']}" if m.get("tvm") else "")
        + f"; load average {m['load']:.1f} at the start, "
        + (f"{m['load_after']:.1f} at the end" if "load_after" in m else "the run unfinished")
    )


def report(results: dict[str, Any]) -> str:
    parts = [machine_line(results["machine"], ":")]
    for workload in dict.fromkeys(r["workload"] for r in results["runs"]):
        parts.append(stage_table(results, workload))
        if table := tvm_table(results, workload):
            parts.append(table)
    if "interpreter" in results.get("figures", {}):
        parts.append(figures_table(results["figures"]))
    parts.append(targets_table(results["targets"]))
    if problems := failures(results):
        parts.append("== failures ==\n" + "\n".join(problems))
    return "\n\n".join(parts)


def markdown(results: dict[str, Any]) -> str:
    """The results as the Markdown tables of ``docs/benchmarks.md``."""
    parts = [machine_line(results["machine"], " —")]
    for workload in dict.fromkeys(r["workload"] for r in results["runs"]):
        runs = by_size(results, workload)
        sizes = sorted(runs)
        largest = sizes[-1]
        pairs = list(itertools.pairwise(sizes))
        lines = [
            f"**{workload}**: seconds per stage (the collector's pauses left out); "
            f"at {largest:,}: the collector's pauses, bindings/s and peak MiB",
            "",
        ]
        lines.append(
            "| stage | "
            + " | ".join(f"{s:,}" for s in sizes)
            + " | collector | bindings/s | MiB | "
            + " | ".join(f"t({b:,})/t({a:,})" for a, b in pairs)
            + " |"
        )
        lines.append("|---" * (len(sizes) + 4 + len(pairs)) + "|")
        for key in stage_keys([runs[s]["stages"] for s in sizes]):
            times = [seconds(runs[s]["stages"], [key]) for s in sizes]
            cells = [f"{t:.3f}" if t else "failed" for t in times]
            last = runs[largest]["stages"].get(key, {})
            rate = f"{largest / last['seconds']:,.0f}" if "seconds" in last else ""
            mib = f"{last['peak_mb']:,.0f}" if "seconds" in last else ""
            ratios = [
                f"{scaling(ta, tb, a, b)[0]:.1f}" if ta and tb else ""
                for (a, b), ta, tb in zip(pairs, times, times[1:], strict=False)
            ]
            label = STAGES.get(key, key)
            label = f"**{label}**" if key == "cli" else label
            paused = collector(runs[largest]["stages"], key)
            row = [label, *cells, paused, rate, mib, *ratios]
            lines.append("| " + " | ".join(row) + " |")
        parts.append("\n".join(lines))
        with_tvm = [s for s in sizes if "stages" in runs[s].get("tvm", {})]
        if not with_tvm:
            continue
        lines = [f"**{workload}** against TVM: seconds, ours / TVM's", ""]
        lines.append(
            "| stage | "
            + " | ".join(f"{s:,} ours | {s:,} TVM" for s in with_tvm)
            + f" | TVM / ours at {with_tvm[-1]:,} |"
        )
        lines.append("|---" * (2 + 2 * len(with_tvm)) + "|")
        for label, ours_keys, tvm_keys in VERSUS:
            cells, speedup = [], ""
            for size in with_tvm:
                ours = seconds(runs[size]["stages"], ours_keys, wall=True)
                theirs = seconds(runs[size]["tvm"]["stages"], tvm_keys)
                cells += [f"{ours:.3f}" if ours else "—", f"{theirs:.3f}" if theirs else "—"]
                speedup = times_faster(theirs / ours) if ours and theirs else ""
            label = f"**{label}**" if label == "end to end" else label
            lines.append("| " + " | ".join([label, *cells, speedup]) + " |")
        parts.append("\n".join(lines))
    if "interpreter" in results.get("figures", {}):
        lines = figures_table(results["figures"]).splitlines()[1:]
        bullets = "\n".join(f"* {line.strip()}" for line in lines)
        parts.append(f"**interpreters and native code**\n\n{bullets}")
    rows = ["**targets**", "", "| target | measured | met |", "|---|---|---|"]
    rows += [f"| {r['target']} | {r['measured']} | {r['met']} |" for r in results["targets"]]
    parts.append("\n".join(rows))
    return "\n\n".join(parts)


def plot(results: dict[str, Any], path: str, workload: str = "transformer") -> None:
    """Time against bindings, log-log, for ``workload``: every stage of ours on the left;
    on the right, where TVM ran, our stages against TVM's counterparts (TVM's dashed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = by_size(results, workload)
    sizes = sorted(runs)
    tvm_sizes = [s for s in sizes if seconds(runs[s].get("tvm", {}).get("stages", {}), END_TO_END)]
    panels = 2 if tvm_sizes else 1
    figure, axes = plt.subplots(1, panels, figsize=(7.5 * panels, 6.5), squeeze=False)
    ours, versus = axes[0][0], axes[0][-1]
    colours = plt.get_cmap("tab20").colors  # pyright: ignore[reportAttributeAccessIssue]
    keys = [
        k
        for k in stage_keys([runs[sizes[0]]["stages"]])
        if all(measured(runs[s]["stages"], k) for s in sizes)
    ]
    for i, key in enumerate(keys):
        times = [runs[s]["stages"][key]["seconds"] for s in sizes]
        bold = {"color": "black", "linewidth": 2.5} if key == "cli" else {"color": colours[i % 20]}
        ours.plot(sizes, times, "o-", label=STAGES.get(key, key), **bold)
    if keys:
        top = max(runs[sizes[0]]["stages"][k]["seconds"] for k in keys)
        linear = [top * 2 * s / sizes[0] for s in sizes]
        ours.plot(sizes, linear, ":", color="grey", label="linear (slope 1)")
    ours.set_title(f"{workload}: our stages")
    if tvm_sizes:
        colours = plt.get_cmap("tab10").colors  # pyright: ignore[reportAttributeAccessIssue]
        for i, (label, our_keys, tvm_keys) in enumerate(VERSUS):
            pairs = [
                (
                    s,
                    seconds(runs[s]["stages"], our_keys, wall=True),
                    seconds(runs[s]["tvm"]["stages"], tvm_keys),
                )
                for s in tvm_sizes
            ]
            pairs = [p for p in pairs if p[1] and p[2]]
            if not pairs:
                continue
            colour = "black" if label == "end to end" else colours[i % 10]
            width = 2.5 if label == "end to end" else 1.2
            xs = [p[0] for p in pairs]
            versus.plot(xs, [p[1] for p in pairs], "o-", color=colour, linewidth=width, label=label)
            versus.plot(xs, [p[2] for p in pairs], "s--", color=colour, linewidth=width)
        versus.plot([], [], "k-", label="ours (solid)")
        versus.plot([], [], "k--", label="TVM (dashed)")
        versus.set_title(f"{workload}: ours against TVM {results['machine'].get('tvm') or ''}")
    for axis in (ours, versus)[:panels]:
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel("bindings")
        axis.set_ylabel("seconds, the collector's pauses left out" if axis is ours else "seconds")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=7, ncol=2 if axis is ours else 1, loc="upper left")
    figure.suptitle(f"{results['machine']['date']}, {results['machine']['cpu']}", fontsize=9)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--sizes", default="1000,10000,100000", help="bindings, comma-separated")
    arguments.add_argument("--workloads", default=",".join(workloads.WORKLOADS))
    arguments.add_argument(
        "--quick", action="store_true", help="sizes 200,1000 of the transformer, small models"
    )
    arguments.add_argument(
        "--passes", default=",".join(PASSES), help="timed on their own (default: relax-o2's); all"
    )
    arguments.add_argument("--repeat", type=int, help="median of N (default: 3; quick: 1)")
    arguments.add_argument(
        "--least-seconds",
        type=float,
        help=f"sample a stage this long, up to {MOST_SAMPLES_FACTOR}x --repeat samples "
        f"(default: {LEAST_SECONDS:g}; quick: 0)",
    )
    arguments.add_argument("--tvm-python", help="a Python with tvm 0.25 (default: $TVM_PYTHON)")
    arguments.add_argument("--tvm-max-size", type=int, default=10_000, help="largest size for TVM")
    arguments.add_argument("--tvm-timeout", type=float, default=3600, help="seconds, per size")
    arguments.add_argument("--no-figures", action="store_true", help="skip interpreters/models")
    arguments.add_argument("--plot", metavar="FILE.png")
    arguments.add_argument("--json", metavar="FILE", help="write the results (after each run too)")
    arguments.add_argument(
        "--from-json", metavar="FILE", help="report a saved run, measure nothing"
    )
    arguments.add_argument("--markdown", action="store_true", help="report as Markdown tables")
    arguments.add_argument("--workdir", help="where the generated programs go (default: a temp)")
    arguments.add_argument("--stages-of", help=argparse.SUPPRESS)
    arguments.add_argument("--warm-up", help=argparse.SUPPRESS)
    arguments.add_argument("--runs", help=argparse.SUPPRESS)
    arguments.add_argument("--figures", choices=["quick", "full"], help=argparse.SUPPRESS)
    args = arguments.parse_args(argv)
    passes = every_pass() if args.passes == "all" else args.passes.split(",")
    if args.stages_of:
        from relax_xdsl.tools.relax_opt import GC_THRESHOLDS

        gc.set_threshold(*GC_THRESHOLDS)  # the stages run as they do in relax-opt
        paths = [Path(path) for path in args.stages_of.split(",")]
        if args.warm_up:  # imports and first-call costs out of the timings
            measure_stages([(workloads.tvmscript(args.warm_up, 30), "warm-up.py")], passes)
        sizes = measure_stages(
            [(path.read_text(), path.name) for path in paths],
            passes,
            args.repeat or 1,
            lambda i, message: progress(f"{paths[i].stem}: {message}"),
            [int(runs) for runs in args.runs.split(",")] if args.runs else None,
            args.least_seconds or 0.0,
        )
        json.dump({"sizes": sizes}, sys.stdout)
        return 0
    if args.figures:
        json.dump(measure_figures(args.figures == "quick"), sys.stdout)
        return 0
    if args.from_json:
        results = json.loads(Path(args.from_json).read_text())
        results["targets"] = targets(results)
        print(markdown(results) if args.markdown else report(results))
        if args.plot:
            plot(results, args.plot, results["runs"][0]["workload"])
        return 0
    sizes = list(QUICK_SIZES) if args.quick else [int(s) for s in args.sizes.split(",")]
    names = ["transformer"] if args.quick else args.workloads.split(",")
    unknown = [n for n in names if n not in workloads.WORKLOADS]
    if unknown:
        arguments.error(f"unknown workload(s) {', '.join(unknown)}")
    least_seconds = args.least_seconds
    if least_seconds is None:
        least_seconds = 0.0 if args.quick else LEAST_SECONDS
    results = run_suite(
        sizes,
        names,
        passes,
        args.repeat or (1 if args.quick else None),
        least_seconds,
        tvm_python(args.tvm_python),
        args.tvm_max_size,
        args.tvm_timeout,
        None if args.no_figures else ("quick" if args.quick else "full"),
        Path(args.workdir) if args.workdir else None,
        checkpoint=Path(args.json) if args.json else None,
    )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    print(markdown(results) if args.markdown else report(results))
    if args.plot:
        plot(results, args.plot, names[0])
    return 1 if failures(results) else 0


if __name__ == "__main__":
    sys.exit(main())
