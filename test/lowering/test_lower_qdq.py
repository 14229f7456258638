"""Lowering of quantize and dequantize: reference interpreter vs the bundled
interpreter vs the MLIR toolchain, at several values of the symbolic size ``n``."""

from __future__ import annotations

import numpy as np
from lower_harness import (
    Case,
    Family,
    FamilyTests,
    assert_covered,
    floats,
    inputs,
    ints,
    lowering_error,
    operators_of,
    tensor,
)

from relax_dialect.ops import qdq


def specials(*shape: int | str, dtype: str = "float32"):
    """Floats with halves (ties), NaN, infinities and values beyond 16 bits."""

    def make(n: int) -> np.ndarray:
        data = floats(*shape, dtype="float32")(n) * 40
        flat = data.reshape(-1)
        flat[::4] = np.round(flat[::4]) + 0.5
        count = min(len(flat[1::3]), 5)
        flat[1 : 1 + 3 * count : 3] = [np.nan, np.inf, -np.inf, 1e6, -1e6][:count]
        with np.errstate(over="ignore"):  # 1e6 is infinite in f16
            return data.astype(dtype)

    return make


def scalar(value: float | int, dtype: str):
    return lambda n: np.array(value, dtype)


def case(name: str, op: str, params: tuple[str, str, str], attrs: str, *makers) -> Case:
    data, scale, zero_point = params
    return Case(
        name,
        f"%x: {data}, %s: {scale}, %z: {zero_point}",
        f"%r = relax.{op} %x, %s, %z{attrs}",
        inputs(*makers),
    )


F32, F16 = tensor("", "f32"), tensor("", "f16")

CASES = [
    case(
        "quantize-i8",
        "quantize",
        (tensor("n, 4", "f32"), F32, tensor("", "i8")),
        "",
        specials("n", 4),
        scalar(0.5, "float32"),
        scalar(-3, "int8"),
    ),
    case(
        "quantize-ui8-per-axis",
        "quantize",
        (tensor("n, 4", "f32"), tensor("n", "f32"), tensor("n", "ui8")),
        " {axis = 0, out_dtype = ui8}",
        specials("n", 4),
        lambda n: np.linspace(0.25, 3, n).astype("float32"),
        ints("n", dtype="uint8", low=0, high=200),
    ),
    case(
        "quantize-i16-f16-data",
        "quantize",
        (tensor("2, n", "f16"), F32, tensor("1", "f16")),
        " {out_dtype = i16}",
        specials(2, "n", dtype="float16"),
        scalar(0.3, "float32"),
        lambda n: np.array([1.5], "float16"),
    ),
    case(
        "quantize-i16-in-f16-wraps",
        "quantize",
        (tensor("n, 3", "f16"), F16, tensor("", "i16")),
        " {out_dtype = i16}",
        specials("n", 3, dtype="float16"),
        scalar(0.5, "float16"),
        scalar(-2, "int16"),
    ),
    case(
        "quantize-ui16-f16-scale",
        "quantize",
        (tensor("n, 3", "f32"), tensor("3", "f16"), tensor("1, 1", "i32")),
        " {out_dtype = ui16}",
        specials("n", 3),
        lambda n: np.array([0.01, 1, 7], "float16"),
        lambda n: np.array([[100]], "int32"),
    ),
    case(
        "dequantize-i8",
        "dequantize",
        (tensor("n, 4", "i8"), tensor("4", "f32"), tensor("4", "i8")),
        "",
        ints("n", 4, dtype="int8", low=-128, high=128),
        floats(4),
        ints(4, dtype="int8", low=-128, high=128, salt=5),
    ),
    case(
        "dequantize-ui16-f16-zero-point",
        "dequantize",
        (tensor("n", "ui16"), F16, tensor("", "f16")),
        " {axis = 0}",
        ints("n", dtype="uint16", low=0, high=65536),
        scalar(0.125, "float16"),
        scalar(2.5, "float16"),
    ),
    case(
        "dequantize-i32-ui32-wraps",
        "dequantize",
        (tensor("n", "i32"), F32, tensor("", "ui32")),
        "",
        ints("n", low=-(2**31), high=2**31 - 1),
        scalar(1e-3, "float32"),
        scalar(4_000_000_000, "uint32"),
    ),
    case(
        "dequantize-f32-to-f16",
        "dequantize",
        (tensor("n, 2", "f32"), F32, tensor("", "ui8")),
        " {out_dtype = f16}",
        specials("n", 2),
        scalar(300, "float32"),
        scalar(7, "uint8"),
    ),
]

FAMILY = Family(CASES)


class TestFamily(FamilyTests):
    family = FAMILY


def test_every_operator_is_covered() -> None:
    assert_covered(qdq.OPERATIONS, operators_of(CASES))


def test_a_saturation_tvm_cannot_build_is_a_located_error() -> None:
    message = lowering_error(
        f"relax.function @main(%x: {tensor('n', 'f16')}, %s: {F16}, %z: {tensor('', 'ui16')}) {{\n"
        "  %r = relax.quantize %x, %s, %z {out_dtype = ui16}\n  relax.return %r\n}\n"
    )
    assert message.startswith("test.mlir:2:"), message
    assert "relax.quantize: TVM cannot saturate f16 values to ui16" in message
