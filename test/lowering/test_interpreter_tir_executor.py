"""LoweredTIRExecutor passes the cases of XDSLTIRExecutor (test/unit/test_tir_executor.py),
and plugs into the reference interpreter's call_tir."""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_harness import tir_cases as cases

from relax_xdsl.lowering.interpreter.tir_executor import LoweredTIRExecutor


@pytest.fixture(autouse=True)
def lowered_executor(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every reused case runs on LoweredTIRExecutor."""
    monkeypatch.setattr(cases, "XDSLTIRExecutor", LoweredTIRExecutor)


test_generic_body_operations = cases.test_generic_body_operations
test_elementwise_add_with_dynamic_dims = cases.test_elementwise_add_with_dynamic_dims
test_add_of_each_element_type = cases.test_add_of_each_element_type
test_unsigned_arrays_pass_through_signless_integers = (
    cases.test_unsigned_arrays_pass_through_signless_integers
)
test_matmul = cases.test_matmul
test_fill_with_a_scalar_over_any_contents = cases.test_fill_with_a_scalar_over_any_contents
test_scalar_inputs_and_index_tir_var = cases.test_scalar_inputs_and_index_tir_var
test_dense_tensor_constants = cases.test_dense_tensor_constants
test_slices = cases.test_slices
test_reshapes = cases.test_reshapes
test_memref_kernel_writes_in_place = cases.test_memref_kernel_writes_in_place
test_helper_functions_and_named_elementwise_operations = (
    cases.test_helper_functions_and_named_elementwise_operations
)
test_ieee_special_values = cases.test_ieee_special_values
test_float_arithmetic_rounds_to_its_type = cases.test_float_arithmetic_rounds_to_its_type
test_bad_calls = cases.test_bad_calls
test_failure_inside_the_interpreter_names_the_operation = (
    cases.test_failure_inside_the_interpreter_names_the_operation
)
test_element_types_without_numpy_counterpart = cases.test_element_types_without_numpy_counterpart
test_returned_values_must_match_the_outputs = cases.test_returned_values_must_match_the_outputs


def test_operation_xdsl_lacks_runs() -> None:
    """math.cbrt, which XDSLTIRExecutor rejects, runs."""
    source = cases.elementwise("%v = math.cbrt %x : f32", "f32", "f32")
    x = np.array([8.0, -27.0, 0.0, 1.0], np.float32)
    (result,) = cases.run(source, "kernel", [x, x], [np.zeros(4, np.float32)])
    np.testing.assert_allclose(result, [2.0, -3.0, 0.0, 1.0], rtol=1e-6)


def test_unsupported_operation_is_named_before_running() -> None:
    source = cases.elementwise(
        '%w = memref.alloc() : memref<4xf32>\n%v = "memref.rank"(%w) : (memref<4xf32>) -> index',
        "f32",
        "index",
    )
    with pytest.raises(cases.TIRExecutionError) as error:
        cases.run(source, "kernel", [np.ones(4, np.float32)] * 2, [np.zeros(4, np.int64)])
    assert str(error.value) == "memref.rank in @kernel is not supported by the lowered interpreter"


def test_reference_interpreter_call_tir() -> None:
    """The reference interpreter runs call_tir through LoweredTIRExecutor."""
    from xdsl.context import Context
    from xdsl.dialects import arith, builtin, func, linalg

    from relax_dialect.dialect import Relax
    from relax_dialect.frontends.mlir import parse_module
    from relax_dialect.interpreter import Machine

    ctx = Context()
    for dialect in (builtin.Builtin, func.Func, arith.Arith, linalg.Linalg, Relax):
        ctx.load_dialect(dialect)
    module = parse_module(
        ctx,
        """
        func.func @double(%a: tensor<?x4xf32>, %out: tensor<?x4xf32>) -> tensor<?x4xf32> {
          %r = linalg.add ins(%a, %a : tensor<?x4xf32>, tensor<?x4xf32>)
              outs(%out : tensor<?x4xf32>) -> tensor<?x4xf32>
          func.return %r : tensor<?x4xf32>
        }
        relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
          %y = relax.call_tir @double(%x) : !relax.tensor<[n, 4], f32>
          relax.return %y
        }
        """,
        "call_tir.mlir",
    )
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    result = Machine(module, tir=LoweredTIRExecutor()).run("main", x)
    np.testing.assert_array_equal(result, 2 * x)
