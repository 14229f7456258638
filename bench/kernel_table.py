"""Every issue-33 model kernel by kernel: time, flops, GFLOP/s, % of peak, against onnxruntime.

    python bench/kernel_table.py [--calls 20] [--rounds 3] [--only NAME]

For each model of ``MODELS`` (the BERT-base layer at 1 × 128 and 8 × 128, the GPT-2 block,
ResNet-18 and MobileNetV2 with constant weights and with weights as parameters), in one
process: native code (tiled, one thread) and onnxruntime (one intra-op thread) take turns in
``--rounds`` blocks of ``--calls`` calls (median CPU time per call, results checked first);
then ``kernel_profile`` shares native's median among its kernels by ``perf record``'s samples
(a child process calling the model for `PROFILED` ms) and onnxruntime's among its nodes by its
per-node profile. One markdown table per model, a row per kind of kernel (the kernels of one
convolution or matrix product shape together, `kernel_work.kernel_key`; every other kernel
alone): its calls per inference, what it is (the shape and the body of the epilogue; another
kernel's last linalg operation), ms per inference, share, the flops it computes
per inference (`kernel_work`: from its linalg operations), GFLOP/s and % of one core's peak,
GB/s (the least memory traffic: its arguments, results and constants once, the figure that
matters for element-wise kernels), and onnxruntime's nodes of the same convolution or product
shape with the ratio. The last rows: the kernels matched to onnxruntime's nodes, and the
whole model (native's and onnxruntime's medians). Needs Linux ``perf``.
"""

from __future__ import annotations

import argparse
import math
import os
from dataclasses import dataclass

from kernel_profile import Kernel, compiled, descriptions, ort_nodes, sample_shares, workload
from kernel_work import total
from models import ort_session, peak_gflops
from native_summary import checked
from timing import interleaved_medians

MODELS = {
    "bert": {},
    "gpt2": {"gpt2": True},
    "bert8": {"batch": 8},
    "resnet18": {"cnn": "resnet18"},
    "resnet18-parameters": {"cnn": "resnet18", "parameters": True},
    "mobilenet": {"cnn": "mobilenet"},
    "mobilenet-parameters": {"cnn": "mobilenet", "parameters": True},
}
"""Each model's `kernel_profile` options (beside the defaults of `arguments`)."""
PROFILED = 3000.0
"""Milliseconds of calls profiled per model (3,000 samples)."""


@dataclass
class Row:
    """A kind of kernel of one model: per inference, its calls, milliseconds, flops and bytes
    (None when not counted), and onnxruntime's milliseconds in the matching nodes."""

    key: str
    what: str
    calls: int
    milliseconds: float
    flops: int | None
    bytes: int | None
    onnxruntime: float | None


def arguments(calls: int, **options: object) -> argparse.Namespace:
    """`kernel_profile`'s options for a model: one thread, ``calls`` calls."""
    defaults = {"gpt2": False, "cnn": None, "parameters": False, "batch": 1, "threads": 1}
    return argparse.Namespace(**(defaults | options), calls=calls, child=False)


def rows(
    samples: dict[str, float],
    kernels: dict[str, Kernel],
    milliseconds: float,
    onnxruntime: dict[str, float],
) -> list[Row]:
    """The model's ``milliseconds`` shared by ``samples`` (per symbol: kernels, libmvec, the
    C library) among kinds of kernels (every kernel, sampled or not), the kernels of one key
    together, largest first."""
    counted = sum(samples.values())
    groups: dict[str, list[str]] = {}
    for symbol in {**kernels, **samples}:
        kernel = kernels.get(symbol)
        groups.setdefault(kernel.key if kernel and kernel.key else symbol, []).append(symbol)
    found = []
    for key, symbols in groups.items():
        time = sum(milliseconds * samples.get(symbol, 0.0) / counted for symbol in symbols)
        described = [kernels[symbol] for symbol in symbols if symbol in kernels]
        if not described:
            found.append(Row(key, key, 0, time, None, None, None))
            continue
        first = described[0]
        what = f"{first.key}, then [{first.body}]" if first.key else first.text
        if len(described) > 1:
            what += f" (and {len(described) - 1} more of this shape)"
        flops, moved = total([k.flops for k in described]), total([k.bytes for k in described])
        calls = sum(k.calls for k in described)
        found.append(Row(key, what, calls, time, flops, moved, onnxruntime.get(key)))
    return sorted(found, key=lambda row: -row.milliseconds)


def _rate(amount: int | None, milliseconds: float) -> float | None:
    """``amount`` per second, in thousand millions."""
    return None if not amount or milliseconds <= 0 else amount / milliseconds / 1e6


def _cells(row: Row, total: float, peak: float) -> list[str]:
    gflops, gbytes = _rate(row.flops, row.milliseconds), _rate(row.bytes, row.milliseconds)
    ort = row.onnxruntime
    return [
        str(row.calls or "—"),
        f"{row.milliseconds:.2f}",
        f"{row.milliseconds / total:.1%}",
        "—" if row.flops is None else f"{row.flops / 1e6:.1f}",
        "—" if gflops is None else f"{gflops:.1f}",
        "—" if gflops is None else f"{gflops / peak:.0%}",
        "—" if gbytes is None else f"{gbytes:.1f}",
        "—" if ort is None else f"{ort:.2f}",
        "—" if not ort else f"{row.milliseconds / ort:.2f}x",
    ]


HEADER = (
    "| kernel | calls | ms | share | MFLOP | GFLOP/s | % peak | GB/s | onnxruntime ms "
    "| native / ORT |\n|---|---|---|---|---|---|---|---|---|---|"
)


def table(found: list[Row], milliseconds: float, onnxruntime: dict[str, float], peak: float) -> str:
    """The rows as a markdown table with two summary rows: the rows matched to onnxruntime's
    nodes, and the whole model (``milliseconds`` against the sum of ``onnxruntime``); then
    onnxruntime's other nodes, largest first."""
    lines = [HEADER]
    for row in found:
        lines.append(f"| {row.what} | " + " | ".join(_cells(row, milliseconds, peak)) + " |")
    matched = [row for row in found if row.onnxruntime]
    summaries = [
        Row(
            "",
            "**kernels matched to onnxruntime's nodes**",
            sum(row.calls for row in matched),
            sum(row.milliseconds for row in matched),
            total([row.flops for row in matched]),
            total([row.bytes for row in matched]),
            sum(row.onnxruntime or 0.0 for row in matched),
        ),
        Row(
            "",
            "**the model**",
            sum(row.calls for row in found),
            milliseconds,
            total([row.flops for row in found if row.calls]),
            None,
            sum(onnxruntime.values()),
        ),
    ]
    for row in summaries:
        lines.append(f"| {row.what} | " + " | ".join(_cells(row, milliseconds, peak)) + " |")
    others = {key: ms for key, ms in onnxruntime.items() if key not in {row.key for row in matched}}
    listed = ", ".join(f"{key} {ms:.2f}" for key, ms in sorted(others.items(), key=lambda i: -i[1]))
    return "\n".join(lines) + f"\n\nonnxruntime's other nodes (ms): {listed or 'none'}."


def model_table(args: argparse.Namespace, rounds: int, peak: float) -> str:
    """One model's heading and table."""
    work = workload(args)
    native = compiled(work, args.threads)
    session = ort_session(work.onnx)
    engines = {
        "native": checked(lambda: native(*work.values), work.expected()),
        "onnxruntime": lambda: session.run(None, work.feeds),
    }
    times = interleaved_medians(engines, rounds, args.calls)
    ours, theirs = times["native"], times["onnxruntime"]
    profiled = argparse.Namespace(**vars(args) | {"calls": math.ceil(PROFILED / ours)})
    samples = {symbol: sum(shares.values()) for symbol, shares in sample_shares(profiled).items()}
    nodes = ort_nodes(work, args.calls, theirs)
    heading = (
        f"### {work.name}: native {ours:.1f} ms, onnxruntime 1T {theirs:.1f} ms "
        f"({ours / theirs:.2f}x)"
    )
    found = rows(samples, descriptions(work.module, work.values), ours, nodes)
    return heading + "\n\n" + table(found, ours, nodes, peak)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=tuple(MODELS), action="append")
    options = parser.parse_args()
    peak = peak_gflops() / (os.cpu_count() or 1)
    print(
        f"One core's f32 FMA peak: {peak:.0f} GFLOP/s. CPU ms per inference, medians of "
        f"{options.rounds} × {options.calls} calls, load average "
        f"{os.getloadavg()[0]:.1f} at the start.\n"
    )
    for name in options.only or MODELS:
        args = arguments(options.calls, **MODELS[name])
        print(model_table(args, options.rounds, peak) + "\n", flush=True)


if __name__ == "__main__":
    main()
