"""Import speed of the ONNX frontend, against TVM 0.25's importer.

    python bench/onnx_import.py [--models resnet50,transformer,resnet18] [--repeat 3]
                                [--tvm-python PATH] [--json FILE] [--markdown]

Models: ``resnet50``, the ResNet-50 graph of ``onnx``'s backend test data (its "light"
model: 415 nodes, 53 of them convolutions on 224×224, 239 ConstantOfShape making the
weights);
``transformer``, 17 BERT encoder layers of ``onnx_models.py`` (width 128, 4 heads, FFN
512: 1,008 nodes, symbolic batch and sequence); ``resnet18``, ResNet-18 at full size with
its 11.7 M random weights as initializers (45 MB).

Ours, in this process, each the median of ``--repeat`` runs with its peak resident memory
(the high-water mark reset before it): ``import`` (``from_onnx`` on the file: load, ONNX's
checker and shape inference, conversion), ``check`` (verifiers and well-formedness, as
``relax-opt`` checks what it reads); then ``relax-opt MODEL -p
relax-o2,relax-lower-to-linalg -o /dev/null`` end to end in its own process (wall and CPU
seconds, the run of median CPU time). With ``--tvm-python`` (default: ``$TVM_PYTHON``,
else this Python if it has ``tvm``), ``tvm_onnx.py`` times TVM's ``from_onnx``, its
well-formedness check and its passes up to ``FuseOps`` on the same file, ``--repeat``
times; TVM's end to end is given twice: the sum of its stages' wall times (its process
start and ``import tvm`` not included, ours are), and its whole process's wall and CPU
seconds (start and imports included, as ours; the run of median CPU time). CPU seconds
are what to compare on a loaded machine: wall times there measure the load.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import onnx
import onnx_models
from suite import median_run, run_cli, tvm_python
from timing import peak_mb, reset_peak

from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends.onnx import from_onnx
from relax_dialect.recheck import recheck_well_formed

HERE = Path(__file__).resolve().parent
PIPELINE = "relax-o2,relax-lower-to-linalg"
LIGHT_RESNET50 = Path(onnx.__file__).parent / "backend/test/data/light/light_resnet50.onnx"
TRANSFORMER = {"width": 128, "heads": 4, "ffn": 512, "layers": 17}


def write_models(names: list[str], directory: Path) -> dict[str, Path]:
    """The benchmark's model files (the ResNet-50 graph left out when onnx lacks it)."""
    paths = {}
    for name in names:
        if name == "resnet50":
            if LIGHT_RESNET50.exists():
                paths[name] = LIGHT_RESNET50
            continue
        model = (
            onnx_models.bert_layer(**TRANSFORMER)
            if name == "transformer"
            else onnx_models.ARCHITECTURES[name].model(full=True)
        )
        paths[name] = directory / f"{name}.onnx"
        onnx.save(model, str(paths[name]))
    return paths


def measured(action: Callable[[], Any], repeat: int) -> tuple[Any, dict[str, float]]:
    """The action's last result, its median seconds and its largest peak memory."""
    seconds, peaks, result = [], [], None
    for _ in range(repeat):
        result = None
        gc.collect()
        reset_peak()
        start = time.perf_counter()
        result = action()
        seconds.append(time.perf_counter() - start)
        peaks.append(peak_mb())
    return result, {"seconds": statistics.median(seconds), "peak_mb": max(peaks)}


def measure(path: Path, repeat: int, tvm: str | None) -> dict[str, Any]:
    nodes = len(onnx.load(str(path), load_external_data=False).graph.node)
    row: dict[str, Any] = {"nodes": nodes}
    try:
        module, row["import"] = measured(lambda: from_onnx(path), repeat)
    except DiagnosticError as error:
        return {**row, "error": str(error).splitlines()[0]}
    problems, row["check"] = measured(lambda: recheck_well_formed(module, again=False), repeat)
    if problems:
        row["error"] = str(problems[0])
    row["cli"] = median_run([run_cli(path, PIPELINE) for _ in range(repeat)], "cpu_seconds")
    if tvm is not None:
        row["tvm"] = median_run([run_tvm(tvm, path) for _ in range(repeat)], "process_cpu")
    return row


def run_tvm(python: str, path: Path) -> dict[str, Any]:
    """TVM's stages on the model (``tvm_onnx.py``), or ``{"error": ...}``."""
    out = Path(tempfile.mkdtemp()) / "tvm.json"
    command = [python, str(HERE / "tvm_onnx.py"), str(path), "--json", str(out)]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    errors = process.stderr.read().decode() if process.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        lines = errors.strip().splitlines() or [f"exit status {status}"]
        return {"error": lines[-1][:300]}
    cpu = usage.ru_utime + usage.ru_stime
    return {**json.loads(out.read_text()), "process_seconds": seconds, "process_cpu": cpu}


def markdown(results: dict[str, Any]) -> str:
    """The table of ``docs/benchmarks.md``."""
    lines = [
        "| model | nodes | import | check | peak | relax-opt end to end (wall, CPU) | "
        "TVM import + check | peak | TVM stages | TVM process (wall, CPU) | import ratio | "
        "end-to-end ratio: stages / our wall | process CPU / our CPU |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, row in results["models"].items():
        if "import" not in row:
            lines.append(f"| {name} | {row['nodes']:,} | {row['error']} |" + " — |" * 11)
            continue
        ours = row["import"]["seconds"] + row["check"]["seconds"]
        cli, cli_cpu = row["cli"].get("seconds"), row["cli"].get("cpu_seconds")
        cells = [
            name,
            f"{row['nodes']:,}",
            f"{row['import']['seconds']:.2f} s",
            f"{row['check']['seconds']:.3f} s",
            f"{max(row['import']['peak_mb'], row['check']['peak_mb']):.0f} MB",
            f"{cli:.2f} s, {cli_cpu:.2f} s" if cli else row["cli"].get("error", "—"),
        ]
        stages = row.get("tvm", {}).get("stages")
        if stages:
            theirs = stages["import"]["seconds"] + stages["check"]["seconds"]
            total = sum(stage["seconds"] for stage in stages.values())
            peak = max(stage["peak_mb"] for stage in stages.values())
            wall, cpu = row["tvm"]["process_seconds"], row["tvm"]["process_cpu"]
            cells += [f"{theirs:.2f} s", f"{peak:.0f} MB", f"{total:.2f} s"]
            cells += [f"{wall:.2f} s, {cpu:.2f} s", f"{theirs / ours:.1f}×"]
            cells += [f"{total / cli:.1f}×", f"{cpu / cli_cpu:.1f}×"] if cli else ["—", "—"]
        else:
            cells += [row.get("tvm", {}).get("error", "—")] + ["—"] * 6
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="resnet50,transformer,resnet18")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tvm-python", help="a Python with tvm 0.25 (default: $TVM_PYTHON)")
    parser.add_argument("--json", help="write everything measured here")
    parser.add_argument("--markdown", action="store_true", help="print the table of the docs")
    args = parser.parse_args()
    tvm = tvm_python(args.tvm_python)
    with tempfile.TemporaryDirectory() as directory:
        paths = write_models(args.models.split(","), Path(directory))
        results = {"models": {}}
        for name, path in paths.items():
            results["models"][name] = measure(path, args.repeat, tvm)
            print(name, json.dumps(results["models"][name]), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    if args.markdown:
        print(markdown(results))


if __name__ == "__main__":
    main()
