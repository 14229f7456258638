"""The tiling schedule (``compile_module(tile=True)``, ``lowering/tiling.py``): contractions of
every shape it handles, and some it leaves alone, compiled natively and compared with the
reference interpreter at several values of the symbolic size (ragged and multi-tile ones)."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from convert_harness import generic_text, load, lower
from lower_harness import Case, floats, inputs, ints, tensor
from toolchain_harness import needs_toolchain

from relax_dialect.interpreter import run
from relax_xdsl.lowering import toolchain
from relax_xdsl.lowering.threads import openmp_library
from relax_xdsl.lowering.tiling import K_UNROLL, RegisterTile, host_tile, schedule, tiling_passes
from relax_xdsl.lowering.toolchain import (
    _transform_library,
    compile_module,
    find_toolchain,
)

pytestmark = [needs_toolchain, pytest.mark.heavy]

SIZES = (0, 1, 3, 7, 17, 64, 130)
"""Values of ``n``: empty, below one register tile (8 rows), ragged, one cache tile, several."""


def matmul(name: str, lhs: str, rhs: str, dtype: str = "f32", attrs: str = "") -> Case:
    """``relax.matmul`` of operands of shapes ``lhs`` and ``rhs`` (``n`` symbolic)."""
    numpy_dtype = {"f32": "float32", "f64": "float64", "f16": "float16", "i32": "int32"}[dtype]
    make = ints if dtype == "i32" else floats
    shapes = [[d if d.isidentifier() else int(d) for d in s.split(", ")] for s in (lhs, rhs)]
    return Case(
        name,
        f"%a: {tensor(lhs, dtype)}, %b: {tensor(rhs, dtype)}",
        f"%r = relax.matmul %a, %b{attrs}",
        inputs(*(make(*shape, dtype=numpy_dtype, salt=i) for i, shape in enumerate(shapes))),
    )


def attention(name: str, attrs: str = "") -> Case:
    shape = "1, n, 4, 16"
    makers = [floats(1, "n", 4, 16, salt=salt) for salt in range(3)]
    return Case(
        name,
        ", ".join(f"%{x}: {tensor(shape, 'f32')}" for x in "qkv"),
        f"%r = relax.nn.attention %q, %k, %v{attrs}",
        inputs(*makers),
    )


def einsum(name: str, subscripts: str, shapes: list[str]) -> Case:
    params = ", ".join(f"%t{i}: {tensor(s, 'f32')}" for i, s in enumerate(shapes))
    names = ", ".join(f"%t{i}" for i in range(len(shapes)))
    dims = [[d if d.isidentifier() else int(d) for d in s.split(", ")] for s in shapes]
    return Case(
        name,
        params,
        f'%tuple = relax.tuple({names})\n%r = relax.einsum %tuple {{subscripts = "{subscripts}"}}',
        inputs(*(floats(*d, salt=i) for i, d in enumerate(dims))),
    )


TILED = [
    matmul("matrix", "n, 70", "70, 33"),
    matmul("matrix-many-tiles", "n, 300", "300, 290"),
    matmul("symbolic-depth-and-columns", "17, n", "n, n"),
    matmul("weights-of-a-batch", "2, n, 40", "40, 36"),
    matmul("weights-of-a-symbolic-batch", "n, 3, 16", "16, 8"),
    matmul("batched", "3, n, 20", "3, 20, 40"),
    matmul("two-batch-dims", "2, 3, n, 9", "2, 3, 9, 40"),
    matmul("unit-batch", "1, 3, n, 9", "1, 3, 9, n"),
    matmul("unit-batch-of-a-matrix", "1, n, 9", "9, 40"),
    matmul("integers", "n, 35", "35, 10", "i32"),
    matmul("float64", "n, 12", "12, 40", "f64"),
    matmul("float16", "n, 40", "40, 33", "f16"),
    matmul("mixed-precision", "n, 4", "4, 3", attrs=" {out_dtype = f64}"),
    attention("attention"),
    attention("attention-causal", ' {causal_mask = "TopLeft"}'),
    einsum("einsum-transposed-right", "bij,bkj->bik", ["2, n, 12", "2, 33, 12"]),
]
"""Cases with contractions the schedule packs and vectorises."""

UNTILED = [
    matmul("broadcast-batch", "1, n, 4", "2, 4, 3"),
    matmul("matrix-vector", "n, 4", "4"),
    einsum("einsum-two-summed", "ijk,jkl->il", ["n, 3, 4", "3, 4, 5"]),
]
"""Cases the schedule leaves to the loop lowering (a broadcast operand, no n dimension,
two k dimensions)."""

CASES = {case.name: case for case in TILED + UNTILED}


def module_text() -> str:
    """Every case as one function of one lowered module (one compilation)."""
    return generic_text(lower(load("".join(c.function(c.symbol) for c in CASES.values())), True))


TILES = {"avx512": RegisterTile(8, 32, 32), "avx2": RegisterTile(6, 16, 16)}
"""The register tiles of the hosts the schedule knows; both are run on any host."""


@pytest.fixture(scope="module", params=sorted(TILES))
def native(request):
    """The module compiled with one of the schedules (whichever the host would pick)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(toolchain, "transform_script", lambda: schedule(TILES[request.param]))
        return compile_module(module_text(), tile=True)


def test_register_tile_follows_the_vector_registers():
    """Two registers per accumulator row, four registers left for the operands."""
    assert RegisterTile.for_registers(64, 32) == TILES["avx512"]
    assert RegisterTile.for_registers(32, 16) == TILES["avx2"]
    for tile in TILES.values():
        assert f"matmul_packed_sizes = [{tile.m}, {tile.n}, {tile.k}]" in schedule(tile)
        assert tile.k % K_UNROLL == 0  # the unrolled k loop has whole iterations


def test_direct_convolution_blocks_take_as_many_filters_as_the_registers_allow():
    """Two accumulators per filter, four registers left: 14 filters × 32 columns with AVX-512
    (where the products' blocks stop at 8 rows), 6 × 16 with AVX2."""
    assert "tile_sizes [1, 14, 1, 32]" in schedule(TILES["avx512"])
    assert "tile_sizes [1, 6, 1, 16]" in schedule(TILES["avx2"])


def test_direct_convolution_channel_loops_unroll_to_a_like_number_of_fmas():
    """Two steps of 28 FMAs a block of 14 filters (AVX-512), four of 12 for 6 (AVX2)."""
    for host, factor in [("avx512", 2), ("avx2", 4)]:
        text = schedule(TILES[host])
        block_product = text[text.index("@vectorise_block_product") :]
        assert f"factor = {factor}" in block_product[: block_product.index("transform.yield")]


def test_direct_convolution_passes_over_the_taps_keep_their_weights_in_l1():
    """16 input channels a pass for 14 filters (AVX-512), 32 for 6 (AVX2)."""
    assert "tile_sizes [0, 0, 0, 0, 16, 1, 1]" in schedule(TILES["avx512"])
    assert "tile_sizes [0, 0, 0, 0, 32, 1, 1]" in schedule(TILES["avx2"])


def transformed_text(text: str) -> str:
    """The module ``text`` after the tiling schedule (before bufferization), in generic form."""
    pipeline = ",".join(tiling_passes(_transform_library()))
    command = [
        find_toolchain().mlir_opt,
        "--mlir-print-op-generic",
        f"--pass-pipeline=builtin.module({pipeline})",
    ]
    result = subprocess.run(command, input=text, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def transformed() -> str:
    return transformed_text(module_text())


def function_body(generic: str, symbol: str) -> str:
    """The text of ``@symbol`` in the generic form (up to the next function)."""
    start = generic.index(f'sym_name = "{symbol}"')
    end = generic.find('"func.func"', start)
    return generic[start : None if end < 0 else end]


GUARD = 4096
"""Elements of poison around every input: NaN (or the largest integer) on both sides."""


def guarded(value: np.ndarray) -> np.ndarray:
    """``value`` in a buffer whose neighbouring memory is poison, so that a read out of bounds
    (a mask the code generator dropped, an index past the end) changes the result."""
    poison = np.nan if value.dtype.kind == "f" else np.iinfo(value.dtype).max
    buffer = np.full(value.size + 2 * GUARD, poison, value.dtype)
    buffer[GUARD : GUARD + value.size] = value.ravel()
    return buffer[GUARD : GUARD + value.size].reshape(value.shape)


@pytest.mark.parametrize("name", sorted(CASES))
def test_tiled_native_code_matches_reference(native, name):
    """Every value computed, and nothing read outside the inputs (they are guarded)."""
    case = CASES[name]
    reference = load(case.function())
    for n in SIZES:
        args = [guarded(np.asarray(arg)) for arg in case.inputs(n)]
        [got] = native.call(case.symbol, args)
        assert_matches(got, np.asarray(run(reference, "main", *args)))


def assert_matches(got: np.ndarray, want: np.ndarray) -> None:
    """The reference's values: exactly for integers, within rounding for floats (the tiles sum
    in another order)."""
    assert got.shape == want.shape and got.dtype == want.dtype
    if want.dtype.kind == "f":
        scale = max(float(np.abs(want).max(initial=0)), 1.0)
        tolerance = 1e-2 if want.dtype == np.float16 else 1e-5
        np.testing.assert_allclose(got, want, rtol=10 * tolerance, atol=tolerance * scale)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", sorted(CASES))
def test_schedule_vectorises_exactly_the_supported_contractions(transformed, name):
    """Only the tiled contractions (their packs and kernels) have vector operations."""
    body = function_body(transformed, CASES[name].symbol)
    assert ("vector<" in body) == (name in {case.name for case in TILED})


@pytest.fixture(scope="module")
def shared_native():
    """The module compiled with OpenMP loops, the host's register tile and the products'
    blocks shared between two threads (whatever the host's cores)."""
    if openmp_library(find_toolchain().runtime) is None:
        pytest.skip("libomp is not installed (apt-get install libomp-22-dev)")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(toolchain, "transform_script", lambda: schedule(host_tile(), threads=2))
        return compile_module(module_text(), tile=True, parallel=True)


@pytest.mark.parametrize("name", [case.name for case in TILED])
def test_threads_share_the_blocks_with_the_same_bits(shared_native, name):
    """Two threads split each product's columns (or its batches) and give the bits of one,
    at every size (ragged splits, symbolic columns), the reference's values within rounding."""
    case = CASES[name]
    reference = load(case.function())
    for n in SIZES:
        args = [np.asarray(arg) for arg in case.inputs(n)]
        [one] = shared_native.call(case.symbol, args, threads=1)
        [two] = shared_native.call(case.symbol, args, threads=2)
        np.testing.assert_array_equal(two, one)
        assert_matches(one, np.asarray(run(reference, "main", *args)))
