"""Structural lowering: signatures, symbolic dimensions and their run-time checks,
match_cast, if, tuples, shapes, prim values, constants, calls, call_tir, packed
calls, and the located errors for what cannot be lowered."""

from __future__ import annotations

import numpy as np
import pytest
from convert_harness import (
    TO_LLVM,
    assert_accepted,
    compare_with_reference,
    load,
    lower,
    lowered_failure,
    lowering_error,
    mlir_opt,
    needs_mlir,
)
from xdsl.dialects import func

from relax_dialect.dtype import BOOL, DataType
from relax_dialect.values import PrimValue, ShapeValue

F32 = "!relax.tensor<[n, 4], f32>"


def x(n: int, m: int = 4, dtype: str = "float32") -> np.ndarray:
    return np.arange(n * m, dtype=dtype).reshape(n, m) / 7


# --- signatures -----------------------------------------------------------------------

SIGNATURE = f"""
relax.function @main(%t: !relax.tuple<{F32.removeprefix("!relax.")}, shape<[n, 2]>>, %p: !relax.prim<i32>) -> !relax.tuple<shape<[n, 2]>, prim<i32>, tensor<[n, 4], f32>> {{
  %a = relax.tuple_get_item %t[0]
  %s = relax.tuple_get_item %t[1]
  %r = relax.call @helper(%a) : {F32}
  %out = relax.tuple(%s, %p, %r)
  relax.return %out
}}
relax.function private @helper(%y: !relax.tensor<[k, 4], f32>) -> !relax.tensor<[k, 4], f32> {{
  relax.return %y
}}
"""


def test_signature_is_flattened_and_tensor_arguments_are_read_only() -> None:
    module = lower(load(SIGNATURE))
    main, helper = [op for op in module.body.block.ops if isinstance(op, func.FuncOp)]
    text = assert_accepted(module)
    assert [str(t) for t in main.function_type.inputs] == [
        "tensor<?x4xf32>",
        "index",
        "index",
        "i32",
    ]
    assert [str(t) for t in main.function_type.outputs] == [
        "index",
        "index",
        "i32",
        "tensor<?x4xf32>",
    ]
    assert main.sym_visibility is None and helper.sym_visibility.data == "private"  # pyright: ignore
    assert "arg_attrs = [{bufferization.writable = false}, {}, {}, {}]" in text
    assert '"func.call"' in text and "callee = @helper" in text


def test_signature_runs() -> None:
    args = [(x(3), ShapeValue((3, 2))), PrimValue(5, DataType("int", 32))]
    compare_with_reference(SIGNATURE, args)


# --- symbolic dimensions ----------------------------------------------------------------

SYMBOLIC = f"""
relax.function @main(%x: {F32}, %y: !relax.tensor<[n * 2], f32>, %z: !relax.tensor<[m, n], f32>) -> !relax.tensor<[m, 4], f32> {{
  %r = relax.matmul %z, %x
  relax.return %r
}}
"""


def test_each_symbolic_variable_is_bound_once_and_checked_elsewhere() -> None:
    text = assert_accepted(lower(load(SYMBOLIC)))
    assert text.count('"tensor.dim"') == 4  # n, m and the sizes of %y and %z to check
    assert "test.mlir:2:54: @main: argument 1: dimension 0 is not n * 2" in text
    assert "test.mlir:2:87: @main: argument 2: dimension 1 is not n" in text


@pytest.mark.parametrize("n", [1, 2, 5])
def test_symbolic_program_runs(n: int) -> None:
    compare_with_reference(SYMBOLIC, [x(n), np.ones(2 * n, "float32"), x(3, n)])


def test_failed_argument_check_names_the_parameter() -> None:
    message = lowered_failure(SYMBOLIC, x(2), np.ones(5, "float32"), x(3, 2))
    assert message == "test.mlir:2:54: @main: argument 1: dimension 0 is not n * 2"


MATCH_CAST = """
relax.function @main(%x: !relax.tensor<ndim = 2, f32>) -> !relax.tensor<ndim = 1, f32> {
  %a = relax.match_cast %x : !relax.tensor<[m, m], f32>
  %s = relax.sum %a {axis = [1]}
  %b = relax.match_cast %s : !relax.tensor<[m], f32>
  relax.return %b
}
"""


def test_match_cast_binds_then_checks() -> None:
    text = assert_accepted(lower(load(MATCH_CAST)))
    assert "test.mlir:3:3: match_cast: dimension 1 is not m" in text
    assert text.count('"cf.assert"') == 1  # the second cast is proven
    compare_with_reference(MATCH_CAST, [x(4, 4)])
    assert lowered_failure(MATCH_CAST, x(3, 4)) == "test.mlir:3:3: match_cast: dimension 1 is not m"


ALIAS = """
relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<ndim = 2, f32> {
  %y = relax.alias %x
  %rank = relax.alias %y : !relax.tensor<ndim = 2, f32>
  %weak = relax.alias %x : !relax.object
  %back = relax.match_cast %weak : !relax.tensor<[2, 4], f32>
  %r = relax.add %rank, %back
  relax.return %r
}
"""


def test_alias_is_its_value() -> None:
    """``relax.alias`` lowers to the value's lowered values, cast to a weaker type;
    one of type ``object`` keeps them, so a ``match_cast`` back checks them."""
    text = assert_accepted(lower(load(ALIAS)))
    assert "test.mlir:6:3: match_cast: dimension 0 is not 2" in text
    compare_with_reference(ALIAS, [x(2)])
    assert lowered_failure(ALIAS, x(3)) == "test.mlir:6:3: match_cast: dimension 0 is not 2"


BROADCAST = """
relax.function @main(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[m, 4], f32>) -> !relax.tensor<ndim = 2, f32> {
  %r = relax.add %x, %y
  relax.return %r
}
"""


def test_undecided_broadcast_is_checked_at_run_time() -> None:
    compare_with_reference(BROADCAST, [x(3), x(3)])
    message = lowered_failure(BROADCAST, x(3), x(2))
    assert message.startswith("test.mlir:3:3: relax.add: dimension 0 of operand 1 does not match")


DECLARED = """
relax.function @main(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[m, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %r = relax.add %y, %x : !relax.tensor<[n, 4], f32>
  relax.return %r
}
"""


def test_declared_type_stronger_than_inferred_is_checked() -> None:
    """The result has the size of ``%y`` (m): it must be checked against n. (With
    ``%x`` first the result would have n's size, and the check be left out.)"""
    text = assert_accepted(lower(load(DECLARED)))
    assert "relax.add: the result does not match its declared type: dimension 0 is not n" in text


# --- control flow, values ---------------------------------------------------------------

IF = f"""
relax.function @main(%x: {F32}, %c: !relax.tensor<[], bool>, %p: !relax.prim<bool>) -> !relax.tuple<tensor<ndim = 2, f32>, tensor<[n, 4], f32>> {{
  %r = relax.if %c {{
    %e = relax.exp %x
    %v = relax.match_cast %e : !relax.tensor<[k, 4], f32>
    relax.yield %v
  }} else {{
    relax.yield %x
  }}
  %q = relax.if %p {{
    relax.yield %x
  }} else {{
    %z = relax.negative %x
    relax.yield %z
  }}
  %t = relax.tuple(%r, %q)
  relax.return %t
}}
"""


@pytest.mark.parametrize("flag", [True, False])
def test_if_lowers_to_scf_if(flag: bool) -> None:
    text = assert_accepted(lower(load(IF)))
    assert text.count('"scf.if"') == 2
    compare_with_reference(IF, [x(3), np.array(flag), PrimValue(not flag, BOOL)])


VALUES = """
relax.function @main(%x: !relax.tensor<[n, 2], f32>) -> !relax.tuple<shape<[n, n + 1, n floordiv 2, n floormod 3, max(n, 3)]>, prim<i64>, prim<f32>, tensor<[n, 2], f32>> {
  %s = relax.shape [n, n + 1, n floordiv 2, n floormod 3, max(n, 3)]
  %p = relax.prim_value n * 3 - 1 : !relax.prim<i64>
  %f = relax.prim_value 0.5 : !relax.prim<f32>
  %c = relax.constant dense<[2], f32, [1.5, -2.0]>
  %b = relax.constant dense<[2], bool, [true, false]>
  %a = relax.add %x, %c
  %m = relax.astype %b {dtype = f32}
  %r = relax.multiply %a, %m
  %t = relax.tuple(%s, %p, %f, %r)
  relax.return %t
}
"""


@pytest.mark.parametrize("n", [1, 4, 7])
def test_shapes_prim_values_and_constants(n: int) -> None:
    assert_accepted(lower(load(VALUES)))
    compare_with_reference(VALUES, [x(n, 2)])


# --- computations shared within a function ------------------------------------------------

SHARED = """
relax.function @main(%x: !relax.tensor<[b, s, 8], f32>, %wq: !relax.tensor<[8, 8], f32>, %wk: !relax.tensor<[8, 8], f32>, %w: !relax.tensor<[8], f32>) -> !relax.tuple<tensor<[b, s, 8], f32>, tensor<[s, 8], f32>, tensor<[s, 8], f32>> {
  %q = relax.matmul %x, %wq
  %k = relax.matmul %x, %wk
  %qk = relax.add %q, %k
  %n1 = relax.nn.rms_norm %qk, %w {axes = [-1]}
  %n2 = relax.nn.rms_norm %n1, %w {axes = [-1]}
  %m1 = relax.mean %n2 {axis = [0]}
  %m2 = relax.mean %qk {axis = [0]}
  %r = relax.tuple(%n2, %m1, %m2)
  relax.return %r
}
"""


def test_collapses_and_element_counts_are_shared() -> None:
    """Two products of one input collapse it once; a static element count is a
    float constant; one symbolic count is converted once for two means."""
    text = assert_accepted(lower(load(SHARED)))
    assert text.count('"tensor.collapse_shape"') == 1
    assert text.count("8.000000e+00 : f32") == 1
    assert text.count('"arith.index_cast"') == 1


@pytest.mark.parametrize("b", [1, 3])
def test_shared_computations_run(b: int) -> None:
    args = [x(b * 5, 8).reshape(b, 5, 8), x(8, 8), x(8, 8) / 3, np.arange(8, dtype="float32")]
    compare_with_reference(SHARED, args)


# --- calls ---------------------------------------------------------------------------------

CALLS = """
relax.function @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %a = relax.call @scale(%x) : !relax.tensor<[n, 4], f32>
  %b = relax.call_tir @double(%a) : !relax.tensor<[n, 4], f32>
  %c = relax.call @four(%b) : !relax.tensor<[n, 4], f32>
  relax.return %c
}
relax.function private @scale(%y: !relax.tensor<[k, 4], f32>) -> !relax.tensor<[k, 4], f32> {
  %r = relax.add %y, %y
  relax.return %r
}
relax.function private @four(%y: !relax.tensor<[4, 4], f32>) -> !relax.tensor<[4, 4], f32> {
  relax.return %y
}
func.func @double(%in: tensor<?x4xf32>, %out: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = linalg.add ins(%in, %in : tensor<?x4xf32>, tensor<?x4xf32>) outs(%out : tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %r : tensor<?x4xf32>
}
"""


def test_calls_and_call_tir() -> None:
    text = assert_accepted(lower(load(CALLS)))
    assert "test.mlir:5:3: @four: argument 0: dimension 0 is not 4" in text
    assert text.count('"func.call"') == 3
    compare_with_reference(CALLS, [x(4)])
    assert lowered_failure(CALLS, x(2)) == "test.mlir:5:3: @four: argument 0: dimension 0 is not 4"


PACKED = """
relax.function impure @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.tuple<tensor<[n, 4], f32>, tensor<[n], f32>, tensor<[n, 4], f32>> {
  %a = relax.call_pure_packed "my.exp"(%x) : !relax.tensor<[n, 4], f32>
  %s = relax.shape [n]
  %b = relax.call_dps_packed "my.first"(%x, %s) : !relax.tensor<[n], f32>
  %c = relax.call_packed "my.exp"(%a) : !relax.tensor<[n, 4], f32>
  %d = relax.call_pure_packed "my.exp"(%b) : !relax.tensor<[n], f32>
  %t = relax.tuple(%a, %d, %c)
  relax.return %t
}
"""


def test_packed_calls_become_calls_of_declarations() -> None:
    module = lower(load(PACKED))
    text = assert_accepted(module)
    declared = {
        op.sym_name.data: (
            op.attributes["relax.packed"].data,  # pyright: ignore
            op.attributes["relax.packed_kind"].data,  # pyright: ignore
            str(op.function_type),
        )
        for op in module.body.block.ops
        if isinstance(op, func.FuncOp) and op.is_declaration
    }
    assert declared == {
        "relax_packed.my_exp": (
            "my.exp",
            "call_pure_packed",
            "(tensor<?x4xf32>) -> tensor<?x4xf32>",
        ),
        "relax_packed.my_first": (
            "my.first",
            "call_dps_packed",
            "(tensor<?x4xf32>, index, tensor<?xf32>) -> tensor<?xf32>",
        ),
        "relax_packed.my_exp_1": ("my.exp", "call_packed", "(tensor<?x4xf32>) -> tensor<?x4xf32>"),
        "relax_packed.my_exp_2": ("my.exp", "call_pure_packed", "(tensor<?xf32>) -> tensor<?xf32>"),
    }
    assert 'sym_visibility = "private"' in text


# --- the pipeline to LLVM ------------------------------------------------------------------


@needs_mlir
def test_lowered_programs_lower_to_llvm() -> None:
    for program in (SIGNATURE, SYMBOLIC, MATCH_CAST, IF, VALUES, CALLS):
        text = assert_accepted(lower(load(program), pipeline=True))
        llvm = mlir_opt(text, f"--pass-pipeline=builtin.module({TO_LLVM})")
        assert "linalg." not in llvm and "tensor." not in llvm and "scf." not in llvm


# --- what cannot be lowered -------------------------------------------------------------------


def test_lambda_without_lifting_is_a_located_error() -> None:
    text = f"""
relax.function @main(%x: {F32}) -> {F32} {{
  %f = relax.lambda (%y: {F32}) -> {F32} {{
    relax.return %y
  }}
  relax.return %x
}}
"""
    from relax_xdsl.lowering.lowerer import LoweringError

    with pytest.raises(LoweringError) as error:
        lower(load(text))
    assert str(error.value).startswith(
        "test.mlir:3:3: error: relax.lambda: closures cannot be lowered; run relax-lambda-lift"
    )


def test_object_values_are_located_errors() -> None:
    text = """
relax.function @main(%x: !relax.object) -> !relax.object {
  relax.return %x
}
"""
    assert lowering_error(text) == (
        "test.mlir:2:22: error: @main: argument 0: cannot be lowered: a value of type object "
        "has no lowered form"
    )


def test_unknown_rank_is_a_located_error() -> None:
    text = """
relax.function @main(%x: !relax.tensor<f32>) -> !relax.tensor<f32> {
  %y = relax.exp %x
  relax.return %y
}
"""
    assert "tensor<f32> has an unknown rank" in lowering_error(text)
