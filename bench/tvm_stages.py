"""TVM 0.25's stages on a TVMScript file, timed: the baseline of the benchmark suite.

    /path/to/tvmenv/bin/python bench/tvm_stages.py FILE.py [--json OUT.json]

Runs with a Python that has ``apache-tvm==0.25`` (of this project it imports
only ``timing.py`` next to it). Stages: ``tvm.script.from_source`` (parse),
printing the parsed module (``IRModule.script()``),
``relax.analysis.check_well_formed``, then each on the previous one's result
``Normalize``, ``CanonicalizeBindings``,
``DeadCodeElimination``, ``FoldConstant``, ``LegalizeOps``,
``AnnotateTIROpPattern`` (without it ``FuseOps`` sees every legalized kernel as
opaque and fuses nothing) and ``FuseOps``.
Per stage: wall seconds and the peak resident memory during the stage (the
high-water mark reset before it through ``/proc/self/clear_refs``). Prints one
JSON object: ``{"version": ..., "stages": {name: {"seconds": s, "peak_mb": m}}}``.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Callable

from timing import peak_mb, reset_peak

END_TO_END = (
    "parse",
    "Normalize",
    "CanonicalizeBindings",
    "DeadCodeElimination",
    "FoldConstant",
    "LegalizeOps",
    "FuseOps",
)
"""The stages the issue's end-to-end comparison adds up."""
PASSES = (
    "Normalize",
    "CanonicalizeBindings",
    "DeadCodeElimination",
    "FoldConstant",
    "LegalizeOps",
    "AnnotateTIROpPattern",
    "FuseOps",
)
"""The passes timed, in turn (``relax.transform``'s names)."""


def timed(action: Callable[[], object]) -> tuple[object, dict[str, float]]:
    gc.collect()
    reset_peak()
    start = time.perf_counter()
    result = action()
    seconds = time.perf_counter() - start
    return result, {"seconds": seconds, "peak_mb": peak_mb()}


def apply_passes(mod: object, stages: dict[str, dict[str, float]]) -> object:
    """``PASSES`` applied in turn, each timed into ``stages``; the last one's result."""
    from tvm import relax

    for name in PASSES:
        make = getattr(relax.transform, name)
        mod, stages[name] = timed(lambda make=make, mod=mod: make()(mod))
    return mod


def write(stages: dict[str, dict[str, float]], path: str | None) -> None:
    """``{"version": ..., "stages": stages}`` as JSON into ``path`` (None: standard output)."""
    import tvm

    result = {"version": tvm.__version__, "stages": stages}
    if path:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(result, handle)
    else:
        json.dump(result, sys.stdout)
        print()


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("file")
    arguments.add_argument("--json", help="write the result here (default: standard output)")
    arguments.add_argument("--no-print", action="store_true", help="skip the printing stage")
    args = arguments.parse_args()
    import tvm
    from tvm import relax

    with open(args.file, encoding="utf-8") as handle:
        text = handle.read()
    stages: dict[str, dict[str, float]] = {}
    mod, stages["parse"] = timed(lambda: tvm.script.from_source(text))
    if not args.no_print:
        _, stages["print"] = timed(lambda: mod.script())  # pyright: ignore[reportAttributeAccessIssue]
    ok, stages["well_formed"] = timed(lambda: relax.analysis.check_well_formed(mod))
    if not ok:
        sys.exit(f"{args.file}: TVM finds the module ill-formed")
    apply_passes(mod, stages)
    write(stages, args.json)


if __name__ == "__main__":
    main()
