"""Regenerate the StableHLO fixtures: JAX programs as ``.mlir`` text, with their
inputs and JAX's outputs as ``.npz`` (``arg0``, ``arg1``... as the functions name their
parameters, and ``out0``...).

Each program is written twice: ``NAME.mlir`` lowered at the inputs' shapes
(``jax.jit(f).lower(...).as_text()``) and ``NAME.sym.mlir`` exported by
``jax.export`` with symbolic dimensions (``symbolic_shape("b, 784")``); one
``NAME.npz`` serves both. A few are also written in the generic form
(``NAME.generic.mlir``). JAX is a development tool, not a dependency: run this
with a Python that has ``jax[cpu]``::

    python -m venv /work/venv-jax && /work/venv-jax/bin/pip install 'jax[cpu]' numpy
    /work/venv-jax/bin/python test/stablehlo/generate_fixtures.py
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax import export, lax
from jax._src.interpreters import mlir as jax_mlir
from jax._src.lib.mlir import ir

OUT = Path(__file__).parent / "fixtures"
GENERIC = ("mlp", "cnn")
"""Fixtures also written in the generic operation form."""


@dataclass
class Fixture:
    """A JAX function, its inputs, and the symbolic form of each input's shape
    (None: the fixture has no symbolic export)."""

    name: str
    function: Callable[..., object]
    inputs: list[np.ndarray]
    symbolic: list[str] | None = None


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def normal(seed: int, *shape: int, scale: float = 1.0) -> np.ndarray:
    return (rng(seed).standard_normal(shape) * scale).astype(np.float32)


# -- models ------------------------------------------------------------------


def mlp(x, w1, b1, w2, b2):
    hidden = jax.nn.relu(x @ w1 + b1)
    return jax.nn.log_softmax(hidden @ w2 + b2, axis=-1)


def batch_norm(x, scale, offset, mean, var):
    return (x - mean) * lax.rsqrt(var + 1e-5) * scale + offset


def cnn(x, k1, scale, offset, mean, var, k2, w):
    y = lax.conv_general_dilated(x, k1, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    y = jax.nn.relu(batch_norm(y, scale, offset, mean, var))
    y = lax.reduce_window(y, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    y = lax.conv_general_dilated(
        y,
        k2,
        (2, 2),
        [(1, 1), (1, 1)],
        rhs_dilation=(1, 1),
        dimension_numbers=("NHWC", "HWIO", "NHWC"),
    )
    y = lax.reduce_window(y, 0.0, lax.add, (1, 2, 2, 1), (1, 1, 1, 1), "SAME") / 4.0
    return jnp.mean(y, axis=(1, 2)) @ w


def layer_norm(x, gamma, beta):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + 1e-5) * gamma + beta


HEADS = 2


def attention(q, k, v, mask):
    b, s, d = q.shape
    t = k.shape[1]
    head = d // HEADS
    q = q.reshape(b, s, HEADS, head).transpose(0, 2, 1, 3)
    k = k.reshape(b, t, HEADS, head).transpose(0, 2, 1, 3)
    v = v.reshape(b, t, HEADS, head).transpose(0, 2, 1, 3)
    scores = jnp.einsum("bhsd,bhtd->bhst", q, k) / np.sqrt(head).astype(np.float32)
    scores = jnp.where(mask, scores, -1e9)
    out = jnp.einsum("bhst,bhtd->bhsd", jax.nn.softmax(scores, axis=-1), v)
    return out.transpose(0, 2, 1, 3).reshape(b, s, d)


def encoder_layer(x, mask, wq, wk, wv, wo, g1, b1, w1, c1, w2, c2, g2, b2):
    h = layer_norm(x, g1, b1)
    x = x + attention(h @ wq, h @ wk, h @ wv, mask[:, None, :, :] > 0) @ wo
    h = layer_norm(x, g2, b2)
    return x + jax.nn.gelu(h @ w1 + c1) @ w2 + c2


def decoder_step(x, k_cache, v_cache, pos, wq, wk, wv, wo):
    k_cache = lax.dynamic_update_slice(k_cache, x @ wk, (0, pos, 0))
    v_cache = lax.dynamic_update_slice(v_cache, x @ wv, (0, pos, 0))
    visible = (jnp.arange(k_cache.shape[1]) <= pos)[None, None, None, :]
    out = attention(x @ wq, k_cache, v_cache, visible) @ wo
    return out, k_cache, v_cache


def fori(x, w):
    return lax.fori_loop(0, 3, lambda i, h: jnp.tanh(h @ w + i.astype(jnp.float32)), x)


def rnn_scan(xs, h0, w, u):
    def cell(h, x):
        h = jnp.tanh(x @ w + h @ u)
        return h, h

    last, every = lax.scan(cell, h0, jnp.swapaxes(xs, 0, 1))
    return last, jnp.swapaxes(every, 0, 1)


# -- one operation each -------------------------------------------------------


def per_op_fixtures() -> list[Fixture]:
    a = normal(1, 3, 4)
    p = np.abs(normal(2, 3, 4)) + 0.5
    ints = rng(3).integers(-5, 5, (3, 4)).astype(np.int32)
    return [
        Fixture(
            "op_unary",
            lambda x, y: (
                jnp.exp(x),
                jnp.log(y),
                jnp.sqrt(y),
                lax.rsqrt(y),
                jnp.tanh(x),
                jax.nn.sigmoid(x),
                jnp.abs(x),
                -x,
                jnp.floor(x),
                jnp.ceil(x),
                jnp.sin(x),
                jnp.cos(x),
                jnp.sign(x),
                jnp.round(x),
                lax.erf(x),
                jnp.log1p(y),
                jnp.expm1(x),
            ),
            [a, p],
            ["b, 4", "b, 4"],
        ),
        Fixture(
            "op_binary",
            lambda x, y: (
                x + y,
                x - y,
                x * y,
                x / y,
                jnp.maximum(x, y),
                jnp.minimum(x, y),
                x**2,
                jnp.power(y, x),
                jnp.arctan2(x, y),
                jnp.remainder(x, y),
            ),
            [a, p],
            ["b, 4", "b, 4"],
        ),
        Fixture(
            "op_integer",
            lambda i, j: (
                i + j,
                i * j,
                lax.div(i, jnp.where(j == 0, 1, j)),
                lax.rem(i, jnp.where(j == 0, 1, j)),
                i & j,
                i | j,
                i ^ j,
                ~i,
                lax.shift_left(i, 1),
                lax.shift_right_arithmetic(i, 1),
            ),
            [ints, ints[::-1].copy()],
            ["b, 4", "b, 4"],
        ),
        Fixture(
            "op_compare_select",
            lambda x, y: (
                jnp.where(x > y, x, y),
                (x >= y) & (x != y),
                jnp.clip(x, -0.5, 0.5),
                jnp.logical_not(x < y),
            ),
            [a, p],
            ["b, 4", "b, 4"],
        ),
        Fixture(
            "op_convert",
            lambda x: (
                x.astype(jnp.int32),
                x.astype(jnp.float16).astype(jnp.float32) * 2,
                (x > 0).astype(jnp.float32),
            ),
            [a],
            ["b, 4"],
        ),
        Fixture(
            "op_shape",
            lambda x: (
                x.T,
                x.reshape(4, 3),
                jnp.concatenate([x, x * 2], axis=1),
                x[1:3, ::2],
                jnp.pad(x, ((1, 0), (0, 2))),
                jnp.broadcast_to(x[:, None, :], (3, 2, 4)),
                jnp.flip(x, 0),
                jnp.arange(12, dtype=jnp.float32).reshape(3, 4) + x,
            ),
            [a],
            None,
        ),
        Fixture(
            "op_reduce",
            lambda x: (
                x.sum(0),
                x.max(1),
                x.min(),
                jnp.prod(x, 1),
                jnp.argmax(x, 1),
                jnp.argmin(x, 0),
                jnp.any(x > 1, 1),
                jnp.all(x > -2, 0),
                jnp.mean(x, 1),
            ),
            [a],
            ["b, 4"],
        ),
        Fixture(
            "op_dot",
            lambda x, y, z: (
                x @ y,
                jnp.einsum("bij,bjk->bik", z, z.transpose(0, 2, 1)),
                jnp.einsum("ij,kj->ik", x, x),
                jnp.dot(x[0], x[1]),
            ),
            [a, normal(4, 4, 5), normal(5, 2, 3, 4)],
            None,
        ),
        Fixture(
            "op_dynamic_slice",
            lambda x, i: (
                lax.dynamic_slice(x, (i, 1), (2, 2)),
                lax.dynamic_update_slice(x, jnp.ones((1, 2), x.dtype), (i, i)),
            ),
            [a, np.array(1, np.int32)],
            None,
        ),
        Fixture(
            "op_gather_scatter",
            lambda x, idx: (
                x[idx],
                jnp.take(x, idx, axis=1),
                x.at[idx].add(1.0),
                x.at[:, idx].set(0.0),
            ),
            [a, np.array([2, 0], np.int32)],
            None,
        ),
        Fixture(
            "op_sort",
            lambda x: (
                jnp.sort(x, axis=1),
                jnp.argsort(x, axis=0),
                lax.top_k(x, 2)[0],
                jnp.cumsum(x, axis=1),
            ),
            [a],
            None,
        ),
        Fixture(
            "op_cond",
            lambda x, p: (
                lax.cond(p > 0, lambda v: v * 2.0, lambda v: v - 1.0, x),
                lax.switch(jnp.clip(p, 0, 2), [jnp.sin, jnp.cos, jnp.tanh], x),
            ),
            [a, np.array(1, np.int32)],
            ["b, 4", ""],
        ),
    ]


def fixtures() -> list[Fixture]:
    d, f, s, t = 8, 16, 5, 6
    return [
        Fixture(
            "mlp",
            mlp,
            [
                normal(10, 2, 784),
                normal(11, 784, 32, scale=0.05),
                normal(12, 32),
                normal(13, 32, 10, scale=0.2),
                normal(14, 10),
            ],
            ["b, 784", "784, 32", "32", "32, 10", "10"],
        ),
        Fixture(
            "cnn",
            cnn,
            [
                normal(20, 2, 8, 8, 3),
                normal(21, 3, 3, 3, 4, scale=0.3),
                normal(22, 4),
                normal(23, 4),
                normal(24, 4),
                np.abs(normal(25, 4)) + 0.5,
                normal(26, 3, 3, 4, 6, scale=0.3),
                normal(27, 6, 5),
            ],
            ["b, 8, 8, 3", "3, 3, 3, 4", "4", "4", "4", "4", "3, 3, 4, 6", "6, 5"],
        ),
        Fixture(
            "encoder_layer",
            encoder_layer,
            [
                normal(30, 2, s, d),
                (rng(31).random((2, s, s)) > 0.3).astype(np.float32),
                *(normal(32 + i, d, d, scale=0.3) for i in range(4)),
                normal(36, d),
                normal(37, d),
                normal(38, d, f, scale=0.3),
                normal(39, f),
                normal(40, f, d, scale=0.3),
                normal(41, d),
                normal(42, d),
                normal(43, d),
            ],
            [
                "b, s, 8",
                "b, s, s",
                "8, 8",
                "8, 8",
                "8, 8",
                "8, 8",
                "8",
                "8",
                "8, 16",
                "16",
                "16, 8",
                "8",
                "8",
                "8",
            ],
        ),
        Fixture(
            "decoder_step",
            decoder_step,
            [
                normal(50, 2, 1, d),
                normal(51, 2, t, d),
                normal(52, 2, t, d),
                np.array(3, np.int32),
                *(normal(53 + i, d, d, scale=0.3) for i in range(4)),
            ],
            ["b, 1, 8", "b, 6, 8", "b, 6, 8", "", "8, 8", "8, 8", "8, 8", "8, 8"],
        ),
        Fixture(
            "fori_loop", fori, [normal(60, 2, 4), normal(61, 4, 4, scale=0.5)], ["b, 4", "4, 4"]
        ),
        Fixture(
            "scan",
            rnn_scan,
            [
                normal(70, 2, 5, 3),
                normal(71, 2, 4),
                normal(72, 3, 4, scale=0.5),
                normal(73, 4, 4, scale=0.5),
            ],
            ["b, 5, 3", "b, 4", "3, 4", "4, 4"],
        ),
        *per_op_fixtures(),
    ]


def without_debug_info(text: str, generic: bool = False) -> str:
    """The module's text without locations (as ``as_text()`` prints it)."""
    with jax_mlir.make_ir_context():
        module = ir.Module.parse(text)
        return module.operation.get_asm(enable_debug_info=False, print_generic_op_form=generic)


def write(fixture: Fixture) -> None:
    function = jax.jit(fixture.function)
    outputs = jax.tree_util.tree_leaves(function(*fixture.inputs))
    arrays = {f"arg{i}": np.asarray(x) for i, x in enumerate(fixture.inputs)}
    arrays.update({f"out{i}": np.asarray(y) for i, y in enumerate(outputs)})
    np.savez(OUT / f"{fixture.name}.npz", **arrays)
    text = function.lower(*fixture.inputs).as_text()
    (OUT / f"{fixture.name}.mlir").write_text(text)
    if fixture.name in GENERIC:
        (OUT / f"{fixture.name}.generic.mlir").write_text(without_debug_info(text, generic=True))
    if fixture.symbolic is not None:
        scope = export.SymbolicScope()
        specs = [
            jax.ShapeDtypeStruct(
                export.symbolic_shape(shape, scope=scope) if shape else (), x.dtype
            )
            for shape, x in zip(fixture.symbolic, fixture.inputs, strict=True)
        ]
        exported = export.export(function)(*specs)
        (OUT / f"{fixture.name}.sym.mlir").write_text(without_debug_info(exported.mlir_module()))


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for fixture in fixtures():
        write(fixture)
        print(fixture.name)


if __name__ == "__main__":
    main()
