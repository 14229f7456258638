"""The generated workloads of the benchmark suite, as TVMScript and as the dialect's MLIR text.

    python bench/workloads.py WORKLOAD BINDINGS [--mlir] > FILE

Three programs, each a single ``main`` whose one dataflow block has exactly the
requested number of bindings, written in the form TVM 0.25 prints (every binding
annotated with its StructInfo, every operator attribute a keyword, imports as
comments) with the weights as function parameters (a pool of four weight sets
the layers take in turn), so that only the deliberate constants fold:

* ``transformer``: pre-norm decoder layers on ``x: [b, s, 64]`` with a symbolic
  batch ``b`` and sequence length ``s``: layer norm, query/key/value matmuls,
  reshape and permute to 4 heads, scores scaled by a constant computed from two
  constants, softmax, the attention output permuted and reshaped back, residual,
  RMS norm, a GELU MLP of width 128 with a bias, residual; per layer one
  duplicate matmul, one dead binding and one trivial ``match_cast`` (28 bindings
  a layer).
* ``mlp``: dense layers 64 → 128 → 64 on ``x: [n, 64]`` (matmul, bias, ReLU), one
  dead duplicate matmul per pair of layers (7 bindings a pair).
* ``resnet``: residual blocks on ``x: [n, 16, 16, 16]`` (NCHW): conv2d, inference
  batch_norm and its first field, ReLU, conv2d, a bias, the residual add, ReLU, a
  dead duplicate ReLU; every second block a shape-preserving 3x3 max or average
  pooling (9 or 10 bindings a block).

A last partial layer of ReLUs makes the count exact. ``mlir`` is the TVMScript
read by ``relax_dialect.frontends.tvmscript`` and printed: it has more operations than
bindings (``relax.shape`` and ``relax.constant`` leaves of the operands).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from io import StringIO

from xdsl.printer import Printer

from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript

HEADER = """# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
"""
EPS = "epsilon=1.0000000000000001e-05"
SETS = 4
"""How many weight sets the layers share, in turn."""
QKV = ("wq", "wk", "wv")


def tensor(*dims: object, quoted: bool = False) -> str:
    """``R.Tensor((d0, ...), dtype="float32")``; symbolic dims quoted in signatures."""
    text = ", ".join(f'"{d}"' if quoted and isinstance(d, str) else str(d) for d in dims)
    return f'R.Tensor(({text}{"," if len(dims) == 1 else ""}), dtype="float32")'


class Program:
    """A ``main`` function in TVM's printed form, one binding at a time."""

    def __init__(self, bindings: int):
        self.target = bindings
        self.lines: list[str] = []
        self.params: list[str] = []
        self.count = 0

    def param(self, name: str, *dims: object) -> str:
        self.params.append(f"{name}: {tensor(*dims, quoted=True)}")
        return name

    def bind(self, sinfo: str, expr: str) -> str:
        name = f"lv{self.count}" if self.count else "lv"
        self.lines.append(f"            {name}: {sinfo} = {expr}")
        self.count += 1
        return name

    def room(self, bindings: int) -> bool:
        """Whether ``bindings`` more fit in the requested count."""
        return self.count + bindings <= self.target

    def text(self, result: str, sinfo: str, symbols: tuple[str, ...], pad: str) -> str:
        """The module; ReLUs of ``result`` (``pad`` is its StructInfo) fill the count."""
        while self.count < self.target:
            result = self.bind(pad, f"R.nn.relu({result})")
        declarations = "".join(f"        {s} = T.int64()\n" for s in symbols)
        return (
            HEADER
            + f"    def main({', '.join(self.params)}) -> {sinfo}:\n"
            + declarations
            + "        with R.dataflow():\n"
            + "\n".join(self.lines)
            + f"\n            R.output({result})\n        return {result}\n"
        )


def transformer(bindings: int) -> str:
    """Pre-norm decoder layers on ``[b, s, 64]``, 28 bindings each."""
    d, heads, ffn = 64, 4, 128
    hd = d // heads
    p = Program(bindings)
    x = p.param("x", "b", "s", d)
    names = ("ln_g", (d,)), ("ln_b", (d,)), ("wq", (d, d)), ("wk", (d, d)), ("wv", (d, d))
    names += ("wo", (d, d)), ("rms_g", (d,)), ("w1", (d, ffn)), ("b1", (ffn,)), ("w2", (ffn, d))
    sets = [{n: p.param(f"{n}{i}", *shape) for n, shape in names} for i in range(SETS)]
    hidden, split = tensor("b", "s", d), tensor("b", "s", heads, hd)
    heads_first, keys = tensor("b", heads, "s", hd), tensor("b", heads, hd, "s")
    scores, wide = tensor("b", heads, "s", "s"), tensor("b", "s", ffn)
    layer = 0
    while p.room(28):
        w = sets[layer % SETS]
        layer += 1
        norm = f"{w['ln_g']}, {w['ln_b']}, axes=[-1], {EPS}, center=True, scale=True"
        h = p.bind(hidden, f"R.nn.layer_norm({x}, {norm})")
        q, k, v = (p.bind(hidden, f'R.matmul({h}, {w[n]}, out_dtype="void")') for n in QKV)
        qt = p.bind(split, f"R.reshape({q}, R.shape([b, s, {heads}, {hd}]))")
        qt = p.bind(heads_first, f"R.permute_dims({qt}, axes=[0, 2, 1, 3])")
        kt = p.bind(split, f"R.reshape({k}, R.shape([b, s, {heads}, {hd}]))")
        kt = p.bind(keys, f"R.permute_dims({kt}, axes=[0, 2, 3, 1])")
        vt = p.bind(split, f"R.reshape({v}, R.shape([b, s, {heads}, {hd}]))")
        vt = p.bind(heads_first, f"R.permute_dims({vt}, axes=[0, 2, 1, 3])")
        sc = p.bind(scores, f'R.matmul({qt}, {kt}, out_dtype="void")')
        scale = p.bind(tensor(), 'R.divide(R.const(1.0, "float32"), R.const(4.0, "float32"))')
        sc = p.bind(scores, f"R.multiply({sc}, {scale})")
        sc = p.bind(scores, f"R.nn.softmax({sc}, axis=-1)")
        o = p.bind(heads_first, f'R.matmul({sc}, {vt}, out_dtype="void")')
        o = p.bind(split, f"R.permute_dims({o}, axes=[0, 2, 1, 3])")
        o = p.bind(hidden, f"R.reshape({o}, R.shape([b, s, {d}]))")
        o = p.bind(hidden, f'R.matmul({o}, {w["wo"]}, out_dtype="void")')
        x2 = p.bind(hidden, f"R.add({x}, {o})")
        r = p.bind(hidden, f"R.nn.rms_norm({x2}, {w['rms_g']}, axes=[-1], {EPS})")
        u = p.bind(wide, f'R.matmul({r}, {w["w1"]}, out_dtype="void")')
        u = p.bind(wide, f"R.add({u}, {w['b1']})")
        u = p.bind(wide, f"R.nn.gelu({u})")
        p.bind(hidden, f'R.matmul({u}, {w["w2"]}, out_dtype="void")')  # dead until CSE
        down = p.bind(hidden, f'R.matmul({u}, {w["w2"]}, out_dtype="void")')
        x3 = p.bind(hidden, f"R.add({x2}, {down})")
        p.bind(hidden, f"R.multiply({x3}, {x3})")  # dead
        x = p.bind(hidden, f"R.match_cast({x3}, {hidden})")  # trivial: canonicalization
    return p.text(x, tensor("b", "s", d, quoted=True), ("b", "s"), hidden)


def mlp(bindings: int) -> str:
    """Dense layers 64 → 128 → 64 on ``[n, 64]``, 7 bindings per pair."""
    d, f = 64, 128
    p = Program(bindings)
    x = p.param("x", "n", d)
    names = ("w1", (d, f)), ("b1", (f,)), ("w2", (f, d)), ("b2", (d,))
    sets = [{n: p.param(f"{n}{i}", *shape) for n, shape in names} for i in range(SETS)]
    hidden, wide = tensor("n", d), tensor("n", f)
    pair = 0
    while p.room(7):
        w = sets[pair % SETS]
        pair += 1
        h = p.bind(wide, f'R.matmul({x}, {w["w1"]}, out_dtype="void")')
        p.bind(wide, f'R.matmul({x}, {w["w1"]}, out_dtype="void")')  # dead duplicate
        h = p.bind(wide, f"R.add({h}, {w['b1']})")
        h = p.bind(wide, f"R.nn.relu({h})")
        h = p.bind(hidden, f'R.matmul({h}, {w["w2"]}, out_dtype="void")')
        h = p.bind(hidden, f"R.add({h}, {w['b2']})")
        x = p.bind(hidden, f"R.nn.relu({h})")
    return p.text(x, tensor("n", d, quoted=True), ("n",), hidden)


def resnet(bindings: int) -> str:
    """Residual blocks on ``[n, 16, 16, 16]``, 9 bindings each (10 with a pooling)."""
    c, hw = 16, 16
    p = Program(bindings)
    x = p.param("x", "n", c, hw, hw)
    names = ("cw1", (c, c, 3, 3)), ("gamma", (c,)), ("beta", (c,)), ("mean", (c,)), ("var", (c,))
    names += ("cw2", (c, c, 3, 3)), ("bias", (1, c, 1, 1))
    sets = [{n: p.param(f"{n}{i}", *shape) for n, shape in names} for i in range(SETS)]
    image, channel = tensor("n", c, hw, hw), tensor(c)
    conv = (
        'strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", '
        'kernel_layout="OIHW", out_layout="NCHW", out_dtype="void"'
    )
    pool = (
        "pool_size=[3, 3], strides=[1, 1], dilation=[1, 1], padding=[1, 1, 1, 1], "
        'ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW"'
    )
    block = 0
    while p.room(10 if block % 2 else 9):
        w = sets[block % SETS]
        h = p.bind(image, f"R.nn.conv2d({x}, {w['cw1']}, {conv})")
        bn = p.bind(
            f"R.Tuple({image}, {channel}, {channel})",
            f"R.nn.batch_norm({h}, {w['gamma']}, {w['beta']}, {w['mean']}, {w['var']}, axis=1, "
            f"{EPS}, center=True, scale=True, momentum=0.10000000000000001, training=False)",
        )
        h = p.bind(image, f"{bn}[0]")
        h = p.bind(image, f"R.nn.relu({h})")
        p.bind(image, f"R.nn.relu({h})")  # dead duplicate
        h = p.bind(image, f"R.nn.conv2d({h}, {w['cw2']}, {conv})")
        h = p.bind(image, f"R.add({h}, {w['bias']})")
        h = p.bind(image, f"R.add({h}, {x})")
        x = p.bind(image, f"R.nn.relu({h})")
        if block % 2:
            kind = "max_pool2d" if block % 4 == 1 else "avg_pool2d"
            x = p.bind(image, f"R.nn.{kind}({x}, {pool})")
        block += 1
    return p.text(x, tensor("n", c, hw, hw, quoted=True), ("n",), image)


WORKLOADS: dict[str, Callable[[int], str]] = {
    "transformer": transformer,
    "mlp": mlp,
    "resnet": resnet,
}


def tvmscript(workload: str, bindings: int) -> str:
    """The TVMScript module of ``workload`` with ``bindings`` bindings."""
    return WORKLOADS[workload](bindings)


def mlir(workload: str, bindings: int) -> str:
    """The same module in the dialect's MLIR text (read from the TVMScript, printed)."""
    return print_module(parse_tvmscript(tvmscript(workload, bindings), f"{workload}.py"))


def print_module(module: object) -> str:
    """A module in the dialect's custom syntax, as ``relax-opt`` prints it."""
    stream = StringIO()
    Printer(stream=stream).print_op(module)  # pyright: ignore[reportArgumentType]
    return stream.getvalue() + "\n"


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("workload", choices=sorted(WORKLOADS))
    arguments.add_argument("bindings", type=int)
    arguments.add_argument("--mlir", action="store_true", help="the dialect's MLIR text")
    args = arguments.parse_args()
    make = mlir if args.mlir else tvmscript
    sys.stdout.write(make(args.workload, args.bindings))


if __name__ == "__main__":
    main()
