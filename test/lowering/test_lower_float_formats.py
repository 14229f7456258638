"""Conversions to and from the extension float formats (bfloat16, float8, float4):
the reference interpreter (ml_dtypes), the bundled interpreter of the lowered IR
and native code agree bit for bit at special values; native code refuses, located
and naming the type, the formats mlir-opt-22 cannot lower."""

from __future__ import annotations

import numpy as np
import pytest
from convert_harness import load, native_available

from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.dtype import FORMATS, DataType
from relax_xdsl.lowering.backends import backend_named
from relax_xdsl.lowering.backends.backend import Program
from relax_xdsl.lowering.toolchain import NATIVE_FORMATS, WIDENED_FORMATS

ml_dtypes = pytest.importorskip("ml_dtypes")

SPECIALS = np.array(
    [
        0.0,
        -0.0,
        np.nan,
        -np.nan,
        np.inf,
        -np.inf,
        1.0,
        -1.5,
        0.3,
        2.5,
        3.5,
        5.0,
        7.0,
        448.0,
        464.0,
        57344.0,
        61440.0,
        1e6,
        3.4e38,
        -3.4e38,
        1e-7,
        -1e-7,
        2.0**-126,
        2.0**-127,
        2.0**-9,
        2.0**-10,
        0.75,
        1.25,
        1.0 + 2.0**-8,
        1.0 + 3 * 2.0**-8,
    ],
    dtype=np.float32,
)
"""Zeros, NaN, infinities, ties, each format's largest value and beyond, subnormals."""


def mlir_name(fmt: str) -> str:
    return str(DataType(fmt, FORMATS[fmt].bits))  # pyright: ignore[reportArgumentType]


def program(param: str, result: str, body: str) -> Program:
    """``@main(%x: tensor<[N], param>) -> result`` of ``body`` (ending in ``%r``)."""
    n = len(SPECIALS)
    return Program(
        load(
            f"relax.function @main(%x: !relax.tensor<[{n}], {param}>) -> {result} {{\n"
            f"{body}  relax.return %r\n}}\n"
        )
    )


def round_trip(fmt: str) -> Program:
    """``x`` (f32) converted to ``fmt``, and back to f32."""
    n, name = len(SPECIALS), mlir_name(fmt)
    return program(
        "f32",
        f"!relax.tuple<tensor<[{n}], {name}>, tensor<[{n}], f32>>",
        f"  %y = relax.astype %x {{dtype = {name}}}\n"
        "  %z = relax.astype %y {dtype = f32}\n  %r = relax.tuple(%y, %z)\n",
    )


def widening(fmt: str) -> Program:
    """``x`` (of ``fmt``) converted to f32."""
    return program(
        mlir_name(fmt),
        f"!relax.tensor<[{len(SPECIALS)}], f32>",
        "  %r = relax.astype %x {dtype = f32}\n",
    )


def refused(program: Program, fmt: str) -> bool:
    """Whether native code refuses the program (located, naming the format)."""
    problem = backend_named("mlir").unsupported(program)
    if problem is None:
        return False
    assert problem.location is not None
    assert f"native code cannot compute {mlir_name(fmt)}" in problem.message
    return True


def run(program: Program, backend: str, argument: np.ndarray = SPECIALS) -> list[np.ndarray]:
    result = backend_named(backend).compile(program, "main")(argument)
    return [np.asarray(v) for v in (result if isinstance(result, tuple) else (result,))]


def same_bits(actual: np.ndarray, expected: np.ndarray) -> bool:
    """Equal element for element, NaN to NaN (any payload), the sign of zero kept."""
    wide_actual, wide_expected = actual.astype(np.float64), expected.astype(np.float64)
    both_nan = np.isnan(wide_actual) & np.isnan(wide_expected)
    equal = (wide_actual == wide_expected) & (np.signbit(wide_actual) == np.signbit(wide_expected))
    return bool(np.all(both_nan | equal))


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_reference_is_ml_dtypes(fmt: str):
    converted, back = run(round_trip(fmt), "reference")
    expected = SPECIALS.astype(getattr(ml_dtypes, fmt))
    assert converted.dtype == expected.dtype
    assert same_bits(converted, expected)
    assert same_bits(back, expected.astype(np.float32))


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_lowered_agrees_with_reference(fmt: str):
    program = round_trip(fmt)
    for actual, expected in zip(run(program, "lowered"), run(program, "reference"), strict=True):
        assert actual.dtype == expected.dtype
        assert same_bits(actual, expected)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_native_agrees_or_refuses(fmt: str):
    native_available()
    program = round_trip(fmt)
    computed = mlir_name(fmt) in NATIVE_FORMATS
    assert refused(program, fmt) != computed
    if not computed:
        return
    for actual, expected in zip(run(program, "mlir"), run(program, "reference"), strict=True):
        assert actual.dtype == expected.dtype
        assert same_bits(actual, expected), (actual, expected)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_native_widens_or_refuses(fmt: str):
    """Formats native code only widens (``WIDENED_FORMATS``) convert to f32 exactly."""
    native_available()
    program = widening(fmt)
    computed = mlir_name(fmt) in NATIVE_FORMATS + WIDENED_FORMATS
    assert refused(program, fmt) != computed
    if not computed:
        return
    values = SPECIALS.astype(getattr(ml_dtypes, fmt))
    (actual,) = run(program, "mlir", values)
    assert same_bits(actual, values.astype(np.float32))


def test_refusal_is_a_located_error():
    """Compiling anyway raises the located diagnostic, never a toolchain failure."""
    native_available()
    program = round_trip("float8_e4m3fn")
    with pytest.raises(DiagnosticError):
        problem = backend_named("mlir").unsupported(program)
        raise DiagnosticError([problem])  # pyright: ignore[reportArgumentType]
