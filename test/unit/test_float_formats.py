"""The extension float formats as data types: spellings (MLIR, TVM), rule 18,
NumPy (ml_dtypes) correspondence, round trips through MLIR text and TVMScript,
``.npz`` inputs, and the reference interpreter's rounding once per operator."""

from __future__ import annotations

import numpy as np
import pytest

from relax_dialect.dtype import FORMATS, DataType
from relax_dialect.frontends import default_context
from relax_dialect.frontends.mlir import parse_module
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.frontends.tvmscript.printer import print_tvmscript
from relax_dialect.interpreter import run
from relax_dialect.values import to_value
from relax_dialect.well_formed import check_well_formed

ml_dtypes = pytest.importorskip("ml_dtypes")

MLIR_NAMES = {
    "bfloat16": "bf16",
    "float8_e4m3fn": "f8E4M3FN",
    "float8_e4m3fnuz": "f8E4M3FNUZ",
    "float8_e5m2": "f8E5M2",
    "float8_e5m2fnuz": "f8E5M2FNUZ",
    "float8_e8m0fnu": "f8E8M0FNU",
    "float4_e2m1fn": "f4E2M1FN",
}


@pytest.mark.parametrize("tvm_name", sorted(MLIR_NAMES))
def test_spellings_and_numpy(tvm_name: str) -> None:
    by_tvm, by_mlir = DataType.parse(tvm_name), DataType.parse(MLIR_NAMES[tvm_name])
    assert by_tvm == by_mlir and by_tvm is not None
    assert str(by_tvm) == MLIR_NAMES[tvm_name] and by_tvm.tvm_name() == tvm_name
    assert by_tvm.problem() is None and by_tvm.is_float and by_tvm.is_extension_float
    numpy = by_tvm.to_numpy()
    assert numpy == np.dtype(getattr(ml_dtypes, tvm_name))
    assert DataType.from_numpy(numpy) == by_tvm
    assert float(ml_dtypes.finfo(numpy).max) == FORMATS[tvm_name].largest


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("f8E4M3FNx4", "has 4 lanes"),
        ("float8_e5m2x2", "has 2 lanes"),
        ("int4", "int data type cannot have 4 bits"),
        ("uint2", "uint data type cannot have 2 bits"),
        ("float8", "float data type cannot have 8 bits"),
    ],
)
def test_rule_18_still_rejects(text: str, problem: str) -> None:
    dtype = DataType.parse(text)
    assert dtype is not None and problem in (dtype.problem() or "")


def test_bfloat_needs_its_width() -> None:
    assert DataType.parse("bfloat") is None
    assert DataType("bfloat16", 8).problem() == "bfloat16 data type must have 16 bits"


MODULE = """\
relax.function @main(%x: !relax.tensor<[n, 2], bf16>, %y: !relax.tensor<[2], f8E5M2FNUZ>) -> !relax.tensor<[n, 2], f4E2M1FN> {
  %a = relax.astype %y {dtype = f8E4M3FN}
  %b = relax.astype %x {dtype = float8_e8m0fnu}
  %c = relax.astype %a {dtype = f4E2M1FN}
  %d = relax.astype %b {dtype = f4E2M1FN}
  %r = relax.add %d, %c
  relax.return %r
}
"""


def parsed(text: str):
    module = parse_module(default_context(), text, "formats.mlir")
    assert check_well_formed(module) == []
    return module


def test_mlir_and_tvmscript_round_trips() -> None:
    module = parsed(MODULE)
    text = str(module)
    assert "float8_e8m0fnu" not in text and "dtype = f8E8M0FNU" in text
    assert str(parsed(text)) == text
    script = print_tvmscript(module)
    assert 'R.Tensor(("n", 2), dtype="bfloat16")' in script
    assert 'R.astype(y, dtype="float8_e4m3fn")' in script
    again = parse_tvmscript(script, "formats.py", ctx=default_context())
    assert str(again) == text


def test_reference_rounds_once_per_operator() -> None:
    """``add`` on bf16 is the f32 sum rounded to bf16 (not a sum of rounded halves)."""
    module = parsed(
        "relax.function @main(%x: !relax.tensor<[3], bf16>) -> !relax.tensor<[3], bf16> {\n"
        "  %s = relax.add %x, %x\n  %r = relax.multiply %s, %x\n  relax.return %r\n}\n"
    )
    x = np.array([1.00390625, 3.0078125, -250.0], ml_dtypes.bfloat16)
    wide = x.astype(np.float32)
    want = ((wide + wide).astype(ml_dtypes.bfloat16).astype(np.float32) * wide).astype(
        ml_dtypes.bfloat16
    )
    got = run(module, "main", x)
    assert got.dtype == want.dtype and np.array_equal(got.view(np.uint16), want.view(np.uint16))


def test_npz_bytes_are_read_as_the_declared_format(tmp_path) -> None:
    """``numpy.savez`` stores ml_dtypes arrays as raw bytes (``|V2``)."""
    array = np.array([1.5, -2.0, np.nan], ml_dtypes.bfloat16)
    np.savez(tmp_path / "in.npz", x=array)
    raw = np.load(tmp_path / "in.npz")["x"]
    assert raw.dtype.kind == "V"
    module = parsed(
        "relax.function @main(%x: !relax.tensor<[3], bf16>) -> !relax.tensor<[3], bf16> {\n"
        "  relax.return %x\n}\n"
    )
    param = module.body.block.ops.first.body.block.args[0]  # pyright: ignore
    value = to_value(raw, param.type)
    assert value.dtype == array.dtype and np.array_equal(
        value.view(np.uint16), array.view(np.uint16)
    )


def test_sub_byte_integer_arrays_widen_to_the_declared_bytes() -> None:
    module = parsed(
        "relax.function @main(%x: !relax.tensor<[3], i8>) -> !relax.tensor<[3], i8> {\n"
        "  relax.return %x\n}\n"
    )
    param = module.body.block.ops.first.body.block.args[0]  # pyright: ignore
    value = to_value(np.array([-8, 0, 7], ml_dtypes.int4), param.type)
    assert value.dtype == np.int8 and value.tolist() == [-8, 0, 7]
