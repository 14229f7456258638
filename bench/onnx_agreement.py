"""Real ONNX models on every backend against onnxruntime: the model table of docs/onnx.md.

    python bench/onnx_agreement.py [ARCHITECTURE ...] [--full] [--light] [--markdown]

For each architecture of ``onnx_models.py`` (all by default; small sizes unless
``--full``) and, with ``--light``, each "light" model graph shipped with ``onnx``: the
import time (``from_onnx``), then on each backend the time of the first call (compilation
included) and the largest difference from onnxruntime's outputs relative to their largest
magnitude, with whether every output is within ``running.py``'s tolerance (rtol 1e-3, atol
1e-4). Needs ``onnx`` and, for the comparison, ``onnxruntime``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx_models import ARCHITECTURES, example_inputs

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test" / "onnx"))

from running import Failed, compiled, imported, mismatch, outputs

from relax_xdsl.lowering.backends import BACKENDS, backend_named

RTOL, ATOL = 1e-3, 1e-4
LIGHT = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"


def onnxruntime_outputs(model: onnx.ModelProto, inputs: dict[str, np.ndarray]) -> list | None:
    """onnxruntime's outputs, or None when it is not installed."""
    try:
        import onnxruntime
    except ImportError:
        return None
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return session.run(None, inputs)


def relative_difference(actual: list[np.ndarray], expected: list[np.ndarray]) -> float:
    """The largest difference over the largest magnitude, over every output."""
    return max(
        float(np.max(np.abs(a.astype(np.float64) - e)) / max(float(np.max(np.abs(e))), 1e-30))
        for a, e in zip(actual, expected, strict=True)
    )


def models(names: list[str], full: bool, light: bool) -> list[tuple[str, onnx.ModelProto, dict]]:
    """(name, model, inputs) of the architectures asked for and the light models."""
    found = []
    for name in names:
        architecture = ARCHITECTURES[name]
        model = architecture.model(full)
        found.append((name, model, example_inputs(model, architecture.dims)))
    for path in sorted(LIGHT.glob("light_*.onnx")) if light else []:
        model = onnx.load(str(path))
        dims = {d.dim_param: 1 for v in model.graph.input for d in v.type.tensor_type.shape.dim}
        found.append((path.stem.removeprefix("light_"), model, example_inputs(model, dims)))
    return found


def measure(name: str, model: onnx.ModelProto, inputs: dict[str, np.ndarray]) -> dict[str, Any]:
    row: dict[str, Any] = {"name": name, "nodes": len(model.graph.node)}
    start = time.perf_counter()
    try:
        program = imported(model, f"{name}.onnx")
    except Failed as failure:
        return {**row, "error": str(failure)}
    row["import"] = time.perf_counter() - start
    expected = onnxruntime_outputs(model, inputs)
    for backend in BACKENDS:
        if (reason := backend_named(backend).unavailable()) is not None:
            row[backend] = f"unavailable: {reason}"
            continue
        start = time.perf_counter()
        try:
            actual = outputs(program, compiled(program, backend), list(inputs.values()))
        except Failed as failure:
            row[backend] = str(failure)
            continue
        seconds = time.perf_counter() - start
        if expected is None:
            row[backend] = f"{seconds:.2f} s"
            continue
        problem = mismatch(actual, expected, RTOL, ATOL)
        difference = relative_difference(actual, expected) if problem is None else None
        verdict = f"agrees ({difference:.1e})" if problem is None else f"DIFFERS: {problem}"
        row[backend] = f"{seconds:.2f} s, {verdict}"
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("architectures", nargs="*", help=f"of {', '.join(ARCHITECTURES)}")
    parser.add_argument("--full", action="store_true", help="the published sizes")
    parser.add_argument("--light", action="store_true", help="onnx's light model graphs too")
    parser.add_argument("--markdown", action="store_true", help="as the table of docs/onnx.md")
    args = parser.parse_args()
    if unknown := set(args.architectures) - set(ARCHITECTURES):
        parser.error(f"unknown architectures: {', '.join(sorted(unknown))}")
    names = args.architectures or ([] if args.light else list(ARCHITECTURES))
    rows = [measure(*entry) for entry in models(names, args.full, args.light)]
    if args.markdown:
        print("| model | nodes | import | " + " | ".join(BACKENDS) + " |")
        print("|---|---|---|" + "---|" * len(BACKENDS))
    for row in rows:
        cells = [row["name"], str(row["nodes"])]
        if "error" in row:
            cells += [row["error"], *["—"] * len(BACKENDS)]
        else:
            cells += [f"{row['import']:.2f} s", *(row[b] for b in BACKENDS)]
        print("| " + " | ".join(cells) + " |" if args.markdown else "  ".join(cells))
    failed = any("error" in row or "DIFFERS" in str(row.values()) for row in rows)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
