"""If, Loop and Scan against onnxruntime on the reference and lowered backends:
branches reading outer values, a loop stopped by its condition or its trip count
(or running no iteration), a scan in both directions."""

from __future__ import annotations

import numpy as np
import pytest
from onnx_check import TensorProto, check, helper, model

from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends.onnx import from_onnx

RNG = np.random.default_rng(11)


def graph(nodes, inputs, outputs, name: str = "body"):
    """A subgraph; ``inputs``/``outputs`` as ``name: (element type, shape)``."""
    return helper.make_graph(
        nodes,
        name,
        [helper.make_tensor_value_info(n, t, s) for n, (t, s) in inputs.items()],
        [helper.make_tensor_value_info(n, t, s) for n, (t, s) in outputs.items()],
    )


def typed_model(nodes, inputs, outputs, opset: int = 13):
    """A model whose graph outputs are declared (ONNX infers no types for a loop's)."""
    test = graph(nodes, inputs, outputs, "test")
    return helper.make_model(test, opset_imports=[helper.make_opsetid("", opset)])


def test_if_branches_read_outer_values() -> None:
    then = graph([helper.make_node("Add", ["x", "x"], ["t"])], {}, {"t": (TensorProto.FLOAT, None)})
    other = graph([helper.make_node("Neg", ["x"], ["e"])], {}, {"e": (TensorProto.FLOAT, None)})
    node = helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other)
    m = model([node], {"c": (np.bool_, []), "x": (np.float32, ["n", 2])}, ["y"])
    x = RNG.standard_normal((3, 2)).astype(np.float32)
    for c in (True, False):
        check(m, {"c": np.array(c), "x": x})


def loop_model():
    """``y`` doubled each iteration while its sum stays below ``limit`` and at most
    ``trips`` times; the sums are stacked as a scan output."""
    body = graph(
        [
            helper.make_node("Add", ["y_in", "y_in"], ["y_out"]),
            helper.make_node("ReduceSum", ["y_out"], ["total"], keepdims=0),
            helper.make_node("Less", ["total", "limit"], ["going"]),
            helper.make_node("Identity", ["total"], ["scanned"]),
        ],
        {
            "i": (TensorProto.INT64, []),
            "c": (TensorProto.BOOL, []),
            "y_in": (TensorProto.FLOAT, [3]),
        },
        {
            "going": (TensorProto.BOOL, []),
            "y_out": (TensorProto.FLOAT, [3]),
            "scanned": (TensorProto.FLOAT, []),
        },
    )
    node = helper.make_node("Loop", ["trips", "cond", "y"], ["y_final", "sums"], body=body)
    inputs = {
        "trips": (TensorProto.INT64, []),
        "cond": (TensorProto.BOOL, []),
        "y": (TensorProto.FLOAT, [3]),
        "limit": (TensorProto.FLOAT, []),
    }
    outputs = {"y_final": (TensorProto.FLOAT, [3]), "sums": (TensorProto.FLOAT, [None])}
    return typed_model([node], inputs, outputs)


@pytest.mark.parametrize(
    ("trips", "cond", "limit"), [(10, True, 40.0), (2, True, 1e6), (0, True, 1.0), (5, False, 1.0)]
)
def test_loop_stops_by_condition_or_trip_count(trips: int, cond: bool, limit: float) -> None:
    feeds = {
        "trips": np.array(trips, np.int64),
        "cond": np.array(cond),
        "y": np.array([1, 2, 3], np.float32),
        "limit": np.array(limit, np.float32),
    }
    check(loop_model(), feeds)


def test_loop_is_a_recursive_function() -> None:
    assert "relax.lambda recursive" in str(from_onnx(loop_model()))


@pytest.mark.parametrize("directions", [(0, 0), (1, 0), (0, 1)])
def test_scan_running_sum(directions: tuple[int, int]) -> None:
    body = graph(
        [
            helper.make_node("Add", ["sum_in", "row"], ["sum_out"]),
            helper.make_node("Identity", ["sum_out"], ["partial"]),
        ],
        {"sum_in": (TensorProto.FLOAT, [2]), "row": (TensorProto.FLOAT, [2])},
        {"sum_out": (TensorProto.FLOAT, [2]), "partial": (TensorProto.FLOAT, [2])},
    )
    node = helper.make_node(
        "Scan",
        ["initial", "rows"],
        ["total", "partials"],
        body=body,
        num_scan_inputs=1,
        scan_input_directions=[directions[0]],
        scan_output_directions=[directions[1]],
        scan_output_axes=[1],
    )
    m = model(
        [node], {"initial": (np.float32, [2]), "rows": (np.float32, [5, 2])}, ["total", "partials"]
    )
    feeds = {
        "initial": np.zeros(2, np.float32),
        "rows": RNG.standard_normal((5, 2)).astype(np.float32),
    }
    check(m, feeds)


def test_loop_of_unknown_scan_shape_that_may_not_run_is_refused() -> None:
    body = graph(
        [
            helper.make_node("Identity", ["c"], ["c_out"]),
            helper.make_node("Identity", ["x"], ["s"]),
        ],
        {"i": (TensorProto.INT64, []), "c": (TensorProto.BOOL, [])},
        {"c_out": (TensorProto.BOOL, []), "s": (TensorProto.FLOAT, ["m"])},
    )
    node = helper.make_node("Loop", ["trips", ""], ["out"], body=body, name="repeat")
    inputs = {"trips": (TensorProto.INT64, []), "x": (TensorProto.FLOAT, ["m"])}
    m = typed_model([node], inputs, {"out": (TensorProto.FLOAT, [None, "m"])})
    with pytest.raises(DiagnosticError, match=r"node 'repeat' \(Loop, opset 13\).*no static shape"):
        from_onnx(m)
