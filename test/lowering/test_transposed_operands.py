"""Matrix products read a transposed parameter through the transpose
(``lowering/transposed_operands.py``): ONNX ``Gemm`` with ``transB`` (and ``transA``, and both)
on 1 to 130 rows, columns and depths, with a bias, on a symbolic batch at n = 1, 3, 7, 17, 130,
compiled natively as the backend does (kernels, units, the tiling schedule) and compared with
the reference interpreter, and on two threads against one. A transpose with another use is
left alone."""

from __future__ import annotations

import pytest
from lower_harness import (
    Case,
    assert_close_to_reference,
    assert_same_bits_on_two_threads,
    compiled_together,
    floats,
    inputs,
    load,
    tensor,
)
from test_prepacked_weights import SIZES
from toolchain_harness import needs_toolchain
from xdsl.dialects.linalg.ops import GenericOp, MatmulOp, TransposeOp

from relax_xdsl.lowering.ops.common import REDUCTION
from relax_xdsl.lowering.pipeline import lower
from relax_xdsl.lowering.transposed_operands import read_through_transposes

pytestmark = pytest.mark.heavy

TRANSPOSED = "relax.permute_dims {} {{axes = [1, 0]}}"


def gemm(name: str, rows: str, depth: int, columns: int, left: bool = False) -> Case:
    """``x @ permute_dims(w) + b`` (ONNX ``Gemm`` with ``transB``, a classifier), with ``left``
    also ``permute_dims(x)`` (``transA``: ``x`` is ``depth × rows``)."""
    x_shape = f"{depth}, {rows}" if left else f"{rows}, {depth}"
    params = (
        f"%x: {tensor(x_shape, 'f32')}, %w: {tensor(f'{columns}, {depth}', 'f32')}, "
        f"%b: {tensor(str(columns), 'f32')}"
    )
    lhs = "%x"
    body = f"%t = {TRANSPOSED.format('%w')}\n"
    if left:
        body += f"%u = {TRANSPOSED.format('%x')}\n"
        lhs = "%u"
    body += f"%p = relax.matmul {lhs}, %t\n%r = relax.add %p, %b"
    dims = [int(d) if d != "n" else d for d in x_shape.split(", ")]
    return Case(
        name,
        params,
        body,
        inputs(floats(*dims), floats(columns, depth, salt=3), floats(columns, salt=4)),
    )


TAKEN = [
    gemm("classifier", "n", 130, 17),
    gemm("classifier-one-row", "1", 512, 130),
    gemm("classifier-one-column", "n", 17, 1),
    gemm("classifier-thin", "n", 1, 7),
    gemm("both-transposed", "n", 17, 130, left=True),
]
"""Products reading their transposed operands through the transposes."""

SHARED = Case(
    "shared-transpose",
    f"%x: {tensor('17, 17', 'f32')}, %w: {tensor('17, 17', 'f32')}",
    f"%t = {TRANSPOSED.format('%w')}\n%p = relax.matmul %x, %t\n%r = relax.add %p, %t",
    inputs(floats(17, 17), floats(17, 17, salt=3)),
)
"""A transpose the product shares with another use (the sum reads it)."""

SHARED_LEFT = Case(
    "shared-left-transpose",
    f"%x: {tensor('17, 17', 'f32')}, %w: {tensor('17, 17', 'f32')}",
    f"%u = {TRANSPOSED.format('%x')}\n%t = {TRANSPOSED.format('%w')}\n"
    "%p = relax.matmul %u, %t\n%r = relax.add %p, %u",
    inputs(floats(17, 17), floats(17, 17, salt=3)),
)
"""A product reading its right operand through its transpose and its left one from a
transpose shared with another use (the sum), which stays."""

CASES = {case.name: case for case in [*TAKEN, SHARED, SHARED_LEFT]}


def lowered(cases: list[Case]):
    """The ``cases`` in one lowered module, products read through their transposes."""
    module = lower(load("".join(case.function(case.symbol) for case in cases)))
    read_through_transposes(module)
    return module


@pytest.mark.parametrize("name", [case.name for case in TAKEN])
def test_the_transposes_are_gone(name):
    ops = list(lowered([CASES[name]]).walk())
    assert not any(isinstance(op, TransposeOp | MatmulOp) for op in ops)
    [product] = [op for op in ops if isinstance(op, GenericOp) and REDUCTION in op.iterator_types]
    assert str(product.indexing_maps.data[1]) == "affine_map<(d0, d1, d2) -> (d1, d2)>"


def test_a_shared_transpose_stays_beside_one_read_through():
    ops = list(lowered([SHARED_LEFT]).walk())
    assert [type(op) for op in ops if isinstance(op, TransposeOp | MatmulOp)] == [TransposeOp]
    [transpose] = [op for op in ops if isinstance(op, TransposeOp)]
    assert len(list(transpose.results[0].uses)) == 2  # the product and the sum


def test_a_shared_transpose_is_left_alone():
    ops = list(lowered([SHARED]).walk())
    assert [type(op) for op in ops if isinstance(op, TransposeOp | MatmulOp)] == [
        TransposeOp,
        MatmulOp,
    ]


@pytest.fixture(scope="module")
def native():
    """Every case in one module, compiled as the native backend does (tiled)."""
    return compiled_together(CASES.values())


@needs_toolchain
@pytest.mark.parametrize("name", sorted(CASES))
def test_products_match_the_reference(native, name):
    sizes = SIZES if "[n," in CASES[name].params or ", n]" in CASES[name].params else (1,)
    assert_close_to_reference(native, CASES[name], sizes)


@needs_toolchain
def test_two_threads_give_the_bits_of_one():
    assert_same_bits_on_two_threads(TAKEN, [1, 3])
