"""Throughput of ``convert-relax-to-linalg``, in bindings per second.

    python bench/convert_throughput.py [--bindings 10000] [--repeat 3]

The workload is a chain alternating ``relax.add`` and ``relax.matmul`` on
``[n, 16]`` tensors with a symbolic ``n`` inside a dataflow block (parsed once,
outside the timing; each repetition lowers a fresh clone). Printing the
lowered module in generic form (what ``mlir-opt`` is given) is timed apart.
"""

from __future__ import annotations

import argparse
import io
import platform
import time

from timing import best_of
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func
from xdsl.printer import Printer

from relax_dialect.dialect import Relax
from relax_dialect.frontends.mlir import parse_module
from relax_xdsl.lowering.convert_relax_to_linalg import ConvertRelaxToLinalgPass

TENSOR = "!relax.tensor<[n, 16], f32>"


def chain(bindings: int) -> str:
    """``bindings`` alternating adds and matmuls (by a 16x16 weight)."""
    lines = [
        f"relax.function @main(%x: {TENSOR}, %w: !relax.tensor<[16, 16], f32>) -> {TENSOR} {{",
        "  %out = relax.dataflow {",
        f"    %v0 = relax.add %x, %x : {TENSOR}",
    ]
    for i in range(1, bindings):
        op = "relax.matmul %v{0}, %w" if i % 2 else "relax.add %v{0}, %x"
        lines.append(f"    %v{i} = {op.format(i - 1)} : {TENSOR}")
    lines += [f"    relax.output %v{bindings - 1}", "  }", "  relax.return %out", "}", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bindings", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ctx = Context()
    for dialect in (Builtin, Func, Relax):
        ctx.load_dialect(dialect)
    module = parse_module(ctx, chain(args.bindings), "chain.mlir")
    lowered: list[ModuleOp] = []

    def convert() -> None:
        copy = module.clone()
        ConvertRelaxToLinalgPass().apply(ctx, copy)
        lowered.append(copy)

    seconds = best_of(args.repeat, convert)

    def print_generic() -> None:
        Printer(stream=io.StringIO(), print_generic_format=True).print_op(lowered[-1])

    started = time.perf_counter()
    print_generic()
    printing = time.perf_counter() - started
    print(f"python {platform.python_version()}, {args.bindings} bindings (add/matmul chain)")
    print(f"convert-relax-to-linalg: {seconds:.2f} s, {args.bindings / seconds:,.0f} bindings/s")
    print(f"generic printing: {printing:.2f} s, {args.bindings / printing:,.0f} bindings/s")


if __name__ == "__main__":
    main()
