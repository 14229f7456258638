"""Matrix products: MatMul, Gemm and Einsum."""

from __future__ import annotations

from xdsl.ir import SSAValue

from ....builder import call
from ..context import NodeContext
from .registry import converter
from .values import emit, scalar


@converter("MatMul", since=1)
def matmul(ctx: NodeContext) -> SSAValue:
    return ctx.emit("relax.matmul", ctx.input(0), ctx.input(1))


@converter("Gemm", since=7)
def gemm(ctx: NodeContext) -> SSAValue:
    """``alpha * A' B' + beta * C`` with ``A'``, ``B'`` transposed as asked and
    ``C`` (optional) broadcast to the product."""
    a, b = ctx.input(0), ctx.input(1)
    for value in (a, b):
        if ctx.rank(value) not in (2, None):
            ctx.error(f"Gemm multiplies matrices, got an input of rank {ctx.rank(value)}")
    if ctx.attr("transA", 0):
        a = call("relax.permute_dims", a, axes=[1, 0])
    if ctx.attr("transB", 0):
        b = call("relax.permute_dims", b, axes=[1, 0])
    product = call("relax.matmul", a, b)
    alpha, beta = ctx.attr("alpha", 1.0), ctx.attr("beta", 1.0)
    if alpha != 1.0:
        product = call("relax.multiply", product, scalar(ctx, alpha, ctx.input(0)))
    c = ctx.optional_input(2)
    if c is None or beta == 0.0:
        return emit(ctx, product)
    if beta != 1.0:
        c = call("relax.multiply", c, scalar(ctx, beta, c))
    return ctx.emit("relax.add", product, c)


@converter("Einsum", since=12)
def einsum(ctx: NodeContext) -> SSAValue:
    equation = ctx.attr("equation").replace(" ", "")
    operands = [ctx.input(i) for i in range(ctx.num_inputs)]
    return ctx.emit("relax.einsum", operands, subscripts=equation)
