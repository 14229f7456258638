"""What the lowered-interpreter tests share: parsing upstream MLIR and running it."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from relax_xdsl.lowering.interpreter import interpreter_for, run_lowered


def _unit_cases() -> ModuleType:
    """``test/unit/test_tir_executor.py``, whose kernels and parser these tests share."""
    path = Path(__file__).parents[1] / "unit" / "test_tir_executor.py"
    spec = importlib.util.spec_from_file_location("tir_executor_cases", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tir_cases = _unit_cases()
"""The cases of XDSLTIRExecutor, reused for LoweredTIRExecutor."""

DIALECTS = tir_cases.DIALECTS
parse: Callable[[str], ModuleOp] = tir_cases.parse
"""The verified module of an upstream MLIR source."""


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
