"""Shape and layout converters against onnxruntime, in every opset form (axes
and split lengths as attributes or inputs, Slice's attributes or inputs...)."""

from __future__ import annotations

import numpy as np
import pytest
from onnx_check import check, onnx, single

RNG = np.random.default_rng(2)


def floats(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def i64(*values: int) -> np.ndarray:
    return np.array(values, np.int64)


def test_identity_shape_and_size() -> None:
    x = floats(2, 3, 4)
    for op_type in ("Identity", "Shape", "Size"):
        check(single(op_type, {"x": x}), {"x": x})


@pytest.mark.parametrize(("start", "end"), [(1, None), (-2, None), (0, -1), (1, 2), (-10, 10)])
def test_shape_start_and_end(start: int, end: int | None) -> None:
    x = floats(2, 3, 4)
    attrs = {"start": start} | ({"end": end} if end is not None else {})
    check(single("Shape", {"x": x}, opset=15, **attrs), {"x": x})


@pytest.mark.parametrize("to", [1, 6, 7, 9, 11])
def test_cast(to: int) -> None:
    x = np.array([-1.7, 0.0, 0.5, 2.9], np.float32)
    check(single("Cast", {"x": x}, to=to), {"x": x})


def test_cast_like() -> None:
    x, like = np.array([1.5, -2.5], np.float32), np.array([0], np.int32)
    check(single("CastLike", {"x": x, "like": like}), {"x": x, "like": like})


@pytest.mark.parametrize(
    ("shape", "target", "allowzero"),
    [
        ((2, 3, 4), i64(4, -1), 0),
        ((2, 3, 4), i64(0, 12), 0),
        ((2, 3, 4), i64(-1), 0),
        ((0, 3), i64(3, 0), 1),
    ],
)
def test_reshape(shape: tuple[int, ...], target: np.ndarray, allowzero: int) -> None:
    x = floats(*shape)
    check(
        single("Reshape", {"x": x}, opset=14, initializers={"t": target}, allowzero=allowzero),
        {"x": x},
    )


def test_reshape_to_a_run_time_shape() -> None:
    x, target = floats(2, 6), i64(3, 4)
    check(single("Reshape", {"x": x, "t": target}), {"x": x, "t": target}, backends=("reference",))


@pytest.mark.parametrize("axis", [0, 1, 2, 3, -1])
def test_flatten(axis: int) -> None:
    x = floats(2, 3, 4)
    check(single("Flatten", {"x": x}, axis=axis), {"x": x})


@pytest.mark.parametrize("opset", [11, 13])
def test_unsqueeze_and_squeeze_axes_as_attribute_or_input(opset: int) -> None:
    x = floats(3, 4)
    axes = [0, -1]
    if opset < 13:
        check(single("Unsqueeze", {"x": x}, opset=opset, axes=axes), {"x": x})
    else:
        check(single("Unsqueeze", {"x": x}, opset=opset, initializers={"a": i64(*axes)}), {"x": x})
    y = floats(1, 3, 1, 4)
    if opset < 13:
        check(single("Squeeze", {"y": y}, opset=opset, axes=[0, -2]), {"y": y})
    else:
        check(single("Squeeze", {"y": y}, opset=opset, initializers={"a": i64(0, -2)}), {"y": y})
    check(single("Squeeze", {"y": y}, opset=opset), {"y": y})


@pytest.mark.parametrize(
    ("shape", "target"), [((3, 1), i64(2, 1, 6)), ((1, 4), i64(3, 1)), ((2, 1, 3), i64(2, 5, 3))]
)
def test_expand_broadcasts_both_ways(shape: tuple[int, ...], target: np.ndarray) -> None:
    x = floats(*shape)
    check(single("Expand", {"x": x}, initializers={"t": target}), {"x": x})


def test_tile() -> None:
    x = floats(2, 3)
    check(single("Tile", {"x": x}, initializers={"r": i64(2, 1)}), {"x": x})


@pytest.mark.parametrize("perm", [None, [1, 0, 2], [2, 0, 1]])
def test_transpose(perm: list[int] | None) -> None:
    x = floats(2, 3, 4)
    attrs = {} if perm is None else {"perm": perm}
    check(single("Transpose", {"x": x}, **attrs), {"x": x})


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat(axis: int) -> None:
    feeds = {"a": floats(2, 2), "b": floats(2, 2), "c": floats(2, 2)}
    check(single("Concat", feeds, axis=axis), feeds)


@pytest.mark.parametrize(
    ("opset", "lengths", "outputs"),
    [(11, [1, 3], 2), (13, [2, 2], 2), (13, None, 2), (18, None, 3), (11, None, 4)],
)
def test_split(opset: int, lengths: list[int] | None, outputs: int) -> None:
    x = floats(3, 4)
    attrs: dict[str, object] = {"axis": 1}
    initializers = None
    if lengths is not None and opset < 13:
        attrs["split"] = lengths
    elif lengths is not None:
        initializers = {"s": i64(*lengths)}
    if opset >= 18 and lengths is None:
        attrs["num_outputs"] = outputs
    m = single("Split", {"x": x}, opset=opset, initializers=initializers, outputs=outputs, **attrs)
    check(m, {"x": x})


SLICES = [
    (i64(1), i64(3), None, None),
    (i64(0, 1), i64(-1, 100), i64(0, 1), None),
    (i64(-1), i64(-100), i64(1), i64(-1)),
    (i64(3), i64(0), i64(0), i64(-2)),
    (i64(0), i64(4), i64(-1), i64(2)),
]


@pytest.mark.parametrize(("starts", "ends", "axes", "steps"), SLICES)
def test_slice_inputs(starts: np.ndarray, ends: np.ndarray, axes, steps) -> None:
    x = floats(5, 6)
    initializers = {"s": starts, "e": ends}
    names = ["x", "s", "e"]
    for name, value in (("a", axes), ("t", steps)):
        names.append(name if value is not None else "")
        if value is not None:
            initializers[name] = value
    while names[-1] == "":
        names.pop()
    check(single("Slice", {"x": x}, initializers=initializers, inputs=names), {"x": x})


def test_slice_attributes_before_opset_10() -> None:
    x = floats(5, 6)
    check(single("Slice", {"x": x}, opset=9, starts=[1, -3], ends=[4, 5], axes=[0, 1]), {"x": x})


def test_slice_with_run_time_bounds() -> None:
    x, s, e = floats(5, 6), i64(1, 2), i64(4, 5)
    feeds = {"x": x, "s": s, "e": e}
    check(single("Slice", feeds, initializers={"a": i64(0, 1)}), feeds, backends=("reference",))


@pytest.mark.parametrize(
    ("axis", "indices"),
    [(0, i64(2, 0, -1)), (1, np.array([[0, 1], [-2, 2]], np.int64)), (1, np.array(1, np.int64))],
)
def test_gather_constant_indices(axis: int, indices: np.ndarray) -> None:
    x = floats(3, 4)
    check(single("Gather", {"x": x}, initializers={"i": indices}, axis=axis), {"x": x})


def test_gather_run_time_indices_count_from_the_end() -> None:
    x, indices = floats(3, 4), np.array([0, -1, 2], np.int32)
    check(single("Gather", {"x": x, "i": indices}, axis=1), {"x": x, "i": indices})


def test_constant_forms() -> None:
    from onnx import numpy_helper

    value = floats(2, 2)
    check(single("Constant", {}, value=numpy_helper.from_array(value)), {})
    check(single("Constant", {}, value_floats=[1.0, 2.5]), {})
    check(single("Constant", {}, value_int=3), {})
    check(single("Constant", {}, value_ints=[3, 4]), {})


def test_constant_of_shape_and_range() -> None:
    from onnx import numpy_helper

    shape = i64(2, 3)
    check(single("ConstantOfShape", {"s": shape}), {"s": shape}, backends=("reference",))
    fill = numpy_helper.from_array(np.array([7], np.int32))
    check(single("ConstantOfShape", {}, initializers={"s": shape}, value=fill), {})
    bounds = {"a": np.array(1, np.int64), "b": np.array(10, np.int64), "c": np.array(3, np.int64)}
    check(single("Range", {}, initializers=bounds), {})
    fbounds = {k: v.astype(np.float32) for k, v in bounds.items()}
    check(single("Range", {}, initializers=fbounds), {})


# --- targets, axes and bounds known only at run time (graph inputs) ---------------


def test_run_time_unsqueeze_and_squeeze_axes() -> None:
    x, axes = floats(3, 4), i64(-1, 0)
    check(single("Unsqueeze", {"x": x, "a": axes}, ranks=[4]), {"x": x, "a": axes})
    y, axes = floats(1, 3, 1, 4), i64(2, -4)
    check(single("Squeeze", {"y": y, "a": axes}, ranks=[2]), {"y": y, "a": axes})


def test_run_time_reshape_copies_zeros_and_infers_minus_one() -> None:
    x, target = floats(2, 3, 4), i64(0, -1, 2)
    check(single("Reshape", {"x": x, "t": target}, ranks=[3]), {"x": x, "t": target})


def test_run_time_expand_tile_and_split() -> None:
    x, target = floats(3, 1), i64(2, 1, 4)
    check(single("Expand", {"x": x, "t": target}, ranks=[3]), {"x": x, "t": target})
    y, repeats = floats(2, 3), i64(2, 3)
    check(single("Tile", {"y": y, "r": repeats}, ranks=[2]), {"y": y, "r": repeats})
    z, lengths = floats(6, 2), i64(1, 3, 2)
    m = single("Split", {"z": z, "s": lengths}, outputs=3, ranks=[2, 2, 2])
    check(m, {"z": z, "s": lengths})


def test_run_time_slice_bounds_axes_and_steps() -> None:
    x = floats(5, 6)
    bounds = {"s": i64(-1, 1), "e": i64(-100, 5), "a": i64(0, -1), "t": i64(-2, 2)}
    check(single("Slice", {"x": x, **bounds}), {"x": x, **bounds})


def test_run_time_range_binds_its_length() -> None:
    for dtype in (np.int32, np.float32):
        bounds = {"a": np.array(10, dtype), "b": np.array(1, dtype), "c": np.array(-3, dtype)}
        check(single("Range", bounds), bounds)


def test_flatten_of_dimensions_known_at_run_time() -> None:
    """A tensor whose shape is computed at run time (a run-time reshape) flattens
    through run-time products."""
    from onnx_check import helper, model

    x, target = floats(2, 3, 4), i64(4, 6)
    nodes = [
        helper.make_node("Reshape", ["x", "t"], ["r"]),
        helper.make_node("Flatten", ["r"], ["y"], axis=1),
    ]
    m = model(
        nodes,
        {"x": (np.float32, [2, 3, 4]), "t": (np.int64, [2])},
        {"y": (np.float32, [None, None])},
    )
    check(m, {"x": x, "t": target})


def positions_slice(start_from_end: bool = False) -> object:
    """``buffer[past : past + seq] + new`` for a 32-long buffer, the bounds computed
    from the inputs' shapes (as a causal mask is sliced); with ``start_from_end``,
    ``buffer[-seq:] + new`` instead."""
    from onnx_check import helper, model

    bounds = ["minus_s", "big"] if start_from_end else ["p", "total"]
    nodes = [
        helper.make_node("Shape", ["past"], ["p"]),
        helper.make_node("Shape", ["new"], ["s"]),
        helper.make_node("Add", ["p", "s"], ["total"]),
        helper.make_node("Neg", ["s"], ["minus_s"]),
        helper.make_node("Slice", ["buffer", *bounds], ["window"]),
        helper.make_node("Add", ["window", "new"], ["y"]),
    ]
    return model(
        nodes,
        {"past": (np.float32, ["past"]), "new": (np.float32, ["seq"])},
        {"y": (np.float32, ["seq"])},
        {"buffer": np.arange(32, dtype=np.float32), "big": i64(1 << 40)},
    )


def test_slice_at_positions_keeps_the_in_bounds_length() -> None:
    """The clamped length ``min(32, past + seq) - min(32, past)`` becomes ``seq``
    through a run-time-checked ``match_cast``."""
    from relax_dialect.frontends.onnx import from_onnx
    from relax_dialect.types import struct_info_text

    m = positions_slice()
    main = next(iter(from_onnx(m).body.block.ops))
    assert "seq" in struct_info_text(main.result_info())  # pyright: ignore
    feeds = {"past": floats(3), "new": floats(5)}
    check(m, feeds)


@pytest.mark.parametrize("backend", ["reference", "lowered"])
def test_slice_at_positions_beyond_the_tensor_is_a_located_error(
    backend: str, tmp_path, capsys
) -> None:
    from relax_xdsl.tools.relax_run import main as relax_run

    path, inputs = tmp_path / "window.onnx", tmp_path / "in.npz"
    onnx.save(positions_slice(), str(path))
    np.savez(inputs, past=floats(30), new=floats(5))
    assert relax_run([str(path), "--inputs", str(inputs), "--backend", backend]) == 1
    message = capsys.readouterr().err
    assert f"{path}: node 'Slice_4' (Slice, opset 17)" in message and "seq" in message


def test_slice_from_the_end_keeps_python_bounds() -> None:
    """A bound that may be negative (``-seq``) counts from the end: no in-bounds cast."""
    m = positions_slice(start_from_end=True)
    for seq in (5, 32):
        check(m, {"past": floats(3), "new": floats(seq)})


def test_reshape_copies_dimensions_inference_could_not_prove() -> None:
    """``[n, 4] + [m, 4]`` has unknown dimensions (``n`` and ``m`` unprovably equal);
    Reshape to ``[0, 2, -1]`` binds them to fresh variables and keeps rank 3."""
    from onnx_check import helper, model

    nodes = [
        helper.make_node("Add", ["a", "b"], ["sum"]),
        helper.make_node("Reshape", ["sum", "t"], ["y"]),
    ]
    m = model(
        nodes,
        {"a": (np.float32, ["n", 4]), "b": (np.float32, ["m", 4])},
        {"y": (np.float32, [None, 2, None])},
        {"t": i64(0, 2, -1)},
    )
    check(m, {"a": floats(3, 4), "b": floats(3, 4)})
