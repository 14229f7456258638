"""Matrix-vector products streamed from their weights (``lowering/schedules/matrix_vector.py``):
a dense layer on one row (``1 × K · K × N + bias``) at K and N of 1, 3, 7, 17, 130 and 1,000,
its weights a constant (left unpacked), a parameter, or a transposed parameter (ONNX ``Gemm``
with ``transB``, read through the transpose), compiled natively as the backend does and
compared with the reference interpreter, and on two threads against one."""

from __future__ import annotations

import numpy as np
import pytest
from convert_harness import load
from lower_harness import (
    Case,
    assert_close_to_reference,
    assert_same_bits_on_two_threads,
    compiled_together,
    floats,
    inputs,
    relax_constant,
    tensor,
)
from toolchain_harness import needs_toolchain, scheduled
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from relax_xdsl.lowering.kernels import KERNEL_PREFIX, outline_kernels
from relax_xdsl.lowering.pack_ops import PackOp
from relax_xdsl.lowering.pipeline import lower
from relax_xdsl.lowering.prepacked_weights import prepack_weights
from relax_xdsl.lowering.tiling import host_tile
from relax_xdsl.lowering.transposed_operands import read_through_transposes

pytestmark = pytest.mark.heavy

SHAPES = [(1, 1), (3, 7), (7, 3), (17, 130), (130, 17), (1, 1000), (1000, 1), (130, 1000)]
"""Depths and columns (K, N) of the products."""

WEIGHTS = ("constant", "parameter", "transposed")
"""How each product is given its weights."""

STREAMED = ("constant", "transposed")
"""The weights read ``n × k`` (constants stored so at compile time), which are streamed."""


def dense(weights: str, depth: int, columns: int) -> Case:
    """``x @ W + b`` on one row, ``W`` given as ``weights`` says (`WEIGHTS`)."""
    rng = np.random.default_rng(depth * 7919 + columns)
    w = rng.standard_normal((depth, columns)).astype(np.float32)
    params = f"%x: {tensor(f'1, {depth}', 'f32')}, %b: {tensor(str(columns), 'f32')}"
    makers = [floats(1, depth), floats(columns, salt=4)]
    body = "%r = relax.add %p, %b"
    if weights == "constant":
        body = f"{relax_constant('w', w)}\n%p = relax.matmul %x, %w\n{body}"
    elif weights == "parameter":
        params += f", %w: {tensor(f'{depth}, {columns}', 'f32')}"
        makers.append(lambda n, w=w: w)
        body = f"%p = relax.matmul %x, %w\n{body}"
    else:
        params += f", %w: {tensor(f'{columns}, {depth}', 'f32')}"
        makers.append(lambda n, w=w: np.ascontiguousarray(w.T))
        body = f"%t = relax.permute_dims %w {{axes = [1, 0]}}\n%p = relax.matmul %x, %t\n{body}"
    return Case(f"{weights}-{depth}x{columns}", params, body, inputs(*makers))


CASES = {case.name: case for case in (dense(w, k, n) for w in WEIGHTS for k, n in SHAPES)}


def kernel(case: Case) -> ModuleOp:
    """The one kernel of ``case``, its product reading through the transposes and its
    constants packed as the backend does (`units`)."""
    host = lower(load(case.function()))
    read_through_transposes(host)
    outline_kernels(host)
    [kernel] = [
        ModuleOp([op.clone()])
        for op in host.body.block.ops
        if isinstance(op, func.FuncOp) and op.sym_name.data.startswith(KERNEL_PREFIX)
    ]
    prepack_weights(kernel, host_tile())
    return kernel


def scheduled_products(weights: str) -> str:
    """The schedule's remarks on the kernels of `SHAPES` with their ``weights``."""
    units = [str(kernel(dense(weights, depth, columns))) for depth, columns in SHAPES]
    result = scheduled(units)
    assert result.returncode == 0, result.stderr
    return result.stderr


@needs_toolchain
@pytest.mark.parametrize("weights", STREAMED)
def test_the_schedule_streams_one_row_products_unpacked(weights):
    """Each kernel's product is taken by the matrix-vector schedule (its remark) and nothing
    is packed, before the schedule or by it."""
    for depth, columns in SHAPES:
        assert not any(
            isinstance(op, PackOp) for op in kernel(dense(weights, depth, columns)).walk()
        )
    assert scheduled_products(weights).count("schedule: tile_matrix_vector") == len(SHAPES)


@needs_toolchain
def test_weights_read_across_their_rows_keep_the_register_tiles():
    """A ``k × n`` parameter (a ``linalg.matmul``) is left to the register-tiled schedule:
    streamed along ``k`` it was 5–11% slower (docs/benchmarks.md)."""
    remarks = scheduled_products("parameter")
    assert "tile_matrix_vector" not in remarks
    assert remarks.count("schedule: tile_0") == len(SHAPES)


@needs_toolchain
def test_symbolic_sizes_keep_the_register_tiles():
    """A one-row product of a symbolic depth is not streamed (not tested there)."""
    case = Case(
        "symbolic-depth",
        f"%x: {tensor('1, n', 'f32')}, %w: {tensor('17, n', 'f32')}",
        "%t = relax.permute_dims %w {axes = [1, 0]}\n%r = relax.matmul %x, %t",
        inputs(floats(1, "n"), floats(17, "n")),
    )
    result = scheduled([str(kernel(case))])
    assert result.returncode == 0, result.stderr
    assert "tile_matrix_vector" not in result.stderr


@pytest.fixture(scope="module")
def native():
    """Every case in one module, compiled as the native backend does (tiled)."""
    return compiled_together(CASES.values())


@needs_toolchain
@pytest.mark.parametrize("name", sorted(CASES))
def test_products_match_the_reference(native, name):
    assert_close_to_reference(native, CASES[name], (1,))


@needs_toolchain
def test_two_threads_give_the_bits_of_one():
    assert_same_bits_on_two_threads(list(CASES.values()), [1])
