"""The symbolic dimensions of a public function's parameters, named as
``jax.export`` named them.

A dynamic dimension (``tensor<?x784xf32>``) starts as a variable of its own.
The function's prologue then tells which are equal and what they are called:
``custom_call @shape_assertion`` of ``compare EQ`` (two dimensions are one),
of ``compare GE`` (its message names the ``dimension variable 'b'``), and the
call of the wrapped function, whose parameters carry ``jax.global_constant =
"b"``. A dimension no prologue names is called ``d0``, ``d1``..."""

from __future__ import annotations

import re
from collections.abc import Mapping

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DictionaryAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import Operation, SSAValue

from ...prim_expr import IntImm, PrimExpr, Var, free_vars, substitute
from ...prim_expr_simplify import simplify
from .attributes import ComparisonDirection, ComparisonDirectionAttr
from .known import Known, evaluate
from .ops import CompareOp, CustomCallOp, GetDimensionSizeOp

PROVISIONAL = "?"
"""The prefix of a dimension's variable before it is named (not an identifier)."""
VARIABLE_NAMED = re.compile(r"dimension variable '([A-Za-z_][A-Za-z0-9_]*)'")


def entry_dimensions(
    function: func.FuncOp, functions: Mapping[str, func.FuncOp]
) -> list[list[PrimExpr]]:
    """Each parameter's dimensions (none for a parameter that is not a tensor)."""
    params = function.body.block.args
    dims = [
        [
            IntImm(size) if size >= 0 else Var(f"{PROVISIONAL}{i}.{d}")
            for d, size in enumerate(arg.type.get_shape())
        ]
        if isinstance(arg.type, TensorType)
        else []
        for i, arg in enumerate(params)
    ]
    naming = Naming()

    def dimension(op: GetDimensionSizeOp) -> PrimExpr | None:
        source = op.operands[0]
        if source.owner is not function.body.block or not isinstance(source.type, TensorType):
            return None
        dim = op.properties.get("dimension")
        index = dim.value.data if isinstance(dim, IntegerAttr) else -1
        row = dims[params.index(source)]  # type: ignore[arg-type]
        return row[index] if 0 <= index < len(row) else None

    known: dict[SSAValue, Known] = {}
    for op in function.body.block.ops:
        if len(op.results) == 1:
            found = evaluate(op, [known.get(o) for o in op.operands], dimension)
            if found is not None:
                known[op.results[0]] = found
        if isinstance(op, CustomCallOp) and op.target == "shape_assertion" and op.operands:
            naming.assertion(op, known)
        elif isinstance(op, func.CallOp):
            callee = functions.get(
                op.callee.string_value() if isinstance(op.callee, SymbolRefAttr) else ""
            )
            if callee is not None:
                naming.call(op, callee, known)
    return naming.finish(dims)


class Naming:
    """What the prologue says of the provisional variables."""

    def __init__(self) -> None:
        self.mapping: dict[str, PrimExpr] = {}

    def resolve(self, expr: PrimExpr) -> PrimExpr:
        for _ in range(len(self.mapping) + 1):
            if not free_vars(expr) & self.mapping.keys():
                break
            expr = substitute(expr, self.mapping)
        return simplify(expr)

    def provisional(self, expr: PrimExpr) -> str | None:
        resolved = self.resolve(expr)
        if isinstance(resolved, Var) and resolved.name.startswith(PROVISIONAL):
            return resolved.name
        return None

    def assertion(self, op: CustomCallOp, known: Mapping[SSAValue, Known]) -> None:
        compare = op.operands[0].owner
        if not isinstance(compare, CompareOp):
            return
        direction = compare.properties.get("comparison_direction")
        sides = [known.get(o) for o in compare.operands]
        if not isinstance(direction, ComparisonDirectionAttr) or any(
            s is None or len(s.values) != 1 for s in sides
        ):
            return
        lhs, rhs = (s.scalar() for s in sides)  # type: ignore[union-attr]
        if direction.data is ComparisonDirection.EQ:
            if (name := self.provisional(lhs)) is not None:
                self.mapping[name] = self.resolve(rhs)
            elif (name := self.provisional(rhs)) is not None:
                self.mapping[name] = self.resolve(lhs)
        elif direction.data is ComparisonDirection.GE:
            message = op.attribute("error_message")
            match = VARIABLE_NAMED.search(message.data) if isinstance(message, StringAttr) else None
            if match is not None and (name := self.provisional(lhs)) is not None:
                self.mapping[name] = Var(match[1])

    def call(self, op: Operation, callee: func.FuncOp, known: Mapping[SSAValue, Known]) -> None:
        arg_attrs = callee.arg_attrs.data if callee.arg_attrs is not None else ()
        for operand, attrs in zip(op.operands, arg_attrs, strict=False):
            named = (
                attrs.data.get("jax.global_constant") if isinstance(attrs, DictionaryAttr) else None
            )
            value = known.get(operand)
            if not isinstance(named, StringAttr) or value is None or len(value.values) != 1:
                continue
            if (name := self.provisional(value.scalar())) is not None:
                self.mapping[name] = Var(named.data)

    def finish(self, dims: list[list[PrimExpr]]) -> list[list[PrimExpr]]:
        """The dimensions, every variable named."""
        resolved = [[self.resolve(d) for d in row] for row in dims]
        unnamed = sorted(
            {v for row in resolved for d in row for v in free_vars(d) if v.startswith(PROVISIONAL)},
            key=lambda v: tuple(int(p) for p in v[1:].split(".")),
        )
        taken = {v for row in resolved for d in row for v in free_vars(d)}
        fresh: dict[str, PrimExpr] = {}
        counter = 0
        for name in unnamed:
            while f"d{counter}" in taken:
                counter += 1
            fresh[name] = Var(f"d{counter}")
            taken.add(f"d{counter}")
        return [[simplify(substitute(d, fresh)) for d in row] for row in resolved]
