"""ONNX's newer element types: Cast/CastLike to and from the float8, float4 and
narrow integer types (saturate on and off, wrap-around) and QuantizeLinear to them,
against ONNX's reference evaluator at special values, on the reference and lowered
backends; the narrow integers held in int8/uint8."""

from __future__ import annotations

import numpy as np
import pytest
from onnx_check import helper, model, run

from relax_dialect.frontends.onnx import from_onnx
from relax_dialect.frontends.onnx.dtypes import NARROW_INTEGERS, data_type, stored

onnx = pytest.importorskip("onnx")
ml_dtypes = pytest.importorskip("ml_dtypes")
from onnx import TensorProto  # noqa: E402

SPECIALS = np.array(
    [
        0.0,
        -0.0,
        np.nan,
        np.inf,
        -np.inf,
        0.3,
        -2.5,
        3.5,
        17.3,
        -9.5,
        448.0,
        500.0,
        -1e6,
        57344.0,
        65000.0,
        1e-7,
        -1e-7,
        2.0**-10,
    ],
    dtype=np.float32,
)
FLOAT8 = [
    TensorProto.FLOAT8E4M3FN,
    TensorProto.FLOAT8E4M3FNUZ,
    TensorProto.FLOAT8E5M2,
    TensorProto.FLOAT8E5M2FNUZ,
]
BACKENDS = ("reference", "lowered")


def onnx_reference(m: onnx.ModelProto, feeds: dict) -> list[np.ndarray]:
    from onnx.reference import ReferenceEvaluator

    return [stored(np.asarray(v)) for v in ReferenceEvaluator(m).run(None, feeds)]


def same(actual: np.ndarray, expected: np.ndarray) -> bool:
    """Equal element for element (NaN to NaN, the sign of zero kept), of one dtype."""
    if actual.dtype != expected.dtype:
        return False
    if expected.dtype.kind in "iub":
        return bool(np.array_equal(actual, expected))
    wide_a, wide_e = actual.astype(np.float64), expected.astype(np.float64)
    nan = np.isnan(wide_a) & np.isnan(wide_e)
    return bool(np.all(nan | ((wide_a == wide_e) & (np.signbit(wide_a) == np.signbit(wide_e)))))


def cast_model(to: int, source: np.dtype, opset: int = 23, **attributes: object) -> onnx.ModelProto:
    node = helper.make_node("Cast", ["x"], ["y"], to=to, **attributes)
    return model([node], {"x": (source, [None])}, ["y"], opset=opset)


@pytest.mark.parametrize("saturate", [0, 1])
@pytest.mark.parametrize("to", FLOAT8, ids=lambda c: TensorProto.DataType.Name(c))
def test_cast_to_float8_saturates_as_onnx(to: int, saturate: int) -> None:
    m = cast_model(to, np.float32, saturate=saturate)
    (want,) = onnx_reference(m, {"x": SPECIALS})
    for backend in BACKENDS:
        (got,) = run(m, {"x": SPECIALS}, backend)
        assert same(got, want), (backend, got, want)


@pytest.mark.parametrize("to", [TensorProto.BFLOAT16, TensorProto.FLOAT4E2M1])
def test_cast_to_bfloat16_and_float4(to: int) -> None:
    m = cast_model(to, np.float32)
    (want,) = onnx_reference(m, {"x": SPECIALS})
    for backend in BACKENDS:
        (got,) = run(m, {"x": SPECIALS}, backend)
        assert same(got, want), (backend, got, want)


@pytest.mark.parametrize("to", sorted(NARROW_INTEGERS), ids=lambda c: NARROW_INTEGERS[c].name)
@pytest.mark.parametrize("source", [np.float32, np.int32, np.int64])
def test_cast_to_narrow_integers_wraps(to: int, source: type) -> None:
    values = np.array([-9, -8, -3, -1, 0, 1, 2, 3, 7, 8, 15, 16, 17, 300, -300], source)
    if source is np.float32:
        values = np.concatenate([values, np.array([2.5, -2.5, 7.9, -8.9], source)])
    m = cast_model(to, source)
    (want,) = onnx_reference(m, {"x": values})
    narrow = NARROW_INTEGERS[to]
    assert want.dtype == narrow.storage.to_numpy()
    assert want.min() >= narrow.low and want.max() <= narrow.high
    for backend in BACKENDS:
        (got,) = run(m, {"x": values}, backend)
        assert same(got, want), (backend, got, want)


@pytest.mark.parametrize("code", sorted(NARROW_INTEGERS), ids=lambda c: NARROW_INTEGERS[c].name)
def test_narrow_integer_inputs_widen_exactly(code: int) -> None:
    narrow = NARROW_INTEGERS[code]
    values = np.arange(narrow.low, narrow.high + 1).astype(getattr(ml_dtypes, narrow.name.lower()))
    m = cast_model(TensorProto.FLOAT, values.dtype)
    module = from_onnx(m)
    assert "tensor<[x_0], " + str(narrow.storage) + ">" in str(module)
    for backend in BACKENDS:
        (got,) = run(m, {"x": values}, backend)
        np.testing.assert_array_equal(got, values.astype(np.float32))


@pytest.mark.parametrize(
    "code", [TensorProto.INT4, TensorProto.UINT2, TensorProto.FLOAT8E4M3FN, TensorProto.FLOAT4E2M1]
)
def test_quantize_to_narrow_types_saturates(code: int) -> None:
    x = (np.linspace(-60, 60, 24, dtype=np.float32)).reshape(2, 12)
    scale = np.array([2.0, 0.5], np.float32)
    zero = np.zeros(2, onnx.helper.tensor_dtype_to_np_dtype(code))
    node = helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], axis=0)
    m = model([node], {"x": (np.float32, [2, 12])}, ["y"], {"s": scale, "z": zero}, opset=23)
    (want,) = onnx_reference(m, {"x": x})
    for backend in BACKENDS:
        (got,) = run(m, {"x": x}, backend)
        assert same(got, want), (backend, got, want)


E8M0_VALUES = np.concatenate(
    [
        SPECIALS,
        np.array(
            [
                1.5,
                3.0,
                6.0,
                1.4,
                0.75,
                2.0**-127,
                3 * 2.0**-128,
                2.0**-130,
                2.0**-126,
                2.0**127,
                1.4 * 2.0**127,
                1.6 * 2.0**127,
                3.4e38,
                -0.1,
                -3.0,
            ],
            np.float32,
        ),
    ]
)
"""Powers of two, the points half-way and beyond, f32 subnormals, the format's top."""


@pytest.mark.parametrize("saturate", [0, 1])
@pytest.mark.parametrize("mode", ["up", "nearest", "down"])
@pytest.mark.parametrize("source", [np.float32, np.float16])
def test_cast_to_float8e8m0_rounds_as_onnx(mode: str, saturate: int, source: type) -> None:
    with np.errstate(over="ignore"):  # beyond float16: infinite
        values = E8M0_VALUES.astype(source)
    m = cast_model(TensorProto.FLOAT8E8M0, source, 25, round_mode=mode, saturate=saturate)
    (want,) = onnx_reference(m, {"x": values})
    for backend in BACKENDS:
        (got,) = run(m, {"x": values}, backend)
        assert same(got, want), (backend, values[~same_each(got, want)])


def same_each(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    wide_a, wide_e = actual.astype(np.float64), expected.astype(np.float64)
    return (wide_a == wide_e) | (np.isnan(wide_a) & np.isnan(wide_e))


def test_data_types_of_the_new_codes() -> None:
    assert str(data_type(TensorProto.BFLOAT16)) == "bf16"
    assert str(data_type(TensorProto.FLOAT8E5M2FNUZ)) == "f8E5M2FNUZ"
    assert str(data_type(TensorProto.INT4)) == "i8"
    assert str(data_type(TensorProto.UINT2)) == "ui8"


def test_narrow_integers_inside_subgraphs_keep_their_range() -> None:
    """An ``INT4`` zero point defined in an ``If`` branch saturates to ``[-8, 7]``."""

    def branch(name: str, scale: float) -> onnx.GraphProto:
        zero = onnx.helper.make_tensor(f"{name}_z", TensorProto.INT4, [], [1])
        node = helper.make_node("QuantizeLinear", ["x", f"{name}_s", f"{name}_z"], [f"{name}_y"])
        s = onnx.numpy_helper.from_array(np.array(scale, np.float32), f"{name}_s")
        out = helper.make_tensor_value_info(f"{name}_y", TensorProto.INT4, [6])
        return helper.make_graph([node], name, [], [out], [s, zero])

    node = helper.make_node(
        "If", ["c"], ["y"], then_branch=branch("then", 0.5), else_branch=branch("else", 4.0)
    )
    m = model([node], {"c": (np.bool_, []), "x": (np.float32, [6])}, ["y"], opset=23)
    x = np.array([-20.0, -3.0, 0.2, 1.0, 3.4, 30.0], np.float32)
    for c in (True, False):
        feeds = {"c": np.array(c), "x": x}
        (want,) = onnx_reference(m, feeds)
        for backend in BACKENDS:
            (got,) = run(m, feeds, backend)
            assert same(got, want), (c, backend, got, want)
