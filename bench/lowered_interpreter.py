"""Speed of the bundled interpreter of lowered IR (``relax_xdsl.lowering.interpreter``).

    python bench/lowered_interpreter.py [--bindings 10000] [--repeat 5]

1. Overhead: the chain of ``relax.add`` bindings of ``interpreter_overhead.py`` (4x4
   tensors), lowered with ``relax-lower-to-linalg`` (per binding a ``tensor.empty`` and
   an element-wise ``linalg.generic``), run by the lowered interpreter and by the
   reference interpreter on the Relax program; the ratio is the target (at most 2).
2. Kernels: ``linalg.matmul`` and ``linalg.conv_2d_nchw_fchw`` against the same
   computation written directly in NumPy.
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np
from interpreter_overhead import chain, numpy_chain
from timing import best_of
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, linalg, tensor
from xdsl.parser import Parser

from relax_dialect.dialect import Relax
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.interpreter import Machine
from relax_xdsl.lowering.interpreter import LoweredProgram
from relax_xdsl.lowering.pipeline import LowerToLinalgPass

MATMUL = """
func.func @matmul(%a: tensor<{n}x{n}xf32>, %b: tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{n}x{n}xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{n}x{n}xf32>, tensor<{n}x{n}xf32>)
      outs(%init : tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  func.return %r : tensor<{n}x{n}xf32>
}}
"""

CONV = """
func.func @conv(%x: tensor<1x64x58x58xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>)
      -> tensor<1x64x56x56xf32>
  %r = linalg.conv_2d_nchw_fchw
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>)
      outs(%init : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  func.return %r : tensor<1x64x56x56xf32>
}
"""


def parse_lowered(text: str) -> builtin.ModuleOp:
    ctx = Context()
    for dialect in (builtin.Builtin, func.Func, arith.Arith, linalg.Linalg, tensor.Tensor):
        ctx.load_dialect(dialect)
    return Parser(ctx, text).parse_module()


def numpy_conv(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The 3x3 convolution as nine matmuls over shifted views."""
    out = np.zeros((1, 64, 56, 56), np.float32)
    for kh in range(3):
        for kw in range(3):
            out += np.einsum("fc,nchw->nfhw", w[:, :, kh, kw], x[:, :, kh : kh + 56, kw : kw + 56])
    return out


def overhead(bindings: int, repeat: int) -> None:
    ctx = Context()
    ctx.load_dialect(builtin.Builtin)
    ctx.load_dialect(Relax)
    relax_module = parse_module(ctx, chain(bindings), "chain.mlir")
    machine = Machine(relax_module)
    lowered = parse_module(ctx, chain(bindings), "chain.mlir")
    LowerToLinalgPass().apply(Context(), lowered)
    ops = sum(1 for op in lowered.walk()) - 2
    x = np.random.default_rng(0).standard_normal((4, 4)).astype(np.float32)

    start = time.perf_counter()
    program = LoweredProgram(lowered)
    program.run("main", [x])
    compile_time = time.perf_counter() - start
    (result,) = program.run("main", [x])
    np.testing.assert_allclose(result, numpy_chain(x, bindings), rtol=1e-5)

    reference = best_of(repeat, lambda: machine.run("main", x))
    interpreted = best_of(repeat, lambda: program.run("main", [x]))
    direct = best_of(repeat, lambda: numpy_chain(x, bindings))
    print(f"chain of {bindings} relax.add bindings on 4x4 f32 ({ops} lowered operations)")
    print(f"  compile (once)          {compile_time:8.3f} s")
    per_binding = 1e6 / bindings
    print(
        f"  reference interpreter   {reference:8.3f} s  {reference * per_binding:6.2f} us/binding"
    )
    print(
        f"  lowered interpreter     {interpreted:8.3f} s  "
        f"{interpreted * per_binding:6.2f} us/binding"
        f"  {interpreted / ops * 1e6:6.2f} us/operation"
    )
    print(f"  NumPy calls directly    {direct:8.3f} s  {direct / bindings * 1e6:6.2f} us/binding")
    print(
        f"  lowered overhead        {(interpreted - direct) / ops * 1e6:6.2f} us/operation; "
        f"ratio to the reference interpreter {interpreted / reference:.2f}x"
    )


def matmul(n: int, repeat: int, rng: np.random.Generator) -> None:
    program = LoweredProgram(parse_lowered(MATMUL.format(n=n)))
    a, b = (rng.standard_normal((n, n)).astype(np.float32) for _ in range(2))
    np.testing.assert_allclose(program.run("matmul", [a, b])[0], a @ b, rtol=1e-3, atol=1e-3)
    lowered = best_of(repeat, lambda: program.run("matmul", [a, b]))
    direct = best_of(repeat, lambda: a @ b)
    print(
        f"linalg.matmul {n}x{n}x{n} f32: {lowered * 1e3:8.3f} ms "
        f"(NumPy a @ b {direct * 1e3:8.3f} ms, {2 * n**3 / lowered / 1e9:6.2f} GFLOP/s)"
    )


def kernels(repeat: int) -> None:
    rng = np.random.default_rng(0)
    for n in (64, 256, 512):
        matmul(n, repeat, rng)
    program = LoweredProgram(parse_lowered(CONV))
    x = rng.standard_normal((1, 64, 58, 58)).astype(np.float32)
    w = rng.standard_normal((64, 64, 3, 3)).astype(np.float32)
    np.testing.assert_allclose(
        program.run("conv", [x, w])[0], numpy_conv(x, w), rtol=1e-3, atol=1e-3
    )
    lowered = best_of(repeat, lambda: program.run("conv", [x, w]))
    direct = best_of(repeat, lambda: numpy_conv(x, w))
    flops = 2 * 64 * 56 * 56 * 64 * 9
    print(
        f"linalg.conv_2d_nchw_fchw 1x64x58x58 * 64x64x3x3: {lowered * 1e3:8.3f} ms "
        f"(NumPy shifted einsums {direct * 1e3:8.3f} ms, {flops / lowered / 1e9:6.2f} GFLOP/s)"
    )


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--bindings", type=int, default=10_000)
    arguments.add_argument("--repeat", type=int, default=5)
    args = arguments.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    overhead(args.bindings, args.repeat)
    kernels(args.repeat)


if __name__ == "__main__":
    main()
