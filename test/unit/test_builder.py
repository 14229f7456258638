"""The Python builder: inference on emit, normalisation of nested expressions,
functions, dataflow blocks, closures, branches and calls."""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.utils.exceptions import VerifyException

from relax_dialect.builder import Builder, Shape, call
from relax_dialect.dtype import DataType
from relax_dialect.interpreter import run
from relax_dialect.types import ObjectType, TensorType
from relax_dialect.well_formed import check_well_formed

MATRIX = TensorType(["n", 4], "f32")


def printed(bb: Builder) -> str:
    assert check_well_formed(bb.module) == []
    return str(bb.module)


def test_docs_example_builds_runs_and_infers_symbolic_shapes() -> None:
    bb = Builder()
    with bb.function(
        "main", {"x": TensorType(["n", 784], "f32"), "w": TensorType([784, 10], "f32")}
    ) as main:
        x, w = main.params
        with bb.dataflow():
            logits = bb.emit(call("relax.matmul", x, w), "logits")
            probs = bb.emit(call("relax.nn.softmax", call("relax.nn.relu", logits), axis=-1))
            out = bb.emit_output(probs, "out")
        bb.emit_func_output(out)
    text = printed(bb)
    assert "%logits = relax.matmul %x, %w : !relax.tensor<[n, 10], f32>" in text
    assert logits.type == TensorType(["n", 10], "f32")
    result = run(bb.module, "main", np.ones((3, 784), "float32"), np.zeros((784, 10), "float32"))
    np.testing.assert_allclose(result, np.full((3, 10), 0.1), rtol=1e-6)


def test_nested_expressions_are_bound_left_to_right() -> None:
    bb = Builder()
    with bb.function("main", {"x": MATRIX}) as main:
        (x,) = main.params
        value = call(
            "relax.add",
            call("relax.multiply", x, x),
            call("relax.reshape", call("relax.exp", x), Shape(("n", 4))),
        )
        bb.emit_func_output((bb.emit(value, "y"), 3, "text", DataType.parse("f16")))
    names = re.findall(r"= (relax\.\w+)", printed(bb))
    assert names == [
        "relax.multiply",
        "relax.exp",
        "relax.shape",
        "relax.reshape",
        "relax.add",
        "relax.prim_value",
        "relax.str",
        "relax.dtype",
        "relax.tuple",
    ]


def test_a_malformed_call_fails_when_emitted() -> None:
    bb = Builder()
    with bb.function("main", {"x": TensorType([2, 3], "f32"), "y": TensorType([4], "f32")}) as main:
        x, y = main.params
        with pytest.raises(VerifyException, match="cannot be broadcast together"):
            bb.emit(call("relax.add", x, y))
        with pytest.raises(VerifyException, match=r"unknown operator 'relax\.nope'"):
            bb.emit(call("relax.nope", x))


def test_annotations_may_be_weaker_never_contradictory() -> None:
    bb = Builder()
    with bb.function("main", {"x": MATRIX}) as main:
        (x,) = main.params
        weaker = bb.emit(call("relax.add", x, x), "a", annotation=TensorType(dtype="f32", ndim=2))
        assert weaker.type == TensorType(dtype="f32", ndim=2)
        with pytest.raises(VerifyException, match="contradicts the inferred type"):
            bb.emit(call("relax.add", x, x), annotation=TensorType(["n", 5], "f32"))
        rebound = bb.emit(x, "b", annotation=ObjectType())
        assert rebound.owner.name == "relax.match_cast"  # pyright: ignore[reportAttributeAccessIssue]
        bb.emit_func_output(weaker)
    printed(bb)


def test_outputs_of_a_dataflow_block_are_substituted_after_it() -> None:
    bb = Builder()
    with bb.function("main", {"x": MATRIX}) as main:
        (x,) = main.params
        with bb.dataflow():
            inner = bb.emit_output(call("relax.add", x, x), "gv")
        after = bb.emit(call("relax.multiply", inner, inner), "after")
        bb.emit_func_output(after)
    text = printed(bb)
    assert "%after = relax.multiply %gv, %gv" in text
    with pytest.raises(VerifyException, match="outside a dataflow block"):
        bb.emit_output(x)


def test_a_dataflow_block_gives_one_result_per_output() -> None:
    """Two outputs of one value are two results; an outer value it outputs stays
    itself after the block (another branch or closure may use it)."""
    bb = Builder()
    with bb.function("main", {"x": MATRIX}) as main:
        (x,) = main.params
        with bb.dataflow() as results:
            inner = bb.emit(call("relax.exp", x), "e")
            bb.emit_output(inner, "a")
            bb.emit_output(inner, "b")
            bb.emit_output(x, "c")
        assert [r.name_hint for r in results] == ["a", "b", "c"]
        assert bb.normalize(x) is x
        bb.emit_func_output(bb.emit(call("relax.add", results[1], x), "y"))
    assert "%y = relax.add %b, %x" in printed(bb)


def test_closures_branches_and_calls_between_functions() -> None:
    bb = Builder()
    bb.declare_function("helper", {"x": MATRIX}, MATRIX, private=True)
    with bb.function("main", {"x": MATRIX, "c": TensorType([], "bool")}) as main:
        x, c = main.params
        with bb.closure({"y": MATRIX}, name="twice") as twice:
            (y,) = twice.params
            bb.emit_func_output(call("relax.add", y, x))
        result = bb.emit_if(
            c,
            lambda: bb.invoke(twice.value, [x]),
            lambda: bb.call_function("helper", [x]),
            "r",
        )
        bb.emit_func_output(result)
    with bb.function("helper", {"x": MATRIX}, MATRIX, private=True) as helper:
        bb.emit_func_output(call("relax.negative", helper.params[0]))
    text = printed(bb)
    assert "%twice = relax.lambda" in text and "relax.call @helper(%x)" in text
    data = np.arange(8, dtype="float32").reshape(2, 4)
    np.testing.assert_array_equal(run(bb.module, "main", data, np.array(True)), data + data)
    np.testing.assert_array_equal(run(bb.module, "main", data, np.array(False)), -data)


def test_recursive_closures_need_a_return_annotation() -> None:
    bb = Builder()
    with bb.function("main", {"x": MATRIX}) as main, pytest.raises(VerifyException):  # noqa: SIM117
        with bb.closure({"y": MATRIX}, recursive=True):
            pass
    assert main.params


def test_returning_inside_a_dataflow_block_is_rejected() -> None:
    bb = Builder()
    with bb.function("main", {"x": MATRIX}) as main, bb.dataflow():
        with pytest.raises(VerifyException, match="inside a dataflow block"):
            bb.emit_func_output(main.params[0])
        bb.emit_output(main.params[0])
