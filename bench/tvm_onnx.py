"""TVM 0.25's ONNX import on a model file, timed: the baseline of ``onnx_import.py``.

    /path/to/tvmenv/bin/python bench/tvm_onnx.py MODEL.onnx [--json OUT.json]

Runs with a Python that has ``apache-tvm==0.25`` and ``onnx`` (of this project it imports
only ``timing.py`` and ``tvm_stages.py`` next to it). Stages: ``onnx.load`` with
``tvm.relax.frontend.onnx.from_onnx`` (``import``: TVM's importer runs no checker of its
own), ``relax.analysis.check_well_formed`` (``check``), then on the result the passes of
``tvm_stages.PASSES`` (Normalize ... LegalizeOps, AnnotateTIROpPattern, FuseOps). Per
stage: wall seconds and peak resident memory (high-water mark reset before it). Prints
one JSON object: ``{"version": ..., "stages": {name: {"seconds": s, "peak_mb": m}}}``.
"""

from __future__ import annotations

import argparse
import sys

from tvm_stages import apply_passes, timed, write


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("model")
    arguments.add_argument("--json", help="write the result here (default: standard output)")
    args = arguments.parse_args()
    import onnx
    from tvm import relax
    from tvm.relax.frontend.onnx import from_onnx

    stages: dict[str, dict[str, float]] = {}
    mod, stages["import"] = timed(lambda: from_onnx(onnx.load(args.model)))
    ok, stages["check"] = timed(lambda: relax.analysis.check_well_formed(mod))
    if not ok:
        sys.exit(f"{args.model}: TVM finds its import ill-formed")
    apply_passes(mod, stages)
    write(stages, args.json)


if __name__ == "__main__":
    main()
