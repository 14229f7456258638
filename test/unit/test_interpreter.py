"""The reference interpreter: every construct against NumPy, every run-time check."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import load
from xdsl.dialects.builtin import ModuleOp

from relax_dialect.diagnostics import location_of
from relax_dialect.dtype import INT64
from relax_dialect.interpreter import Machine, PackedRegistry, RelaxRuntimeError, run
from relax_dialect.recursion import MAX_CALL_DEPTH
from relax_dialect.values import NULL, Closure, PrimValue, ShapeValue

F32 = "!relax.tensor<[n, 4], f32>"


def rng_array(*shape: int, dtype: str = "float32") -> np.ndarray:
    return np.random.default_rng(sum(shape) + len(shape)).standard_normal(shape).astype(dtype)


def scalar_ops() -> PackedRegistry:
    """Packed functions for scalar arithmetic, registered from Python."""
    registry = PackedRegistry()
    registry.register("test.subtract", lambda a, b: np.asarray(a - b))
    registry.register("test.multiply", lambda a, b: np.asarray(a * b))
    registry.register("test.less", lambda a, b: np.asarray(a < b))
    registry.register("test.equal", lambda a, b: np.asarray(a == b))
    return registry


def failure(module: ModuleOp, *args: object, **options: object) -> RelaxRuntimeError:
    with pytest.raises(RelaxRuntimeError) as error:
        run(module, "main", *args, **options)
    return error.value


# --- bindings, dataflow, tuples --------------------------------------------------


CHAIN = f"""
relax.function @main(%x: {F32}, %w: !relax.tensor<[4, 4], f32>) -> !relax.tuple<tensor<[n, 4], f32>, shape<[n, n + 1]>> {{
  %out = relax.dataflow {{
    %a = relax.matmul %x, %w : {F32}
    %b = relax.add %a, %x : {F32}
    %c = relax.add %b, %b : {F32}
    relax.output %c
  }}
  %s = relax.shape [n, n + 1] : !relax.shape<[n, n + 1]>
  %t = relax.tuple(%out, %s) : !relax.tuple<tensor<[n, 4], f32>, shape<[n, n + 1]>>
  %first = relax.tuple_get_item %t[0] : {F32}
  %u = relax.tuple(%first, %s) : !relax.tuple<tensor<[n, 4], f32>, shape<[n, n + 1]>>
  relax.return %u
}}
"""


@pytest.mark.parametrize("n", [1, 3, 7])
def test_dataflow_chain_for_several_symbolic_sizes(n: int) -> None:
    x, w = rng_array(n, 4), rng_array(4, 4)
    tensor, shape = run(load(CHAIN), "main", x, w)  # pyright: ignore[reportGeneralTypeIssues]
    expected = 2 * (x @ w + x)
    np.testing.assert_allclose(tensor, expected, rtol=1e-6)
    assert shape == ShapeValue((n, n + 1))


def test_values_of_every_kind() -> None:
    module = load("""
relax.function @main(%p: !relax.prim<i64, k>) -> !relax.tuple<tensor<[2], i32>, prim<i64>, object, object, prim<f32>> {
  %c = relax.constant dense<[2], i32, [7, -3]> : !relax.tensor<[2], i32>
  %q = relax.prim_value k * 3 + 1 : !relax.prim<i64, k * 3 + 1>
  %s = relax.str "hi" : !relax.object
  %d = relax.dtype f16 : !relax.object
  %f = relax.prim_value 2.5 : !relax.prim<f32, 2.5>
  %t = relax.tuple(%c, %q, %s, %d, %f) : !relax.tuple<tensor<[2], i32>, prim<i64>, object, object, prim<f32>>
  relax.return %t
}
""")
    c, q, s, d, f = run(module, "main", 4)  # pyright: ignore[reportGeneralTypeIssues]
    np.testing.assert_array_equal(c, np.array([7, -3], dtype=np.int32))
    assert q.value == 13 and str(q.dtype) == "i64"
    assert s == "hi" and str(d) == "f16" and f.value == 2.5


def test_constants_are_fresh_tensors() -> None:
    module = load("""
relax.function @main() -> !relax.tuple<tensor<[2], f32>, tensor<[2], f32>> {
  %a = relax.constant dense<[2], f32, 1.0> : !relax.tensor<[2], f32>
  %b = relax.constant dense<[2], f32, 1.0> : !relax.tensor<[2], f32>
  %t = relax.tuple(%a, %b) : !relax.tuple<tensor<[2], f32>, tensor<[2], f32>>
  relax.return %t
}
""")
    a, b = run(module)  # pyright: ignore[reportGeneralTypeIssues]
    assert a is not b and a.flags.writeable


# --- match_cast and the checks of calls ------------------------------------------


MATCH = """
relax.function @main(%x: !relax.object, %s: !relax.object) -> !relax.object {
  %t = relax.match_cast %x : !relax.tensor<[a, b], f32>
  %u = relax.match_cast %s : !relax.shape<[a, c]>
  %r = relax.tuple(%t, %u) : !relax.tuple<tensor<[a, b], f32>, shape<[a, c]>>
  relax.return %r
}
"""


def test_match_cast_binds_and_checks() -> None:
    module = load(MATCH)
    x = rng_array(3, 5)
    tensor, shape = run(module, "main", x, ShapeValue((3, 9)))  # pyright: ignore
    assert tensor is x and shape == ShapeValue((3, 9))


@pytest.mark.parametrize(
    ("x", "s", "message"),
    [
        (rng_array(3, 5, dtype="float64"), ShapeValue((3, 9)), "expected data type f32, got f64"),
        (rng_array(3, 5, 2), ShapeValue((3, 9)), "expected 2 dimensions, got 3"),
        (rng_array(3, 5), ShapeValue((5, 9)), "match_cast: shape value a bound to 3, got 5"),
        (ShapeValue((3,)), ShapeValue((3, 9)), "expected a tensor, got shape(3)"),
        (rng_array(3, 5), rng_array(3), "expected a shape, got tensor of shape [3]"),
    ],
)
def test_match_cast_failures_are_located(x: object, s: object, message: str) -> None:
    module = load(MATCH)
    error = failure(module, x, s)
    assert message in error.message
    assert error.message.startswith("match_cast: ")
    location = location_of(error.where)
    assert location is not None and location.line in (3, 4)


def test_match_cast_of_expressions_nested_tuples_and_prims() -> None:
    module = load("""
relax.function @main(%x: !relax.tensor<[n], f32>, %o: !relax.object) -> !relax.object {
  %t = relax.match_cast %o : !relax.tuple<tensor<[n * 2], f32>, tuple<prim<i64, n + 1>>>
  relax.return %t
}
""")
    x = rng_array(3)
    good = (rng_array(6), (PrimValue(4, INT64),))
    assert run(module, "main", x, good) == good
    error = failure(module, x, (rng_array(5), (PrimValue(4, INT64),)))
    assert "match_cast: field 0: dimension 0 is 5, expected n * 2 = 6" in error.message
    error = failure(module, x, (rng_array(6), (PrimValue(3, INT64),)))
    assert "field 1: field 0: prim value is 3, expected n + 1 = 4" in error.message
    error = failure(module, x, (rng_array(6),))
    assert "expected a tuple of 2 fields, got 1" in error.message


def test_signature_binds_in_any_order_and_checks_arguments() -> None:
    module = load("""
relax.function @main(%x: !relax.tensor<[m * n], f32>, %y: !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, n], f32> {
  relax.return %y
}
""")
    y = rng_array(2, 3)
    assert run(module, "main", rng_array(6), y) is y
    error = failure(module, rng_array(5), y)
    assert error.message == "@main: argument 0: dimension 0 is 5, expected m * n = 6"
    assert error.where is not None and location_of(error.where) is not None


def test_return_annotation_is_checked() -> None:
    module = load("""
relax.function @main(%x: !relax.tensor<f32>) -> !relax.tensor<ndim = 2, f32> {
  relax.return %x
}
""")
    error = failure(module, rng_array(3))
    assert error.message == "@main: return value: expected 2 dimensions, got 1"


def test_argument_checks_of_inner_calls_name_the_call_site() -> None:
    module = load("""
relax.function @main(%x: !relax.object) -> !relax.object {
  %r = relax.call @inner(%x) : !relax.object
  relax.return %r
}
relax.function private @inner(%y: !relax.object) -> !relax.object {
  %t = relax.match_cast %y : !relax.tensor<[k], f32>
  %r = relax.call @leaf(%t) : !relax.tensor<[k], f32>
  relax.return %r
}
relax.function private @leaf(%z: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  relax.return %z
}
""")
    assert run(module, "main", rng_array(2)).shape == (2,)  # pyright: ignore
    error = failure(module, rng_array(3))
    assert error.message == (
        "@leaf: argument 0: dimension 0 is 3, expected 2 (called from test.mlir:8:3)"
    )


# --- control flow, calls, recursion --------------------------------------------------

FACTORIAL = """
relax.function @main(%n: !relax.tensor<[], i64>) -> !relax.tensor<[], i64> {
  %one = relax.constant dense<[], i64, 1> : !relax.tensor<[], i64>
  %two = relax.constant dense<[], i64, 2> : !relax.tensor<[], i64>
  %small = relax.call_pure_packed "test.less"(%n, %two) : !relax.tensor<[], bool>
  %r = relax.if %small : !relax.tensor<[], i64> {
    relax.yield %one
  } else {
    %m = relax.call_pure_packed "test.subtract"(%n, %one) : !relax.tensor<[], i64>
    %rec = relax.call @main(%m) : !relax.tensor<[], i64>
    %p = relax.call_pure_packed "test.multiply"(%n, %rec) : !relax.tensor<[], i64>
    relax.yield %p
  }
  relax.return %r
}
"""


@pytest.mark.parametrize("n", [0, 1, 5, 20])
def test_recursive_factorial(n: int) -> None:
    result = run(load(FACTORIAL), "main", np.array(n, dtype=np.int64), packed=scalar_ops())
    assert int(result) == int(np.prod(np.arange(1, n + 1, dtype=np.int64)))  # pyright: ignore


def test_deep_recursion_is_reported_not_crashed() -> None:
    registry = scalar_ops()
    module = load(FACTORIAL)
    error = failure(module, np.array(100_000, dtype=np.int64), packed=registry)
    assert error.message == f"recursion too deep: more than {MAX_CALL_DEPTH} nested calls"


FIBONACCI_AND_PARITY = """
relax.function @main(%n: !relax.tensor<[], i64>) -> !relax.tuple<tensor<[], i64>, tensor<[], bool>> {
  %f = relax.call @fib(%n) : !relax.tensor<[], i64>
  %e = relax.call @even(%n) : !relax.tensor<[], bool>
  %t = relax.tuple(%f, %e) : !relax.tuple<tensor<[], i64>, tensor<[], bool>>
  relax.return %t
}
relax.function private @fib(%n: !relax.tensor<[], i64>) -> !relax.tensor<[], i64> {
  %one = relax.constant dense<[], i64, 1> : !relax.tensor<[], i64>
  %two = relax.constant dense<[], i64, 2> : !relax.tensor<[], i64>
  %small = relax.call_pure_packed "test.less"(%n, %two) : !relax.tensor<[], bool>
  %r = relax.if %small : !relax.tensor<[], i64> {
    relax.yield %n
  } else {
    %a = relax.call_pure_packed "test.subtract"(%n, %one) : !relax.tensor<[], i64>
    %b = relax.call_pure_packed "test.subtract"(%n, %two) : !relax.tensor<[], i64>
    %fa = relax.call @fib(%a) : !relax.tensor<[], i64>
    %fb = relax.call @fib(%b) : !relax.tensor<[], i64>
    %s = relax.add %fa, %fb : !relax.tensor<[], i64>
    relax.yield %s
  }
  relax.return %r
}
relax.function private @even(%n: !relax.tensor<[], i64>) -> !relax.tensor<[], bool> {
  %zero = relax.constant dense<[], i64, 0> : !relax.tensor<[], i64>
  %one = relax.constant dense<[], i64, 1> : !relax.tensor<[], i64>
  %done = relax.call_pure_packed "test.equal"(%n, %zero) : !relax.tensor<[], bool>
  %r = relax.if %done : !relax.tensor<[], bool> {
    %t = relax.constant dense<[], bool, true> : !relax.tensor<[], bool>
    relax.yield %t
  } else {
    %m = relax.call_pure_packed "test.subtract"(%n, %one) : !relax.tensor<[], i64>
    %o = relax.call @odd(%m) : !relax.tensor<[], bool>
    relax.yield %o
  }
  relax.return %r
}
relax.function private @odd(%n: !relax.tensor<[], i64>) -> !relax.tensor<[], bool> {
  %zero = relax.constant dense<[], i64, 0> : !relax.tensor<[], i64>
  %one = relax.constant dense<[], i64, 1> : !relax.tensor<[], i64>
  %done = relax.call_pure_packed "test.equal"(%n, %zero) : !relax.tensor<[], bool>
  %r = relax.if %done : !relax.tensor<[], bool> {
    %f = relax.constant dense<[], bool, false> : !relax.tensor<[], bool>
    relax.yield %f
  } else {
    %m = relax.call_pure_packed "test.subtract"(%n, %one) : !relax.tensor<[], i64>
    %e = relax.call @even(%m) : !relax.tensor<[], bool>
    relax.yield %e
  }
  relax.return %r
}
"""


@pytest.mark.parametrize("n", [0, 1, 2, 9, 12])
def test_fibonacci_and_mutual_recursion(n: int) -> None:
    fib, even = run(  # pyright: ignore[reportGeneralTypeIssues]
        load(FIBONACCI_AND_PARITY), "main", np.array(n, dtype=np.int64), packed=scalar_ops()
    )
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    assert int(fib) == a and bool(even) == (n % 2 == 0)


def test_if_on_a_prim_condition_and_branch_scoped_symbols() -> None:
    module = load("""
relax.function @main(%c: !relax.prim<bool>, %x: !relax.object) -> !relax.tensor<ndim = 1, f32> {
  %r = relax.if %c : !relax.tensor<ndim = 1, f32> {
    %t = relax.match_cast %x : !relax.tensor<[k], f32>
    relax.yield %t
  } else {
    %u = relax.match_cast %x : !relax.tensor<[j], f32>
    relax.yield %u
  }
  %v = relax.match_cast %x : !relax.tensor<[k], f32>
  relax.return %v
}
""")
    x = rng_array(3)
    assert run(module, "main", True, x) is x
    assert run(module, "main", False, x) is x


# --- closures -----------------------------------------------------------------------

CLOSURES = f"""
relax.function @main(%x: {F32}) -> !relax.tensor<[n, 4], f32> {{
  %make = relax.call @make_adder(%x) : !relax.func<({F32}) -> {F32}>
  %r = relax.invoke %make(%x) : {F32}
  relax.return %r
}}
relax.function private @make_adder(%offset: {F32}) -> !relax.func<({F32}) -> {F32}> {{
  %f = relax.lambda (%y: {F32}) -> {F32} {{
    %z = relax.add %y, %offset : {F32}
    %s = relax.shape [n] : !relax.shape<[n]>
    relax.return %z
  }}
  relax.return %f
}}
"""


def test_closure_returned_from_a_function_captures_values_and_symbols() -> None:
    x = rng_array(5, 4)
    np.testing.assert_allclose(run(load(CLOSURES), "main", x), 2 * x)  # pyright: ignore


def test_closure_carries_run_time_struct_info() -> None:
    module = load(f"""
relax.function @main(%x: {F32}) -> !relax.object {{
  %f = relax.lambda (%y: {F32}) -> {F32} {{
    relax.return %y
  }}
  %o = relax.match_cast %f : !relax.object
  %good = relax.match_cast %o : !relax.func<({F32}) -> {F32}>
  %bad = relax.match_cast %o : !relax.func<(tensor<[n, 5], f32>) -> tensor<[n, 5], f32>>
  relax.return %good
}}
""")
    error = failure(module, rng_array(2, 4))
    assert error.message.startswith("match_cast: expected a function of type")
    assert "func<(tensor<[2, 4], f32>) -> tensor<[2, 4], f32>>" in error.message


def test_recursive_lambda() -> None:
    module = load("""
relax.function @main(%n: !relax.tensor<[], i64>) -> !relax.tensor<[], i64> {
  %sum = relax.lambda recursive(%self) (%k: !relax.tensor<[], i64>) -> !relax.tensor<[], i64> {
    %zero = relax.constant dense<[], i64, 0> : !relax.tensor<[], i64>
    %one = relax.constant dense<[], i64, 1> : !relax.tensor<[], i64>
    %done = relax.call_pure_packed "test.equal"(%k, %zero) : !relax.tensor<[], bool>
    %r = relax.if %done : !relax.tensor<[], i64> {
      relax.yield %zero
    } else {
      %m = relax.call_pure_packed "test.subtract"(%k, %one) : !relax.tensor<[], i64>
      %rest = relax.invoke %self(%m) : !relax.tensor<[], i64>
      %s = relax.add %k, %rest : !relax.tensor<[], i64>
      relax.yield %s
    }
    relax.return %r
  }
  %total = relax.invoke %sum(%n) : !relax.tensor<[], i64>
  relax.return %total
}
""")
    assert int(run(module, "main", np.array(10), packed=scalar_ops())) == 55  # pyright: ignore


def test_global_functions_and_operators_as_values() -> None:
    module = load(f"""
relax.function @main(%x: {F32}) -> {F32} {{
  %g = relax.global_var @double : !relax.func<({F32}) -> {F32}>
  %a = relax.invoke %g(%x) : {F32}
  %op = relax.op_ref "relax.add" : !relax.object
  %b = relax.invoke %op(%a, %x) : {F32}
  relax.return %b
}}
relax.function private @double(%y: {F32}) -> {F32} {{
  %z = relax.add %y, %y : {F32}
  relax.return %z
}}
""")
    x = rng_array(2, 4)
    np.testing.assert_allclose(run(module, "main", x), 3 * x)  # pyright: ignore


# --- packed functions and call_tir ---------------------------------------------------


def test_packed_calls_through_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    module = load(f"""
relax.function impure @main(%x: {F32}) -> !relax.tuple<{F32}, {F32}, object, {F32}> {{
  %printed = relax.call_packed "builtin.print"(%x) : !relax.object
  %copy = relax.call_dps_packed "builtin.copy"(%x) : {F32}
  %sum = relax.call_pure_packed "builtin.add"(%x, %copy) : {F32}
  %ext = relax.extern_func "builtin.identity" : !relax.func<derive "default_derive", impure>
  %same = relax.invoke %ext(%sum) : {F32}
  %t = relax.tuple(%copy, %sum, %printed, %same) : !relax.tuple<{F32}, {F32}, object, {F32}>
  relax.return %t
}}
""")
    x = rng_array(2, 4)
    copy, total, printed, same = run(module, "main", x)  # pyright: ignore
    np.testing.assert_array_equal(copy, x)
    assert copy is not x and printed is NULL and same is total
    np.testing.assert_allclose(total, 2 * x)
    assert capsys.readouterr().out.startswith("[[")


def test_packed_function_errors_are_located() -> None:
    module = load(f"""
relax.function impure @main(%x: {F32}) -> !relax.object {{
  %r = relax.call_packed "no.such.function"(%x) : !relax.object
  relax.return %r
}}
""")
    error = failure(module, rng_array(1, 4))
    assert (
        error.message
        == "relax.call_packed: no packed function named 'no.such.function' is registered"
    )
    registry = PackedRegistry()
    registry.register("no.such.function", lambda x: 1 / 0)
    error = failure(module, rng_array(1, 4), packed=registry)
    assert "packed function 'no.such.function' failed: division by zero" in error.message


def test_packed_result_must_match_its_declared_type() -> None:
    module = load(f"""
relax.function @main(%x: {F32}) -> {F32} {{
  %r = relax.call_pure_packed "builtin.identity"(%x) : !relax.tensor<[n, 5], f32>
  relax.return %x
}}
""")
    error = failure(module, rng_array(1, 4))
    assert "relax.call_pure_packed: the result does not match its declared type" in error.message


CALL_TIR = """
relax.function @main(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %out = relax.dataflow {
    %z = relax.call_tir @vector_add(%x, %y) : !relax.tensor<[n], f32>
    relax.output %z
  }
  relax.return %out
}
func.func @vector_add(%a: tensor<?xf32>, %b: tensor<?xf32>, %out: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.add ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%out : tensor<?xf32>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}
"""


def test_call_tir_allocates_outputs_and_calls_the_kernel() -> None:
    x, y = rng_array(5), rng_array(5)
    np.testing.assert_allclose(run(load(CALL_TIR), "main", x, y), x + y)  # pyright: ignore


def test_machine_reuses_compiled_functions() -> None:
    machine = Machine(load(CLOSURES))
    first = machine.function("main")
    assert machine.function("main") is first
    x = rng_array(3, 4)
    result = machine.run("main", x)
    np.testing.assert_allclose(result, 2 * x)  # pyright: ignore
    assert isinstance(machine.run("make_adder", x), Closure)
