"""The MLIR toolchain backend on hand-written upstream MLIR (tensors, linalg, scf, cf.assert)."""

import shutil
import subprocess

import numpy as np
import pytest
from toolchain_harness import needs_toolchain

from relax_xdsl.lowering.interpreter import LoweredCheckError
from relax_xdsl.lowering.toolchain import (
    ToolchainError,
    ToolchainMissing,
    _check_llvm_dialect,
    compile_llvm_ir,
    compile_module,
    find_toolchain,
    lower_to_llvm_dialect,
)

RO = "{bufferization.writable = false}"

MATMUL = f"""
func.func @mm(%a: tensor<?x?xf32> {RO}, %b: tensor<?x?xf32> {RO}) -> tensor<?x?xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
                     outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}}
"""

# x: [n, 4] + bias [4] (broadcast), relu, the row sums, n, and the input returned as is
MIXED = f"""
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
#red = affine_map<(i, j) -> (i)>
func.func @main(%x: tensor<?x4xf32> {RO}, %bias: tensor<4xf32> {RO}, %flag: i1)
    -> (tensor<?x4xf32>, tensor<?xf32>, index, tensor<?x4xf32>) {{
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %y = linalg.generic {{indexing_maps = [#id, #row, #id],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%x, %bias : tensor<?x4xf32>, tensor<4xf32>) outs(%e : tensor<?x4xf32>) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }} -> tensor<?x4xf32>
  %z = arith.constant 0.0 : f32
  %acc0 = tensor.empty(%n) : tensor<?xf32>
  %acc = linalg.fill ins(%z : f32) outs(%acc0 : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {{indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]}}
      ins(%y : tensor<?x4xf32>) outs(%acc : tensor<?xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  }} -> tensor<?xf32>
  %out = scf.if %flag -> tensor<?x4xf32> {{
    scf.yield %y : tensor<?x4xf32>
  }} else {{
    scf.yield %x : tensor<?x4xf32>
  }}
  return %out, %sum, %n, %x : tensor<?x4xf32>, tensor<?xf32>, index, tensor<?x4xf32>
}}
"""

CHECKED = f"""
func.func @check(%x: tensor<?xf32> {RO}, %n: index) -> tensor<?xf32> {{
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %ok = arith.cmpi eq, %d, %n : index
  cf.assert %ok, "prog.mlir:3:5: match_cast: dimension n bound to 2, got 3"
  %r = tensor.cast %x : tensor<?xf32> to tensor<?xf32>
  return %r : tensor<?xf32>
}}
"""


def dtype_module(element: str) -> str:
    """Doubles a dynamic vector, also returns the scalar argument and a 0-d tensor of it."""
    add = "arith.addf" if element.startswith("f") else "arith.addi"
    if element == "i1":
        add = "arith.ori"
    return f"""
func.func @twice(%x: tensor<?x{element}> {RO}, %s: {element}) -> (tensor<?x{element}>, {element}, tensor<{element}>) {{
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x{element}>
  %e = tensor.empty(%n) : tensor<?x{element}>
  %r = linalg.generic {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}}
      ins(%x : tensor<?x{element}>) outs(%e : tensor<?x{element}>) {{
  ^bb0(%a: {element}, %o: {element}):
    %t = {add} %a, %a : {element}
    linalg.yield %t : {element}
  }} -> tensor<?x{element}>
  %z = tensor.from_elements %s : tensor<{element}>
  return %r, %s, %z : tensor<?x{element}>, {element}, tensor<{element}>
}}
"""


def test_missing_toolchain_names_tools_and_apt_command(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(ToolchainMissing) as error:
        find_toolchain()
    message = str(error.value)
    for tool in ("mlir-opt-22", "mlir-translate-22", "opt-22", "llc-22"):
        assert tool in message
    assert "apt-get install -y --no-install-recommends mlir-22-tools llvm-22" in message


def test_partial_lowering_is_rejected():
    generic = '"builtin.module"() ({\n  %0 = "index.add"(%a, %b) : (i64, i64) -> i64\n}) : () -> ()'
    with pytest.raises(ToolchainError, match=r"outside the LLVM dialect: index.add \(1x\)"):
        _check_llvm_dialect(generic)


@needs_toolchain
@pytest.mark.parametrize("tile", [False, True])
@pytest.mark.parametrize("m, k, n", [(1, 1, 1), (7, 13, 5), (64, 32, 96), (33, 70, 41)])
def test_matmul_dynamic_dims(tile, m, k, n):
    module = compile_module(MATMUL, tile=tile)
    rng = np.random.default_rng(m * k * n)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    [out] = module.call("mm", [a, b])
    np.testing.assert_allclose(out, a @ b, rtol=1e-4, atol=1e-4)


@needs_toolchain
@pytest.mark.parametrize("n", [0, 1, 3, 17])
def test_generic_reduction_if_multiple_results(n):
    module = compile_module(MIXED)
    x = np.arange(n * 4, dtype=np.float32).reshape(n, 4) - 5
    bias = np.array([1, -2, 3, -4], dtype=np.float32)
    y = np.maximum(x + bias, 0)
    for flag in (True, False):
        out, total, size, same = module.call("main", [x, bias, flag])
        np.testing.assert_array_equal(out, y if flag else x)
        np.testing.assert_allclose(total, y.sum(axis=1))
        assert size == n and same.shape == (n, 4)
        np.testing.assert_array_equal(same, x)


@needs_toolchain
def test_failed_assert_raises_and_process_survives():
    module = compile_module(CHECKED)
    x = np.ones(3, np.float32)
    with pytest.raises(LoweredCheckError) as error:
        module.call("check", [x, 2])
    assert str(error.value) == "prog.mlir:3:5: match_cast: dimension n bound to 2, got 3"
    [out] = module.call("check", [x, 3])
    np.testing.assert_array_equal(out, x)


@needs_toolchain
@pytest.mark.parametrize(
    "element, dtype, scalar",
    [
        ("f16", np.float16, 1.5),
        ("f32", np.float32, -2.25),
        ("f64", np.float64, 1e300),
        ("i1", np.bool_, True),
        ("i8", np.int8, -7),
        ("i16", np.int16, 300),
        ("i32", np.int32, -70000),
        ("i64", np.int64, 2**40),
    ],
)
def test_dtypes_scalars_and_zero_rank(element, dtype, scalar):
    module = compile_module(dtype_module(element))
    x = np.array([1, 0, 3, 1], dtype=dtype)
    doubled, same, zero_rank = module.call("twice", [x, scalar])
    expected = x | x if dtype is np.bool_ else x + x
    assert doubled.dtype == dtype and zero_rank.dtype == dtype and zero_rank.shape == ()
    np.testing.assert_array_equal(doubled, expected)
    assert same == dtype(scalar) and zero_rank == dtype(scalar)


@needs_toolchain
def test_argument_checks_before_the_native_call():
    module = compile_module(MIXED)
    x = np.zeros((2, 4), np.float32)
    with pytest.raises(
        ValueError, match=r"argument 1: expected tensor<4xfloat32>, got shape \[5\]"
    ):
        module.call("main", [x, np.zeros(5, np.float32), True])
    with pytest.raises(TypeError, match="argument 0"):
        module.call("main", [x.astype(np.float64), np.zeros(4, np.float32), True])
    with pytest.raises(TypeError, match="takes 3 arguments"):
        module.call("main", [x])
    with pytest.raises(ValueError, match="no function @nope"):
        module.call("nope", [])


@needs_toolchain
def test_cache_and_llvm_dialect_artefact():
    first = compile_module(MATMUL)
    assert compile_module(MATMUL).path == first.path
    assert compile_module(MATMUL, tile=True).path != first.path
    llvm = lower_to_llvm_dialect(MATMUL)
    assert "llvm.func @_mlir_ciface_mm" in llvm and "func.func" not in llvm


@needs_toolchain
@pytest.mark.parametrize("name", ["a,b", "a b"])
def test_cache_directory_with_a_comma_or_space(monkeypatch, tmp_path, name):
    """mlir-opt splits the schedule's path at commas and spaces: such a cache still compiles
    tiled code."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / name))
    a = np.ones((3, 2), np.float32)
    [out] = compile_module(MATMUL, tile=True).call("mm", [a, a.T.copy()])
    np.testing.assert_array_equal(out, np.full((3, 3), 2, np.float32))
    assert (tmp_path / name / "relax-xdsl").is_dir()


@needs_toolchain
def test_stage_failure_carries_tool_diagnostics():
    with pytest.raises(ToolchainError, match=r"(?s)mlir-opt-22 failed .*custom op 'bogus\.op'"):
        compile_module("func.func @f() {\n  bogus.op\n  return\n}\n")


GELU = """
relax.function @main(%x: !relax.tensor<[n, 4], DT>, %b: !relax.tensor<[4], DT>) {
  %h = relax.add %x, %b
  %half = relax.prim_value 0.5 : !relax.prim<DT>
  %one = relax.prim_value 1.0 : !relax.prim<DT>
  %root = relax.prim_value 0.70710678 : !relax.prim<DT>
  %s = relax.multiply %h, %root
  %e = relax.erf %s
  %p = relax.add %e, %one
  %q = relax.multiply %h, %p
  %r = relax.multiply %q, %half
  relax.return %r
}
"""


def _lowered_relax(text: str) -> tuple[object, str]:
    """The reference module of Relax ``text`` and its lowered generic MLIR."""
    from convert_harness import generic_text, load, lower

    return load(text), generic_text(lower(load(text), pipeline=True))


@needs_toolchain
@pytest.mark.parametrize("dtype", ["f16", "f32", "f64"])
def test_gelu_with_erf_natively(dtype):
    """``math.erf`` (no LLVM intrinsic) goes through ``convert-math-to-libm``."""
    from relax_dialect.interpreter import run

    reference, text = _lowered_relax(GELU.replace("DT", dtype))
    assert '"math.erf"' in text
    module = compile_module(text)
    numpy_dtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[dtype]
    for n in (1, 3, 8):
        rng = np.random.default_rng(n)
        x = (rng.standard_normal((n, 4)) * 2).astype(numpy_dtype)
        b = rng.standard_normal(4).astype(numpy_dtype)
        [out] = module.call("main", [x, b])
        expected = run(reference, "main", x, b)
        tolerance = 2e-3 if dtype == "f16" else 1e-5
        np.testing.assert_allclose(out, expected, rtol=tolerance, atol=tolerance)


@needs_toolchain
def test_static_dimensions_of_the_entry_are_checked_by_both_backends():
    """A static size in the entry's type (``[4]``, and the ``4`` of ``[n, 4]``) is checked
    against the argument before running, by ``run_lowered`` and ``NativeModule.call``."""
    from convert_harness import generic_text, load, lower

    from relax_xdsl.lowering.interpreter import LoweredExecutionError, run_lowered

    lowered = lower(load(GELU.replace("DT", "f32")), pipeline=True)
    native = compile_module(generic_text(lowered))
    good = [np.zeros((2, 4), np.float32), np.zeros(4, np.float32)]
    np.testing.assert_array_equal(
        run_lowered(lowered, "main", good)[0], native.call("main", good)[0]
    )
    bad = [
        ([np.zeros((2, 5), np.float32), good[1]], 0, r"shape \[2, 5\]"),
        ([good[0], np.zeros(3, np.float32)], 1, r"shape \[3\]"),
        ([np.zeros((2, 4, 1), np.float32), good[1]], 0, "rank 3"),
    ]
    for args, position, what in bad:
        with pytest.raises(LoweredExecutionError, match=f"argument {position} of @main has {what}"):
            run_lowered(lowered, "main", args)
        with pytest.raises(ValueError, match=f"argument {position}: expected .*, got shape"):
            native.call("main", args)


SHORT_LOOP = """
define void @add_one(ptr %a, ptr %b) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %pa = getelementptr float, ptr %a, i64 %i
  %x = load float, ptr %pa
  %y = fadd float %x, 1.0
  %pb = getelementptr float, ptr %b, i64 %i
  store float %y, ptr %pb
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, 14
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
"""


@needs_toolchain
def test_short_loops_of_scheduled_units_are_vectorised(tmp_path):
    """A loop of 14 iterations over memrefs that may overlap (an epilogue's row of a 14 × 14
    image) is vectorised in a scheduled unit: LLVM's default takes such loops from 16."""
    disassembler = shutil.which("llvm-dis-22")
    if disassembler is None:
        pytest.skip("llvm-dis-22 is not installed")
    obj = tmp_path / "loop.o"
    compile_llvm_ir(find_toolchain(), SHORT_LOOP, obj, scheduled=True)
    text = subprocess.run(
        [disassembler, str(obj.with_suffix(".bc")), "-o", "-"], capture_output=True, text=True
    ).stdout
    assert "fadd <4 x float>" in text
