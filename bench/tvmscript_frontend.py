"""TVMScript frontend throughput, side by side with TVM's own parser.

    python bench/tvmscript_frontend.py [--sizes 1000,2000,5000,10000] [--repeat 3]

For each size it generates the transformer workload of ``workloads.py`` with
that many bindings (TVM's printed form, symbolic batch and sequence length) and
times reading it into the dialect (``ast`` parsing, StructInfo inference of every
binding) and then the well-formedness check. When ``tvm`` is importable it
times ``tvm.script.from_source`` on the same text in the same run; TVM's
parser is the baseline. The scaling exponent between the smallest and the
largest size shows linearity (1.0).
"""

from __future__ import annotations

import argparse
import math
import platform
from collections.abc import Callable

from timing import best_of
from workloads import transformer
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin

from relax_dialect.dialect import Relax
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.well_formed import check_well_formed


def tvm_parser() -> Callable[[str], object] | None:
    try:
        from tvm.script import from_source  # pyright: ignore[reportMissingImports]
    except ImportError:
        return None
    return from_source


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--sizes", default="1000,2000,5000,10000")
    arguments.add_argument("--repeat", type=int, default=3)
    args = arguments.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Relax)
    tvm_parse = tvm_parser()
    print(
        f"machine: {platform.machine()}, Python {platform.python_version()}; best of "
        f"{args.repeat}; TVM parser: {'yes' if tvm_parse else 'not installed'}"
    )
    columns = ("bindings", "read", "check", "total", "per s", "TVM")
    print(" ".join(f"{c:>9}" for c in columns), f"{'ratio':>7}")
    totals: dict[int, float] = {}
    theirs: dict[int, float] = {}
    for size in sizes:
        text = transformer(size)
        module = parse_tvmscript(text, "bench.py", ctx=ctx)
        assert check_well_formed(module) == []
        read = best_of(args.repeat, lambda: parse_tvmscript(text, "bench.py", ctx=ctx))  # noqa: B023
        check = best_of(args.repeat, lambda: check_well_formed(module))  # noqa: B023
        totals[size] = read + check
        row = (
            f"{size:>9} {read:8.3f}s {check:8.3f}s {totals[size]:8.3f}s {size / totals[size]:9.0f}"
        )
        if tvm_parse is not None:
            theirs[size] = best_of(1, lambda: tvm_parse(text))  # noqa: B023
            row += f" {theirs[size]:8.3f}s {theirs[size] / totals[size]:6.1f}x"
        print(row)
    if len(sizes) > 1:
        small, large = sizes[0], sizes[-1]
        for name, times in (("ours", totals), ("TVM", theirs)):
            if times:
                exponent = math.log(times[large] / times[small]) / math.log(large / small)
                print(f"scaling exponent ({name}): {exponent:.2f}")


if __name__ == "__main__":
    main()
