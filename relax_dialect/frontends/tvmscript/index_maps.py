"""Index maps in TVMScript: ``T.index_map(lambda i, j: (i // 4, j, i % 4))`` (or the
bare lambda, which TVM also takes) read into, and printed from, the MLIR affine map
``(d0, d1) -> (d0 floordiv 4, d1, d0 mod 4)``. The lambda is read with ``ast``, never
run: its results must be affine in its parameters (sums, products with constants,
``//`` and ``%`` by positive constants, ``T.floordiv``/``T.floormod``)."""

from __future__ import annotations

import ast

from xdsl.ir.affine import AffineBinaryOpKind, AffineExpr, AffineMap

from ...ops.index_map import fold
from ...prim_expr import Apply, IntImm, PrimExpr, Var
from ...prim_expr_simplify import simplify
from .annotations import ExprReader, TVMScriptError, dotted_name
from .expressions import ExpressionPrinter, tuple_text


def read_index_map(node: ast.expr, tir: str) -> AffineMap:
    """The affine map of ``T.index_map(lambda ...)`` or of a lambda."""
    if isinstance(node, ast.Call) and dotted_name(node.func) == f"{tir}.index_map":
        if len(node.args) != 1 or node.keywords:
            raise TVMScriptError(node, f"{tir}.index_map takes one lambda")
        node = node.args[0]
    if not isinstance(node, ast.Lambda):
        raise TVMScriptError(node, f"an index map is a lambda or {tir}.index_map(lambda ...)")
    arguments = node.args
    if arguments.posonlyargs or arguments.vararg or arguments.kwonlyargs or arguments.kwarg:
        raise TVMScriptError(node, "an index map's lambda takes plain parameters")
    if arguments.defaults:
        raise TVMScriptError(node, "an index map's parameters have no defaults")
    names = [argument.arg for argument in arguments.args]
    dims = {name: AffineExpr.dimension(k) for k, name in enumerate(names)}
    reader = ExprReader(lambda name: Var(name) if name in dims else False, tir=tir, strings=False)
    body = node.body
    results = body.elts if isinstance(body, ast.Tuple | ast.List) else [body]
    exprs = [_affine(reader.prim_expr(result), dims, result) for result in results]
    return AffineMap(len(names), 0, tuple(exprs))


_AFFINE_OPS = {"add", "sub", "mul", "floordiv", "floormod"}


def _affine(expr: PrimExpr, dims: dict[str, AffineExpr], node: ast.expr) -> AffineExpr:
    """``expr`` over the lambda's parameters as an affine expression."""
    if isinstance(expr, Var):
        return dims[expr.name]
    if isinstance(expr, IntImm):
        return AffineExpr.constant(expr.value)
    if not isinstance(expr, Apply) or expr.op not in _AFFINE_OPS:
        raise TVMScriptError(node, "an index map's results must be affine expressions")
    lhs, rhs = (_affine(arg, dims, node) for arg in expr.args)
    constant = isinstance(expr.args[1], IntImm)
    if expr.op == "add":
        return lhs + rhs
    if expr.op == "sub":
        return lhs - rhs
    if expr.op == "mul":
        if not constant and not isinstance(expr.args[0], IntImm):
            raise TVMScriptError(node, "an index map multiplies only by constants")
        return lhs * rhs
    if not constant or expr.args[1].value <= 0:  # pyright: ignore[reportAttributeAccessIssue]
        raise TVMScriptError(node, "an index map divides only by positive constants")
    return lhs // rhs if expr.op == "floordiv" else lhs % rhs


_PRIM_OPS = {
    AffineBinaryOpKind.Add: lambda a, b: a + b,
    AffineBinaryOpKind.Mul: lambda a, b: a * b,
    AffineBinaryOpKind.FloorDiv: lambda a, b: a // b,
    AffineBinaryOpKind.Mod: lambda a, b: a % b,
    AffineBinaryOpKind.CeilDiv: lambda a, b: (a - a % IntImm(-b.value)) // b,
}


def index_map_text(index_map: AffineMap) -> str:
    """``T.index_map(lambda i0, i1: (...))``, the parameters named as TVM names those
    of a map made from positional arguments."""
    names = [f"i{k}" for k in range(index_map.num_dims)]
    params = [Var(name) for name in names]
    printer = ExpressionPrinter(lambda name: name)
    results = [
        printer.expr(simplify(fold(r, params, IntImm, lambda k, a, b: _PRIM_OPS[k](a, b))))
        for r in index_map.results
    ]
    return f"T.index_map(lambda {', '.join(names)}: {tuple_text(results)})"
