"""Large constants print as ``dense_resource`` blobs after the module and read back."""

from __future__ import annotations

import io

import numpy as np
import pytest

from relax_dialect.builder import Builder
from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends import default_context, read_module
from relax_dialect.memo_printer import MemoMLIRTarget
from relax_dialect.ops.values import ConstantOp
from relax_dialect.resources import RESOURCE_BYTES, blob_text


def printed(constants: dict[str, np.ndarray], generic: bool = False) -> str:
    builder = Builder()
    with builder.function("main", {}) as _:
        values = [builder.emit(array, name) for name, array in constants.items()]
        builder.emit_func_output(values)
    out = io.StringIO()
    MemoMLIRTarget(print_generic_format=generic).emit(default_context(), builder.module, out)
    return out.getvalue()


def constants_of(text: str) -> list[np.ndarray]:
    module = read_module(text.encode(), name="blobs.mlir")
    return [op.value.array for op in module.walk() if isinstance(op, ConstantOp)]


def test_large_data_is_a_blob_after_the_module() -> None:
    weights = np.arange(600, dtype=np.float32).reshape(2, 300)
    text = printed({"w": weights})
    assert (
        "relax.constant dense<[2, 300], f32, dense_resource<w>> : !relax.tensor<[2, 300], f32>"
        in text
    )
    body, resources = text.split("{-#")
    assert len(body) < 400 and "dialect_resources" in resources
    assert f'w: "{blob_text(weights)}"' in resources
    assert (
        blob_text(np.array([1, 2], np.int32)) == "0x040000000100000002000000"
    )  # as MLIR writes it
    np.testing.assert_array_equal(constants_of(text)[0], weights)


def test_small_and_splat_data_stay_inline() -> None:
    small = np.arange(RESOURCE_BYTES // 4, dtype=np.float32)
    splat = np.zeros((512, 512), np.float32)
    text = printed({"small": small, "splat": splat})
    assert "dense_resource" not in text and "{-#" not in text
    assert "dense<[512, 512], f32, 0.0>" in text


def test_blobs_of_one_name_keep_apart_and_survive_generic_printing() -> None:
    first = np.arange(400, dtype=np.int64)
    second = first[::-1].copy()
    for generic in (False, True):
        text = printed({"w": first, "v": second}, generic)
        arrays = constants_of(text)
        np.testing.assert_array_equal(arrays[0], first)
        np.testing.assert_array_equal(arrays[1], second)
        assert "dense_resource<" in text


def test_a_handle_without_blob_is_an_error() -> None:
    text = (
        "relax.function @main() -> !relax.tensor<[300], f32> {\n"
        "  %w = relax.constant dense<[300], f32, dense_resource<missing>> : !relax.tensor<[300], f32>\n"
        "  relax.return %w\n}\n"
    )
    with pytest.raises(DiagnosticError, match="resource 'missing' has no blob"):
        read_module(text.encode(), name="missing.mlir")
