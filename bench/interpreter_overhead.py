"""Interpretation overhead of the reference interpreter, per binding.

    python bench/interpreter_overhead.py [--bindings 10000] [--repeat 5]

The workload is a chain of ``relax.add`` bindings on small tensors
(``[n, 4]``, ``n = 4``) inside a dataflow block. The baseline, measured in the
same run, makes the same NumPy calls directly (``np.add`` in a Python loop).
The overhead per binding is the difference divided by the number of
bindings; compiling the function (once per module) is reported apart.
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np
from timing import best_of
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin

from relax_dialect.dialect import Relax
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.interpreter import Machine

TENSOR = "!relax.tensor<[n, 4], f32>"


def chain(bindings: int) -> str:
    lines = [f"relax.function @main(%x: {TENSOR}) -> {TENSOR} {{", "  %out = relax.dataflow {"]
    lines.append(f"    %v0 = relax.add %x, %x : {TENSOR}")
    lines += [f"    %v{i} = relax.add %v{i - 1}, %x : {TENSOR}" for i in range(1, bindings)]
    lines += [f"    relax.output %v{bindings - 1}", "  }", "  relax.return %out", "}", ""]
    return "\n".join(lines)


def numpy_chain(x: np.ndarray, bindings: int) -> np.ndarray:
    value = np.add(x, x)
    for _ in range(1, bindings):
        value = np.add(value, x)
    return value


def measure(bindings: int, repeat: int) -> dict[str, float]:
    """Seconds to compile the chain once, to run it (best of ``repeat``), to make the
    same NumPy calls directly, and the overhead per binding in microseconds."""
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Relax)
    module = parse_module(ctx, chain(bindings), "chain.mlir")
    x = np.random.default_rng(0).standard_normal((4, 4)).astype(np.float32)

    start = time.perf_counter()
    machine = Machine(module)
    machine.function("main")
    compile_time = time.perf_counter() - start
    result = machine.run("main", x)
    np.testing.assert_allclose(result, numpy_chain(x, bindings), rtol=1e-5)  # pyright: ignore

    interpreted = best_of(repeat, lambda: machine.run("main", x))
    direct = best_of(repeat, lambda: numpy_chain(x, bindings))
    return {
        "compile": compile_time,
        "interpreted": interpreted,
        "direct": direct,
        "overhead_us": (interpreted - direct) / bindings * 1e6,
    }


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--bindings", type=int, default=10_000)
    arguments.add_argument("--repeat", type=int, default=5)
    args = arguments.parse_args()
    figures = measure(args.bindings, args.repeat)
    compile_time, interpreted = figures["compile"], figures["interpreted"]
    direct, overhead = figures["direct"], figures["overhead_us"]
    print(
        f"machine: {platform.machine()}, Python {platform.python_version()}; "
        f"{args.bindings} bindings, best of {args.repeat}"
    )
    print(
        f"  compile (once)       {compile_time:8.3f} s  "
        f"{compile_time / args.bindings * 1e6:6.1f} us/binding"
    )
    print(
        f"  interpreter run      {interpreted:8.3f} s  "
        f"{interpreted / args.bindings * 1e6:6.1f} us/binding"
    )
    print(f"  NumPy calls directly {direct:8.3f} s  {direct / args.bindings * 1e6:6.1f} us/binding")
    print(
        f"  overhead             {overhead:8.1f} us/binding "
        f"(ratio to direct NumPy {interpreted / direct:.2f}x)"
    )


if __name__ == "__main__":
    main()
