"""What a program computes from constants alone, native code computes at compile time
(``relax-fold-constant`` in ``backends/native._lowered_for_native_code``): a dense layer's
transposed constant weights (ONNX ``Gemm`` with ``transB``), a chain of reshape, scaling,
transpose and cast of a constant; the lowered host keeps no such operation and the product
reads its weights as a constant (which the kernel packs at compile time). Each case is compared
with the reference interpreter at odd sizes of a symbolic dimension; an operand that is a
parameter keeps its transpose."""

from __future__ import annotations

import numpy as np
import pytest
from convert_harness import load
from lower_harness import Case, assert_close_to_reference, floats, inputs, relax_constant, tensor
from toolchain_harness import compiled_as_the_backend, needs_toolchain
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import MatmulOp, TransposeOp

from relax_xdsl.lowering.backends.backend import Program
from relax_xdsl.lowering.backends.native import _lowered_for_native_code

SIZES = (1, 3, 7, 17, 130)
"""Values of the symbolic number of rows ``n``."""


def weights(*shape: int, salt: int = 7) -> np.ndarray:
    return np.random.default_rng(salt).standard_normal(shape).astype(np.float32)


FOLDED = [
    Case(
        "dense-transposed",
        f"%x: {tensor('n, 17', 'f32')}",
        f"""{relax_constant("w", weights(130, 17))}
        {relax_constant("b", weights(130, salt=8))}
        %t = relax.permute_dims %w
        %h = relax.matmul %x, %t
        %r = relax.add %h, %b""",
        inputs(floats("n", 17)),
    ),
    Case(
        "reshaped-scaled-cast",
        f"%x: {tensor('n, 3', 'f32')}",
        f"""{relax_constant("w", weights(51))}
        {relax_constant("s", np.array(0.5, np.float32))}
        %shape = relax.shape [17, 3]
        %m = relax.reshape %w, %shape
        %a = relax.multiply %m, %s
        %t = relax.permute_dims %a
        %c = relax.astype %t {{dtype = f16}}
        %d = relax.astype %c {{dtype = f32}}
        %r = relax.matmul %x, %d""",
        inputs(floats("n", 3)),
    ),
]
"""Products whose right operand is computed from constants alone."""

KEPT = Case(
    "parameter-transposed",
    f"%x: {tensor('n, 17', 'f32')}, %w: {tensor('7, 17', 'f32')}",
    """%t = relax.permute_dims %w
    %r = relax.matmul %x, %t""",
    inputs(floats("n", 17), floats(7, 17, salt=3)),
)
"""A transposed parameter: computed on each call."""

CASES = {case.name: case for case in [*FOLDED, KEPT]}


def lowered_for_native_code(case: Case) -> ModuleOp:
    return _lowered_for_native_code(Program(load(case.function())))


@pytest.mark.parametrize("name", [case.name for case in FOLDED])
def test_what_constants_alone_compute_is_computed_at_compile_time(name):
    lowered = lowered_for_native_code(CASES[name])
    assert not any(isinstance(op, TransposeOp) for op in lowered.walk())
    [product] = [op for op in lowered.walk() if isinstance(op, MatmulOp)]
    assert isinstance(product.inputs[1].owner, arith.ConstantOp)


def test_a_transposed_parameter_is_transposed_on_each_call():
    lowered = lowered_for_native_code(KEPT)
    assert any(isinstance(op, TransposeOp) for op in lowered.walk())


@pytest.fixture(scope="module")
def native():
    """Every case in one module, lowered and compiled as the native backend does."""
    module = load("".join(case.function(case.symbol) for case in CASES.values()))
    return compiled_as_the_backend(_lowered_for_native_code(Program(module)))


@needs_toolchain
@pytest.mark.parametrize("name", sorted(CASES))
def test_folded_programs_match_the_reference(native, name):
    assert_close_to_reference(native, CASES[name], SIZES)
