"""Batched products register-tiled in place (`lowering/unpacked_products.py`,
`lowering/schedules/unpacked_products.py`): which products are marked, what the schedule does
with them, and their results against the reference at odd sizes, on one and two threads."""

from __future__ import annotations

import pytest
from test_fused_epilogues import (
    HEADER,
    assert_matches_on_one_and_two_threads,
    outlined,
    remarks,
    schedule_units,
)
from toolchain_harness import AVX2, AVX512, host_tile_of, needs_toolchain
from xdsl.dialects.linalg.ops import GenericOp

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_xdsl.lowering.unpacked_products import loop_order

pytestmark = pytest.mark.heavy

F32 = '"float32"'
PRODUCTS = {
    "m128_n64_k1": (128, 64, 1),
    "m128_n64_k17": (128, 64, 17),
    "m130_n64_k130": (130, 64, 130),
    "m17_n32_k17": (17, 32, 17),
    "m3_n32_k3": (3, 32, 3),
    "m1_n64_k64": (1, 64, 64),
    "m130_n17_k64": (130, 17, 64),
    "m64_n130_k3": (64, 130, 3),
    "m3_n1_k17": (3, 1, 17),
}
"""Products of a symbolic batch ``n`` of three heads: name → rows, columns, depth."""
PACKED = {"m130_n17_k64", "m64_n130_k3", "m3_n1_k17"}
"""The products whose columns are not whole register tiles (of `AVX512`): packed."""
BATCHES = (1, 3, 7, 17)
ROWS = (1, 3, 7, 17, 130)


def _function(name: str, params: dict[str, str], body: str) -> str:
    typed = ", ".join(f"{p}: R.Tensor(({shape}), {F32})" for p, shape in params.items())
    return f"""    @R.function
    def {name}({typed}):
        with R.dataflow():
            y = {body}
            R.output(y)
        return y

"""


def _functions() -> str:
    text = HEADER
    for name, (m, n, k) in PRODUCTS.items():
        params = {"a": f'"n", 3, {m}, {k}', "b": f'"n", 3, {k}, {n}'}
        text += _function(name, params, "R.matmul(a, b)")
    params = {"a": '2, 3, "n", 17', "b": "2, 3, 17, 64"}
    text += _function("symbolic_rows", params, "R.matmul(a, b)")
    params = {"q": "2, 3, 17, 17", "k": "2, 3, 64, 17"}
    scores = "R.divide(R.matmul(q, R.permute_dims(k, [0, 1, 3, 2])), R.const(4.0, 'float32'))"
    return text + _function("scaled_scores", params, scores)


@pytest.fixture(scope="module")
def module():
    return parse_tvmscript(_functions(), "unpacked.py")


def _marked(module) -> list[bool]:
    """Whether each kernel's batched product is one `loop_order` takes, kernel by kernel."""
    return [
        loop_order(op, AVX512) is not None
        for op in outlined(module).walk()
        if isinstance(op, GenericOp) and len(op.iterator_types) == 5
    ]


def test_products_with_whole_register_tiles_of_columns_are_marked(module):
    """Products whose columns are whole register tiles (any rows, symbolic ones too) are
    marked, the others not."""
    marked = _marked(module)
    assert marked.count(False) == len(PACKED)
    assert marked.count(True) == len(PRODUCTS) - len(PACKED) + 2


@needs_toolchain
def test_marked_products_are_tiled_in_place(module):
    """The marked products take the unpacked schedule, on the threads' loop or in the tile of
    their epilogue (the scaled scores); the others are packed."""
    with host_tile_of(AVX512):
        done = schedule_units(module)
    assert remarks(done, "tile_") == sorted(
        ["tile_unpacked_2"] * (len(PRODUCTS) - len(PACKED) + 1)
        + ["tile_unpacked_2_in_tile"]
        + ["tile_2"] * len(PACKED)
    )


@needs_toolchain
@pytest.mark.parametrize("tile", [AVX512, AVX2], ids=["avx512", "avx2"])
@pytest.mark.parametrize("name", [*PRODUCTS, "symbolic_rows", "scaled_scores"])
def test_products_match_the_reference(module, name, tile):
    """Against the reference at batches of 1, 3, 7 and 17 (rows of 1, 3, 7, 17 and 130), and
    on two threads bit for bit the result of one, with the register tiles of AVX-512 and AVX2
    (strips of 8 and 6 rows)."""
    sizes = ROWS if name == "symbolic_rows" else BATCHES
    with host_tile_of(tile):
        assert_matches_on_one_and_two_threads(module, name, sizes, atol=1e-4)
