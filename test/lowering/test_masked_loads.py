"""Masked loads split into registers (``lowering/masked_loads.py``), the workaround for the
LLVM 22 miscompile of wide masked loads on AVX2 hosts."""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

import numpy as np
from toolchain_harness import needs_toolchain

from relax_xdsl.lowering.masked_loads import split_masked_loads
from relax_xdsl.lowering.toolchain import (
    CODEGEN_FLAGS,
    _host,
    _run,
    compile_llvm_ir,
    find_toolchain,
)
from relax_xdsl.lowering.units import KERNEL_LEVEL

HALF = ", ".join(["i1 true"] * 16 + ["i1 false"] * 16)
HEADS = 4


def shared_mask_loads() -> str:
    """The reduced reproducer: four masked loads of 32 floats, 64 bytes apart, sharing a mask
    whose upper half is false (the shape of the tiled attention's operand packs)."""
    body = [f"  %m = select i1 %c, <32 x i1> <{HALF}>, <32 x i1> zeroinitializer"]
    for h in range(HEADS):
        body += [
            f"  %q{h} = getelementptr i8, ptr %p, i64 {64 * h}",
            f"  %v{h} = call <32 x float> @llvm.masked.load.v32f32.p0(ptr align 4 %q{h}, "
            "<32 x i1> %m, <32 x float> zeroinitializer)",
            f"  %o{h} = getelementptr i8, ptr %out, i64 {128 * h}",
            f"  store <32 x float> %v{h}, ptr %o{h}, align 4",
        ]
    return "\n".join(
        [
            "declare <32 x float> @llvm.masked.load.v32f32.p0(ptr, <32 x i1>, <32 x float>)",
            "define void @heads(ptr %p, ptr %out, i1 %c) {",
            *body,
            "  ret void",
            "}",
        ]
    )


def widths(llvm_ir: str) -> set[str]:
    return set(re.findall(r"call <(\d+) x \w+> @llvm\.masked\.load", llvm_ir))


def test_wide_loads_are_rerouted_and_narrow_ones_kept():
    split = split_masked_loads(shared_mask_loads(), register_bytes=32)
    assert widths(split) == {"8"}  # only inside the helper
    assert split.count("call <32 x float> @relax_xdsl.masked_load.v32f32(") == HEADS
    assert "declare <8 x float> @llvm.masked.load.v8f32.p0" in split
    assert split_masked_loads(shared_mask_loads(), register_bytes=128) == shared_mask_loads() + "\n"


def test_pieces_of_other_types_and_ragged_widths():
    """Twelve doubles in 32-byte registers: pieces of 4, 4 and 4; ten halves: 10 ≤ 16 lanes."""
    call = "call <{n} x {t}> @llvm.masked.load.v{n}{s}.p0(ptr %p, <{n} x i1> %m, <{n} x {t}> %z)"
    text = "\n".join(
        call.format(n=n, t=t, s=s) for n, t, s in [(12, "double", "f64"), (10, "half", "f16")]
    )
    split = split_masked_loads(text, register_bytes=32)
    assert "@relax_xdsl.masked_load.v12f64(" in split and "@llvm.masked.load.v10f16.p0(" in split
    assert split.count("call <4 x double> @llvm.masked.load.v4f64.p0") == 3


@needs_toolchain
def test_split_module_is_valid_and_keeps_no_wide_masked_load():
    optimised = _run(
        [
            find_toolchain().opt,
            f"-mtriple={_host(find_toolchain())[1]}",
            KERNEL_LEVEL,
            *CODEGEN_FLAGS,
            "-S",
        ],
        split_masked_loads(shared_mask_loads(), register_bytes=32),
    )
    assert widths(optimised) <= {"8"}
    assert "relax_xdsl.masked_load" not in optimised  # inlined


@needs_toolchain
def test_masked_off_lanes_read_nothing(tmp_path: Path):
    """Compiled for this host, the loads return zeros in masked-off lanes even when the memory
    after the data is NaN (without the split, llc-22 on AVX2 loads those lanes)."""
    obj, library = tmp_path / "heads.o", tmp_path / "heads.so"
    compile_llvm_ir(find_toolchain(), shared_mask_loads(), obj)
    _run([find_toolchain().cc, "-shared", str(obj), "-o", str(library)])
    heads = ctypes.CDLL(str(library)).heads
    data = np.full(HEADS * 16 + 64, np.nan, np.float32)
    data[: HEADS * 16] = np.arange(HEADS * 16)
    out = np.full((HEADS, 32), -1.0, np.float32)
    heads(ctypes.c_void_p(data.ctypes.data), ctypes.c_void_p(out.ctypes.data), ctypes.c_bool(True))
    want = np.zeros((HEADS, 32), np.float32)
    want[:, :16] = data[: HEADS * 16].reshape(HEADS, 16)
    np.testing.assert_array_equal(out, want)
