"""Time every registered pass (and the pipelines) on generated Relax modules.

    python bench/passes.py [--sizes 1000,10000,100000] [--passes relax-dce,relax-o1] [--repeat 3]

For each size it builds, in memory, a transformer-like chain of that many
bindings in one dataflow block over a symbolic batch ``n``: per layer of 20
bindings, matmuls with shared weights, a bias added, relu, a residual add,
reshapes to ``[n, 8, 8]`` and back around a softmax, a constant computed from
another (work for constant folding), two duplicate bindings (work for CSE) and
two dead ones (work for dead-code elimination); a ``match_cast`` every 50
bindings. Each pass runs on its own clone of the module; the time excludes
cloning. Passes that do not exist yet are reported as missing, passes that
fail with their error.
"""

from __future__ import annotations

import argparse
import math
import platform
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
from timing import best_of
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass, PassPipeline

from relax_dialect.attributes import DenseAttr, ShapeAttr
from relax_dialect.dialect import Relax
from relax_dialect.ops import operator_class
from relax_dialect.ops.dataflow import DataflowOp, OutputOp
from relax_dialect.ops.functions import FunctionOp, ReturnOp
from relax_dialect.ops.match_cast import MatchCastOp
from relax_dialect.ops.values import ConstantOp, ShapeOp
from relax_dialect.passes import PASSES, pass_class
from relax_dialect.prim_expr import Var
from relax_dialect.types import ShapeType, TensorType
from relax_dialect.well_formed import check_well_formed

N = Var("n")
HIDDEN = TensorType([N, 64], "f32")
SPLIT = TensorType([N, 8, 8], "f32")
VECTOR = TensorType([64], "f32")
WEIGHT = TensorType([64, 64], "f32")
BATCH = 4
"""The value of ``n`` for ``relax-bind-symbolic-vars``."""


class Chain:
    """Appends bindings with known types to a block (no inference: the layer's
    types are fixed, and the smallest module is checked for well-formedness)."""

    def __init__(self, block: Block, seed: int):
        self.block = block
        self.count = 0
        self.rng = np.random.default_rng(seed)

    def op(
        self, name: str, operands: list[SSAValue], sinfo: TensorType, **attrs: object
    ) -> SSAValue:
        cls = operator_class(name)
        assert cls is not None
        return self.add(cls.build(operands, sinfo, **attrs))  # pyright: ignore[reportArgumentType]

    def add(self, op: ConstantOp | ShapeOp | MatchCastOp) -> SSAValue:
        self.block.add_op(op)
        self.count += 1
        if self.count % 50 == 0:
            return self.add(MatchCastOp(op.results[0], op.results[0].type))
        return op.results[0]

    def constant(self) -> SSAValue:
        data = self.rng.uniform(-1, 1, 64).astype("float32")
        return self.add(ConstantOp(DenseAttr.from_array(data), VECTOR))

    def shape(self, dims: list[Var | int]) -> SSAValue:
        return self.add(ShapeOp(ShapeAttr.from_dims(dims), ShapeType(dims)))

    def layer(self, h: SSAValue, w1: SSAValue, w2: SSAValue) -> SSAValue:
        """20 bindings from ``h`` to the next hidden state."""
        product = self.op("relax.matmul", [h, w1], HIDDEN)
        bias = self.constant()
        biased = self.op("relax.add", [product, bias], HIDDEN)
        active = self.op("relax.nn.relu", [biased], HIDDEN)
        self.op("relax.add", [product, bias], HIDDEN)
        second = self.op("relax.matmul", [active, w2], HIDDEN)
        base = self.constant()
        doubled = self.op("relax.add", [base, base], VECTOR)
        shifted = self.op("relax.add", [second, doubled], HIDDEN)
        residual = self.op("relax.add", [shifted, h], HIDDEN)
        split = self.op("relax.reshape", [residual, self.shape([N, 8, 8])], SPLIT)
        soft = self.op("relax.nn.softmax", [split], SPLIT, axis=-1)
        merged = self.op("relax.reshape", [soft, self.shape([N, 64])], HIDDEN)
        dead = self.op("relax.multiply", [residual, residual], HIDDEN)
        self.op("relax.nn.relu", [dead], HIDDEN)
        again = self.op("relax.matmul", [h, w1], HIDDEN)
        mixed = self.op("relax.add", [merged, again], HIDDEN)
        return self.op("relax.nn.relu", [mixed], HIDDEN)


def transformer_chain(bindings: int) -> ModuleOp:
    """A module whose ``@main`` has about ``bindings`` bindings."""
    body = Block(arg_types=[HIDDEN, WEIGHT, WEIGHT])
    for arg, name in zip(body.args, ("x", "w1", "w2"), strict=True):
        arg.name_hint = name
    x, w1, w2 = body.args
    inner = Block()
    chain = Chain(inner, seed=bindings)
    h = x
    while chain.count + 20 <= bindings:
        h = chain.layer(h, w1, w2)
    inner.add_op(OutputOp([h]))
    dataflow = DataflowOp(Region(inner))
    body.add_ops([dataflow, ReturnOp(dataflow.results[0])])
    return ModuleOp([FunctionOp("main", Region(body), HIDDEN)])


def context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Func, Arith, Relax):
        ctx.load_dialect(dialect)
    return ctx


def pipeline_spec(name: str, scratch: Path) -> str:
    """``name`` with the options it needs on the chain."""
    if name == "relax-bind-symbolic-vars":
        return f'{name}{{bindings="n = {BATCH}"}}'
    if name == "relax-bind-params":
        weights = np.eye(64, dtype="float32")
        np.savez(scratch / "params.npz", w1=weights, w2=weights)
        return f'{name}{{params="{scratch / "params.npz"}"}}'
    if name == "relax-fuse-by-pattern":
        return f'{name}{{patterns="builtin"}}'
    return name


def loader(name: str) -> Callable[[], type[ModulePass]]:
    return lambda: pass_class(name)


def status(name: str) -> str | None:
    """Why the pass cannot run (missing), or None."""
    try:
        loaded = pass_class(name)
        for inner in getattr(loaded, "PASSES", ()):
            pass_class(inner)
    except ModuleNotFoundError as error:
        return f"missing ({error.name})"
    return None


def measure(module: ModuleOp, spec: str, repeat: int) -> float | str:
    """Best time of the pipeline ``spec`` on clones of ``module``, or its error."""
    available = {name: loader(name) for name in PASSES}
    pipeline = PassPipeline.parse_spec(available, spec)
    ctx = context()
    clones = [module.clone() for _ in range(repeat)]
    try:
        return best_of(repeat, lambda: pipeline.apply(ctx, clones.pop()))
    except Exception as error:  # a failing pass is reported, not fatal
        return f"error: {type(error).__name__}: {str(error).splitlines()[0][:80]}"


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--sizes", default="1000,10000,100000")
    arguments.add_argument("--passes", default=",".join(p for p in PASSES if "check" not in p))
    arguments.add_argument("--repeat", type=int, default=3)
    args = arguments.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    names = args.passes.split(",")
    print(
        f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python "
        f"{platform.python_version()}; best of {args.repeat}"
    )
    modules = {size: transformer_chain(size) for size in sizes}
    smallest = modules[min(sizes)]
    assert not check_well_formed(smallest), "the generated chain is ill-formed"
    scratch = Path(tempfile.mkdtemp())
    results: dict[str, dict[int, float | str]] = {}
    for name in names:
        missing = status(name)
        results[name] = {
            size: missing or measure(module, pipeline_spec(name, scratch), args.repeat)
            for size, module in modules.items()
        }
    print(f"\n{'pass':32s}" + "".join(f"{size:>26d}" for size in sizes) + "   exponent")
    for name, timings in results.items():
        cells = []
        for size, seconds in timings.items():
            text = (
                seconds if isinstance(seconds, str) else f"{seconds:.3f} s {size / seconds:9.0f}/s"
            )
            cells.append(f"{text[:25]:>26s}")
        small, large = timings[sizes[0]], timings[sizes[-1]]
        exponent = ""
        if len(sizes) > 1 and isinstance(small, float) and isinstance(large, float):
            exponent = f"{math.log(large / small) / math.log(sizes[-1] / sizes[0]):.2f}"
        print(f"{name:32s}" + "".join(cells) + f"   {exponent:>8s}")


if __name__ == "__main__":
    main()
