"""Parse + verify throughput of the dialect on generated Relax modules.

    python bench/parse_verify.py [--sizes 1000,10000] [--repeat 3]

For each size it generates a transformer-like chain of bindings with a
symbolic batch dimension (matmul, add, and a match_cast every 50 bindings,
inside one dataflow block) and times, separately: parsing (with source
locations), the operations' own verifiers (StructInfo inference included), the
context checks of the well-formedness checker, and printing. The baseline,
measured in the same run, is xDSL parsing and verifying a chain of as many
``arith.addf`` operations on ``tensor<?x64xf32>``: the cost of xDSL itself.
"""

from __future__ import annotations

import argparse
import math
import platform
from io import StringIO

from timing import best_of
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin
from xdsl.dialects.func import Func
from xdsl.parser import Parser
from xdsl.printer import Printer

from relax_dialect.dialect import Relax
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.well_formed import _ModuleChecker, verify_operations

TENSOR = "!relax.tensor<[n, 64], f32>"


def relax_chain(bindings: int) -> str:
    """A module whose main function has ``bindings`` bindings."""
    lines = [
        f"relax.function @main(%x: {TENSOR}, %w: !relax.tensor<[64, 64], f32>) -> {TENSOR} {{",
        "  %out = relax.dataflow {",
        f"    %v0 = relax.matmul %x, %w : {TENSOR}",
    ]
    for i in range(1, bindings - 1):
        if i % 50 == 0:
            lines.append(f"    %v{i} = relax.match_cast %v{i - 1} : !relax.tensor<[n, 64], f32>")
        elif i % 2:
            lines.append(f"    %v{i} = relax.add %v{i - 1}, %x : {TENSOR}")
        else:
            lines.append(f"    %v{i} = relax.matmul %v{i - 1}, %w : {TENSOR}")
    lines += [f"    relax.output %v{bindings - 2}", "  }", "  relax.return %out", "}", ""]
    return "\n".join(lines)


def arith_chain(bindings: int) -> str:
    lines = ["func.func @main(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {"]
    lines.append("  %v0 = arith.addf %x, %x : tensor<?x64xf32>")
    lines += [
        f"  %v{i} = arith.addf %v{i - 1}, %x : tensor<?x64xf32>" for i in range(1, bindings - 1)
    ]
    lines += [f"  func.return %v{bindings - 2} : tensor<?x64xf32>", "}", ""]
    return "\n".join(lines)


def context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Func, Arith, Relax):
        ctx.load_dialect(dialect)
    return ctx


def measure(bindings: int, repeat: int) -> dict[str, float]:
    ctx = context()
    text = relax_chain(bindings)
    module = parse_module(ctx, text, "chain.mlir")
    assert not verify_operations(module) and not _ModuleChecker(module).run()
    baseline_text = arith_chain(bindings)

    def baseline() -> None:
        Parser(ctx, baseline_text).parse_module().verify()

    def printing() -> None:
        Printer(stream=StringIO()).print_op(module)

    return {
        "parse": best_of(repeat, lambda: parse_module(ctx, text, "chain.mlir")),
        "verify ops": best_of(repeat, lambda: verify_operations(module)),
        "check context": best_of(repeat, lambda: _ModuleChecker(module).run()),
        "print": best_of(repeat, printing),
        "xdsl baseline (parse + verify arith)": best_of(repeat, baseline),
    }


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--sizes", default="1000,10000")
    arguments.add_argument("--repeat", type=int, default=3)
    args = arguments.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(
        f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python "
        f"{platform.python_version()}; best of {args.repeat}"
    )
    results = {size: measure(size, args.repeat) for size in sizes}
    for size, stages in results.items():
        parse_verify = stages["parse"] + stages["verify ops"] + stages["check context"]
        baseline = stages["xdsl baseline (parse + verify arith)"]
        print(f"\n{size} bindings")
        for stage, seconds in stages.items():
            print(f"  {stage:38s} {seconds:8.3f} s {size / seconds:10.0f} bindings/s")
        print(
            f"  {'parse + verify + check (total)':38s} {parse_verify:8.3f} s "
            f"{size / parse_verify:10.0f} bindings/s"
        )
        print(f"  ratio to the xDSL baseline: {parse_verify / baseline:.2f}x")
    if len(sizes) > 1:
        small, large = sizes[0], sizes[-1]
        for stage in results[small]:
            ratio = results[large][stage] / results[small][stage]
            exponent = math.log(ratio) / math.log(large / small)
            print(f"scaling exponent of {stage}: {exponent:.2f}")


if __name__ == "__main__":
    main()
