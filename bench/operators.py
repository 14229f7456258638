"""Operator costs: StructInfo inference per operator, and kernel time against
the plain NumPy computation.

    python bench/operators.py [--size 256] [--repeat 20]

Each operator is a one-binding function on symbolic shapes (``[n, m]`` with
``n = m = size``, images ``[1, 16, s, s]``). Inference is the time of
``infer_type()`` on the parsed operator. The kernel is the interpreter's
NumPy kernel for the operator (after checking the whole function's result
through the interpreter once); the baseline, in the same run, is the NumPy
code a user would write for the operation. The ratio shows what TVM's
numerics cost; the interpreter's own overhead per binding is
``bench/interpreter_overhead.py``'s.
"""

from __future__ import annotations

import argparse
import platform
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from timing import best_of
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin

from relax_dialect.dialect import Relax
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.interpreter import Machine
from relax_dialect.numerics import kernel_for
from relax_dialect.ops.operator import OperatorOp

MATRIX = "!relax.tensor<[n, m], f32>"
IMAGE = "!relax.tensor<[1, 16, s, s], f32>"
WEIGHT = "!relax.tensor<[16, 16, 3, 3], f32>"


@dataclass(frozen=True)
class Case:
    """One operator: its binding, parameter types, and the NumPy baseline."""

    binding: str
    params: tuple[str, ...]
    baseline: Callable[..., object]


def _softmax(x: np.ndarray) -> np.ndarray:
    shifted = np.exp(x - x.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


def _layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
    mean = x.mean(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=1, keepdims=True) + 1e-5) * gamma + beta


def _conv2d(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    windows = sliding_window_view(padded, (3, 3), axis=(2, 3))
    return np.tensordot(windows, w, axes=([1, 4, 5], [1, 2, 3])).transpose(0, 3, 1, 2)


def _max_pool2d(x: np.ndarray) -> np.ndarray:
    return sliding_window_view(x, (2, 2), axis=(2, 3))[:, :, ::2, ::2].max(axis=(4, 5))


VECTOR = "!relax.tensor<[m], f32>"
CASES: dict[str, Case] = {
    "add": Case("relax.add %a, %b", (MATRIX, MATRIX), np.add),
    "exp": Case("relax.exp %a", (MATRIX,), np.exp),
    "divide": Case("relax.divide %a, %b", (MATRIX, MATRIX), np.divide),
    "sum": Case("relax.sum %a {axis = [1]}", (MATRIX,), lambda a: a.sum(axis=1)),
    "max": Case("relax.max %a {axis = [1]}", (MATRIX,), lambda a: a.max(axis=1)),
    "argmax": Case("relax.argmax %a {axis = 1}", (MATRIX,), lambda a: a.argmax(axis=1)),
    "variance": Case("relax.variance %a {axis = [1]}", (MATRIX,), lambda a: a.var(axis=1)),
    "matmul": Case("relax.matmul %a, %b", (MATRIX, "!relax.tensor<[m, n], f32>"), np.matmul),
    "permute_dims": Case("relax.permute_dims %a", (MATRIX,), np.transpose),
    "concat": Case(
        "relax.concat %t {axis = 1}",
        ("!relax.tuple<tensor<[n, m], f32>, tensor<[n, m], f32>>",),
        lambda t: np.concatenate(t, axis=1),
    ),
    "sort": Case("relax.sort %a", (MATRIX,), lambda a: np.sort(a, kind="stable")),
    "cumsum": Case("relax.cumsum %a {axis = 1}", (MATRIX,), lambda a: np.cumsum(a, axis=1)),
    "nn.softmax": Case("relax.nn.softmax %a", (MATRIX,), _softmax),
    "nn.layer_norm": Case(
        "relax.nn.layer_norm %a, %g, %b {axes = [1]}", (MATRIX, VECTOR, VECTOR), _layer_norm
    ),
    "nn.conv2d": Case("relax.nn.conv2d %a, %w {padding = [1]}", (IMAGE, WEIGHT), _conv2d),
    "nn.max_pool2d": Case(
        "relax.nn.max_pool2d %a {pool_size = [2, 2], strides = [2, 2]}", (IMAGE,), _max_pool2d
    ),
}


def module_text(case: Case) -> str:
    names = [word.rstrip(",") for word in case.binding.split() if word.startswith("%")]
    params = ", ".join(f"{name}: {sinfo}" for name, sinfo in zip(names, case.params, strict=True))
    return "\n".join(
        [
            f"relax.function @main({params}) -> !relax.object {{",
            f"  %y = {case.binding}",
            "  relax.return %y",
            "}",
        ]
    )


def arguments(case: Case, size: int, image: int) -> list[object]:
    rng = np.random.default_rng(0)
    shapes = {VECTOR: (size,), IMAGE: (1, 16, image, image), WEIGHT: (16, 16, 3, 3)}

    def value(sinfo: str) -> object:
        if sinfo.startswith("!relax.tuple"):
            return (value(MATRIX), value(MATRIX))
        return rng.standard_normal(shapes.get(sinfo, (size, size))).astype(np.float32)

    return [value(sinfo) for sinfo in case.params]


def measure(ctx: Context, name: str, case: Case, args: argparse.Namespace) -> str:
    """One row: inference, kernel and baseline times, checked against each other."""
    module = parse_module(ctx, module_text(case), f"{name}.mlir")
    operator = next(op for op in module.walk() if isinstance(op, OperatorOp))
    inference = best_of(args.repeat, lambda: [operator.infer_type() for _ in range(100)]) / 100
    values = arguments(case, args.size, args.image)
    interpreted = Machine(module).run("main", *values)
    expected = case.baseline(*values)
    np.testing.assert_allclose(np.asarray(interpreted), expected, rtol=1e-3, atol=1e-3)
    kernel = kernel_for(operator)
    assert kernel is not None
    compute = best_of(args.repeat, lambda: kernel(*values))
    direct = best_of(args.repeat, lambda: case.baseline(*values))
    return (
        f"{name:16} {inference * 1e6:8.1f}us {compute * 1e3:8.3f}ms {direct * 1e3:8.3f}ms "
        f"{compute / direct:6.2f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=512, help="n = m for matrices")
    parser.add_argument("--image", type=int, default=64, help="s for images")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Relax)
    print(
        f"machine: {platform.machine()}, Python {platform.python_version()}, NumPy "
        f"{np.__version__}; matrices {args.size}x{args.size} f32, images "
        f"1x16x{args.image}x{args.image}, best of {args.repeat}"
    )
    print(f"{'operator':16} {'inference':>10} {'kernel':>10} {'NumPy':>10} {'ratio':>7}")
    for name, case in CASES.items():
        print(measure(ctx, name, case, args))


if __name__ == "__main__":
    main()
