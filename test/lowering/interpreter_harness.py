"""What the lowered-interpreter tests share: parsing upstream MLIR and running it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.context import Context
from xdsl.dialects import arith, builtin, cf, func, linalg, math, memref, scf, tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from relax_xdsl.lowering.interpreter import interpreter_for, run_lowered

DIALECTS = (
    builtin.Builtin,
    func.Func,
    arith.Arith,
    linalg.Linalg,
    tensor.Tensor,
    scf.Scf,
    cf.Cf,
    math.Math,
    memref.MemRef,
)


def parse(source: str) -> ModuleOp:
    """The verified module of an upstream MLIR source."""
    context = Context()
    for dialect in DIALECTS:
        context.load_dialect(dialect)
    module = Parser(context, source).parse_module()
    module.verify()
    return module


def run(source: str, name: str, *args: Any, **external: Any) -> list[Any]:
    """The results of @name of source on args (external functions by keyword)."""
    return run_lowered(parse(source), name, list(args), external)


def run_xdsl(source: str, name: str, *args: Any) -> Sequence[Any]:
    """The results of @name of source run by xDSL's interpreter on the same kernels."""
    module = parse(source)
    return interpreter_for(module).call_op(name, tuple(args))


def unary(body: str, in_type: str, out_type: str) -> str:
    """@f(%x) applying body (%x to %v) to a scalar, and @t the same over a tensor<?x..>."""
    return f"""
    func.func @f(%x: {in_type}) -> {out_type} {{
      {body}
      func.return %v : {out_type}
    }}
    func.func @t(%a: tensor<?x{in_type}>, %out: tensor<?x{out_type}>) -> tensor<?x{out_type}> {{
      %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
          iterator_types = ["parallel"]}} ins(%a : tensor<?x{in_type}>)
          outs(%out : tensor<?x{out_type}>) {{
      ^bb0(%x: {in_type}, %o: {out_type}):
        {body}
        linalg.yield %v : {out_type}
      }} -> tensor<?x{out_type}>
      func.return %r : tensor<?x{out_type}>
    }}
    """


def binary(body: str, in_type: str, out_type: str) -> str:
    """@f(%x, %y) applying body (to %v) to scalars, and @t the same over tensors."""
    return f"""
    func.func @f(%x: {in_type}, %y: {in_type}) -> {out_type} {{
      {body}
      func.return %v : {out_type}
    }}
    func.func @t(%a: tensor<?x{in_type}>, %b: tensor<?x{in_type}>, %out: tensor<?x{out_type}>)
        -> tensor<?x{out_type}> {{
      %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
          affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}}
          ins(%a, %b : tensor<?x{in_type}>, tensor<?x{in_type}>)
          outs(%out : tensor<?x{out_type}>) {{
      ^bb0(%x: {in_type}, %y: {in_type}, %o: {out_type}):
        {body}
        linalg.yield %v : {out_type}
      }} -> tensor<?x{out_type}>
      func.return %r : tensor<?x{out_type}>
    }}
    """
