"""Operands broadcast along unit dimensions read collapsed (``lowering/unit_broadcasts.py``): a
bias ``1 × C × 1 × 1``, unit dimensions between others, a parameter, a tensor of ones left as it
is; the operations then shared among the threads (`schedules/outer_threads.py`), compiled
natively as the backend does and compared with the reference at odd sizes of a symbolic batch,
with the same bits on two threads as on one."""

from __future__ import annotations

import pytest
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
from test_prepacked_weights import SIZES, kernel_modules, scheduled_remarks, weights
from toolchain_harness import needs_toolchain
from xdsl.dialects import tensor as tensor_dialect
from xdsl.dialects.linalg.ops import GenericOp

from relax_xdsl.lowering.tiling import host_tile
from relax_xdsl.lowering.unit_broadcasts import drop_unit_broadcasts

pytestmark = pytest.mark.heavy


def broadcast(name: str, data: tuple, other: tuple, op: str = "add", parameter=False) -> Case:
    """``relax.<op>`` of data of shape ``data`` (``n`` symbolic) and a constant (or a
    parameter) of shape ``other``."""
    params = f"%x: {tensor(', '.join(map(str, data)), 'f32')}"
    makers = [floats(*data)]
    body = f"%r = relax.{op} %x, %b"
    if parameter:
        params += f", %b: {tensor(', '.join(map(str, other)), 'f32')}"
        makers.append(floats(*other))
    else:
        body = f"{relax_constant('b', weights(*other, salt=3))}\n{body}"
    return Case(name, params, body, inputs(*makers))


COLLAPSED = {
    "bias": (broadcast("bias", ("n", 7, 3, 5), (1, 7, 1, 1)), [7]),
    "units-between": (broadcast("units-between", ("n", 5, 3, 7), (1, 5, 1, 7), "multiply"), [5, 7]),
    "parameter": (broadcast("parameter", ("n", 130, 2, 3), (1, 130, 1, 1), parameter=True), [130]),
    "leading-batch": (broadcast("leading-batch", (1, "n", 17), (1, 1, 17)), [1, 17]),
}
"""Cases whose broadcast operand is read collapsed, and its collapsed shape."""
LEFT = broadcast("ones", ("n", 3), (1, 1))
"""A tensor of ones (nothing left to collapse to)."""
CASES = {case.name: case for case, _ in COLLAPSED.values()} | {LEFT.name: LEFT}


@pytest.mark.parametrize("name", sorted(COLLAPSED))
def test_unit_dimensions_are_collapsed(name):
    case, shape = COLLAPSED[name]
    [kernel] = kernel_modules(case.function())
    drop_unit_broadcasts(kernel)
    [collapse] = [op for op in kernel.walk() if isinstance(op, tensor_dialect.CollapseShapeOp)]
    assert list(collapse.result.type.get_shape()) == shape
    generic = collapse.result.get_user_of_unique_use()
    assert isinstance(generic, GenericOp)
    for m in generic.indexing_maps:
        assert m.data.is_projected_permutation()


def test_a_tensor_of_ones_is_left_alone():
    [kernel] = kernel_modules(LEFT.function())
    before = str(kernel)
    drop_unit_broadcasts(kernel)
    assert str(kernel) == before


@needs_toolchain
def test_the_broadcasts_are_shared_among_the_threads():
    """Each collapsed operation's outer loop is shared (`outer_threads`' remark), which its
    constant index kept it from before."""
    cases = [case for case, _ in COLLAPSED.values()]
    rewrite = lambda kernel, tile: drop_unit_broadcasts(kernel)  # noqa: E731
    assert scheduled_remarks(cases, rewrite, host_tile(), "share_loop") == len(cases)
    unrewritten = scheduled_remarks(cases, lambda kernel, tile: None, host_tile(), "share_loop")
    assert unrewritten == 0


@pytest.fixture(scope="module")
def native():
    """Every case in one module, compiled as the native backend does (tiled)."""
    return compiled_together(CASES.values())


@needs_toolchain
@pytest.mark.parametrize("name", sorted(CASES))
def test_collapsed_broadcasts_match_the_reference(native, name):
    assert_close_to_reference(native, CASES[name], SIZES)


@needs_toolchain
def test_two_threads_give_the_bits_of_one():
    assert_same_bits_on_two_threads(list(CASES.values()), SIZES)
