"""Memory views in the interpreter: the bytes of the tensor, little-endian as
NumPy lays them out, read as another data type and shape."""

from __future__ import annotations

import numpy as np
import pytest
from operator_harness import function, run_tensor

from relax_dialect.interpreter.machine import RelaxRuntimeError


def view(x: np.ndarray, x_type: str, *bindings: str) -> np.ndarray:
    return run_tensor(function(f"%x: {x_type}", *bindings, ret=None), x)


def test_float_bits_as_integers() -> None:
    x = np.array([1.0, -0.0, np.inf, np.nan], np.float32)
    result = view(x, "!relax.tensor<[4], f32>", "%r = relax.memory.view %x {dtype = ui32}")
    assert result.dtype == np.uint32
    assert result.tolist() == [0x3F800000, 0x80000000, 0x7F800000, 0x7FC00000]


@pytest.mark.parametrize("n", [1, 3])
def test_a_shape_regroups_the_bytes(n: int) -> None:
    x = np.arange(4 * n, dtype=np.int32).reshape(n, 4)
    shape = "%s = relax.shape [n, 16]"
    result = view(
        x, "!relax.tensor<[n, 4], i32>", shape, "%r = relax.memory.view %x, %s {dtype = ui8}"
    )
    assert result.shape == (n, 16)
    np.testing.assert_array_equal(result, x.view(np.uint8).reshape(n, 16))


def test_a_smaller_view_reads_the_first_bytes() -> None:
    x = np.array([0x01020304, 0x05060708], np.int32)
    result = view(x, "!relax.tensor<[2], i32>", "%r = relax.memory.view %x {dtype = i16}")
    assert result.tolist() == [0x0304, 0x0102]


def test_a_view_past_the_end_fails_at_run_time() -> None:
    bindings = ("%s = relax.shape [m]", "%r = relax.memory.view %x, %s")
    with pytest.raises(RelaxRuntimeError, match="3 int32 elements reads past the end of 8 bytes"):
        run_tensor(
            function("%x: !relax.tensor<[2], i32>, %k: !relax.shape<[m]>", *bindings, ret=None),
            np.zeros(2, np.int32),
            (3,),
        )
