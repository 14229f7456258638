"""The modules TVM 0.25's ONNX importer makes with ``T.prim_func`` kernels
(``tir_onnx/``, as TVM printed them: einsum, tile, pad, clip, flip, resize), what
each computes in NumPy, and the inputs they are run on."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.ops.functions import FunctionOp
from relax_dialect.types import TensorType
from relax_dialect.well_formed import check_well_formed

MODULES = Path(__file__).resolve().parent / "tir_onnx"
NAMES = sorted(path.stem for path in MODULES.glob("*.py"))


def _conv_same(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The ONNX test's convolution: 3x3 kernel, stride 2, one pixel of padding."""
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3))
    return np.einsum("bchwij,ocij->bohw", windows[:, :, ::2, ::2], w)


def _reverse_exclusive_cumsum(x: np.ndarray) -> np.ndarray:
    reversed_sum = np.cumsum(x[::-1])[::-1]
    return reversed_sum - x


NUMPY: dict[str, Callable[..., np.ndarray]] = {
    "einsum_batch_diagonal": lambda x: np.einsum("...ii->...i", x),
    "einsum_batch_matmul": lambda x, y: np.einsum("bij,bjk->bik", x, y),
    "einsum_inner_prod": lambda x, y: np.einsum("i,i", x, y),
    "einsum_scalar": lambda x: x.copy(),
    "einsum_sum": lambda x: np.einsum("ij->i", x),
    "einsum_transpose": lambda x: np.einsum("ij->ji", x),
    "tile_precomputed": lambda x: np.tile(x, (2, 2)),
    "tile_precomputed_dyn": lambda x, repeats: np.tile(x, repeats),
    "constant_pad": lambda x: np.pad(x, ((0, 0), (0, 0), (1, 2), (3, 4)), constant_values=1.2),
    "edge_pad": lambda x: np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), mode="edge"),
    "reflect_pad": lambda x: np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), mode="reflect"),
    "conv_with_autopad_same": _conv_same,
    "clip": lambda x, low, high: np.clip(x, low, high),
    "clip_default_int8_max": lambda x: np.minimum(x, np.int8(0)),
    "cumsum_1d_reverse_exclusive": _reverse_exclusive_cumsum,
}
"""What each module computes, in NumPy (the resize modules have no NumPy twin)."""
INPUTS: dict[str, dict[str, np.ndarray]] = {
    "tile_precomputed_dyn": {"y": np.array([3, 2], np.int64)},
    "clip": {"min": np.array(-0.5, np.float32), "max": np.array(0.75, np.float32)},
    "resize2d_roi": {"roi": np.array([0, 0, 0.1, 0.2, 1, 1, 0.9, 0.7], np.float32)},
}
"""Inputs that are not drawn at random (repeats, bounds, regions of interest)."""


def module_and_inputs(name: str) -> tuple[ModuleOp, list[np.ndarray]]:
    """The module ``name`` as the frontend reads it, and its inputs."""
    path = MODULES / f"{name}.py"
    module = parse_tvmscript(path.read_text(), str(path))
    assert check_well_formed(module) == []
    main = next(
        op for op in module.ops if isinstance(op, FunctionOp) and op.sym_name.data == "main"
    )
    rng = np.random.default_rng(0)
    inputs = []
    for param in main.params:
        given = INPUTS.get(name, {}).get(param.name_hint or "")
        if given is not None:
            inputs.append(given)
            continue
        sinfo = param.type
        assert isinstance(sinfo, TensorType) and sinfo.dims is not None
        shape = tuple(int(dim.value) for dim in sinfo.dims)  # pyright: ignore[reportAttributeAccessIssue]
        dtype = sinfo.data_type.to_numpy()
        values = np.asarray(rng.standard_normal(shape) * 4)
        inputs.append(values.astype(dtype) if dtype.kind == "f" else values.round().astype(dtype))
    return module, inputs
