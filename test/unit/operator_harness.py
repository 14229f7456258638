"""What the interpreter's unit tests share: parsing a module, writing an ``@main`` of a
few bindings, running it, and checking a result against the type inference gives it."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
from numpy.typing import DTypeLike
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.dialects.func import Func
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.tensor import Tensor
from xdsl.ir import Attribute

from relax_dialect.dialect import Relax
from relax_dialect.dtype import DataType
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.interpreter import run
from relax_dialect.ops.operator import OperatorOp
from relax_dialect.prim_expr import evaluate
from relax_dialect.types import TensorType
from relax_dialect.values import PrimValue
from relax_dialect.well_formed import check_well_formed


def load(text: str) -> ModuleOp:
    """Parse ``text`` as ``test.mlir`` and assert that the module is well formed."""
    ctx = Context()
    for dialect in (Builtin, Func, Arith, Linalg, Tensor, Relax):
        ctx.load_dialect(dialect)
    module = parse_module(ctx, text, "test.mlir")
    assert check_well_formed(module) == []
    return module


def function(params: str, *body: str, ret: str | None = "!relax.object") -> ModuleOp:
    """``relax.function @main(params) -> ret`` of the bindings ``body``, returning the
    variable the last one binds; with ``ret=None`` the result type is left to inference."""
    result = body[-1].split(" = ", 1)[0]
    signature = f"@main({params})" if ret is None else f"@main({params}) -> {ret}"
    lines = "".join(f"  {line}\n" for line in body)
    return load(f"relax.function {signature} {{\n{lines}  relax.return {result}\n}}\n")


def run_tensor(module: ModuleOp, *args: object) -> np.ndarray:
    """Run ``@main`` and assert that it returns a tensor."""
    result = run(module, "main", *args)
    assert isinstance(result, np.ndarray)
    return result


def run_strictly(module: ModuleOp, *args: object) -> object:
    """Run ``@main`` with warnings as errors: NaN, infinities and overflows are results."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return run(module, "main", *args)


def operator_type(module: ModuleOp) -> Attribute:
    """The type inferred for the last operator of ``module``."""
    return [op for op in module.walk() if isinstance(op, OperatorOp)][-1].results[0].type


def param_type(value: object, dims: str | None = None) -> str:
    """The type of a parameter taking a prim value, or a NumPy array of shape ``dims``
    (default: the array's static shape)."""
    if isinstance(value, PrimValue):
        return f"!relax.prim<{value.dtype}>"
    assert isinstance(value, np.ndarray)
    shape = dims if dims is not None else str(list(value.shape))
    return f"!relax.tensor<{shape}, {DataType.from_numpy(value.dtype)}>"


def apply(op: str, *values: object, dims: Sequence[str | None] = (), attrs: str = "") -> object:
    """Run ``relax.<op>`` on ``values`` (tensors of shape ``dims[i]``, default static, or
    prim values), strictly; the function returns the operator's inferred type, so the
    interpreter checks the result against it."""
    dims = [*dims, *[None] * (len(values) - len(dims))]
    params = ", ".join(
        f"%x{i}: {param_type(v, d)}" for i, (v, d) in enumerate(zip(values, dims, strict=True))
    )
    operands = ", ".join(f"%x{i}" for i in range(len(values)))
    binding = f"%y = relax.{op} {operands}{attrs}"
    inferred = operator_type(function(params, binding))
    return run_strictly(function(params, binding, ret=str(inferred)), *values)


def execute(text: str, *args: object, sizes: dict[str, int]) -> np.ndarray:
    """Run ``@main`` and check that the result has the data type and the shape
    (symbolic dimensions evaluated with ``sizes``) inferred for the last operator."""
    module = load(text)
    result = run_tensor(module, *args)
    sinfo = operator_type(module)
    assert isinstance(sinfo, TensorType)
    assert result.dtype == sinfo.data_type.to_numpy()
    if sinfo.dims is not None:
        assert result.shape == tuple(evaluate(d, sizes) for d in sinfo.dims)
    return result


def assert_exact(actual: object, expected: object, dtype: DTypeLike = None) -> None:
    """A tensor equal to ``expected`` (as ``dtype``, default its own), NaN equal to NaN,
    shape and data type included."""
    assert isinstance(actual, np.ndarray)
    np.testing.assert_array_equal(actual, np.asarray(expected, dtype), strict=True)
