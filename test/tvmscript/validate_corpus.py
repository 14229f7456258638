"""Validate the TVMScript corpus against TVM 0.25.

Run with the TVM environment (not the project's)::

    /work/tvmenv/bin/python test/tvmscript/validate_corpus.py [-v] [--no-run] [-k SUBSTRING]

Checks that

* every ``corpus/*.py`` file has a leading docstring or comment, ``# ruff: noqa``, the three
  TVMScript imports and ``@I.ir_module class Module``; TVM parses it and finds it well formed;
  a file with ``T.prim_func`` has ``call_tir`` in its name; a file with a ``# run:`` line uses
  no packed function, print, assert or ``call_tir``, and its entry function builds with LLVM
  and runs on the VM with the deterministic inputs of ``inputs.py``;
* every ``errors/*.py`` file starts with ``# error: LINE:COL: message`` (a position inside the
  file) and ends with ``# tvm: rejects`` or ``# tvm: accepts``, which is what TVM does;
* every ``corpus_newer/*.py`` file is valid Python with a leading comment (TVM 0.25 cannot
  check the newer syntax; it notes which files it accepts once the renamed spellings are
  translated back);
* every operator of ``docs/operators.md`` is called somewhere in the corpus (read from the
  IR TVM builds, so spellings that differ from the operator name count).

Prints the numbers and exits with status 1 on any failure.
"""

from __future__ import annotations

import argparse
import ast
import re
import shutil
import sys
import tempfile
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402
import tvm  # noqa: E402
import tvm_oracle  # noqa: E402
from inputs import parse_run_spec  # noqa: E402
from tvm import relax  # noqa: E402

IMPORTS = "from tvm.script import ir as I, relax as R, tirx as T"
ERROR_LINE = re.compile(r"^# error: (?P<line>\d+):(?P<col>\d+): (?P<message>\S.*)$")
TVM_LINE = re.compile(r"^# tvm: (?P<verdict>rejects|accepts)\s*$")
NOT_RUNNABLE = re.compile(
    r"R\.call_packed|R\.call_pure_packed|R\.call_inplace_packed|R\.call_dps_packed|R\.print"
    r"|R\.assert_op|R\.call_tir|T\.prim_func"
)


@dataclass
class Report:
    """Counts and failures of one validation run."""

    counts: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def fail(self, path: Path, message: str) -> None:
        self.failures.append(f"{path.relative_to(HERE)}: {message}")


def _leading_comment_or_docstring(text: str) -> bool:
    first = next((line for line in text.splitlines() if line.strip()), "")
    return first.startswith("#") or first.startswith('"""')


def _ops_called(mod: tvm.IRModule) -> set[str]:
    names: set[str] = set()

    def visit(expr: relax.Expr) -> None:
        if isinstance(expr, relax.Call):
            if isinstance(expr.op, tvm.ir.Op):
                names.add(expr.op.name)
            elif isinstance(expr.op, tvm.ir.GlobalVar):
                names.add("relax.call")
            elif isinstance(expr.op, relax.ExternFunc):
                names.add("relax.call_packed")  # R.call_packed calls an ExternFunc, no Op

    for func in mod.functions.values():
        if isinstance(func, relax.Function):
            relax.analysis.post_order_visit(func, visit)
    return names


def _documented_ops() -> list[str]:
    text = (REPO / "docs" / "operators.md").read_text()
    return re.findall(r"^\| `(relax\.[\w.]+)`", text, re.MULTILINE)


def check_corpus(report: Report, args: argparse.Namespace) -> set[str]:
    """Check the programs of ``corpus/``; return the operators they call."""
    ops: set[str] = set()
    scratch = Path(tempfile.mkdtemp(prefix="tvmscript_printed_"))
    for path in sorted((HERE / "corpus").glob("*.py")):
        if args.k and args.k not in path.name:
            continue
        report.counts["corpus files"] += 1
        text = path.read_text()
        if not re.match(r"^\d{3}_\w+\.py$", path.name):
            report.fail(path, "name is not NNN_topic.py")
        if not _leading_comment_or_docstring(text):
            report.fail(path, "does not start with a docstring or comment")
        if "# ruff: noqa" not in text:
            report.fail(path, "no '# ruff: noqa'")
        if IMPORTS not in text.splitlines():
            report.fail(path, f"no line {IMPORTS!r}")
        if "@I.ir_module" not in text or "class Module:" not in text:
            report.fail(path, "no '@I.ir_module class Module:'")
        if "T.prim_func" in text and "call_tir" not in path.name:
            report.fail(path, "T.prim_func in a file whose name does not say call_tir")
        try:
            spec = parse_run_spec(text)
        except ValueError as error:
            report.fail(path, str(error))
            spec = None
        if spec is not None and NOT_RUNNABLE.search(text):
            report.fail(path, "run spec on a program with packed calls, print/assert or call_tir")
        try:
            mod = tvm_oracle.load(path)
        except Exception as error:
            report.fail(path, f"TVM rejects it: {type(error).__name__}: {error}")
            continue
        if not relax.analysis.check_well_formed(mod):
            report.fail(path, "not well formed")
            continue
        report.counts["corpus accepted and well formed"] += 1
        ops |= _ops_called(mod)
        reprinted = scratch / path.name
        reprinted.write_text(tvm_oracle.printed(mod))
        if tvm_oracle.rejection(reprinted) is None:
            report.counts["corpus printed by TVM parses again"] += 1
        else:
            report.fail(path, "TVM rejects its own printed form of the program")
        if args.v:
            print(f"ok   {path.name}")
        if spec is None:
            continue
        report.counts["run specs"] += 1
        if args.no_run:
            continue
        try:
            inputs = tvm_oracle.generate_inputs(mod, spec.entry, spec.sizes)
            vm = tvm_oracle.build(mod)
            call_args = [tvm.runtime.tensor(inputs[p.name_hint]) for p in mod[spec.entry].params]
            result = tvm_oracle._to_numpy(vm[spec.entry](*call_args))
        except Exception as error:
            message = str(error).strip().splitlines()
            report.fail(
                path, f"build/run failed: {type(error).__name__}: {message[-1] if message else ''}"
            )
            if args.v:
                traceback.print_exc()
            continue
        report.counts["run in TVM"] += 1
        leaves = _leaves(result)
        if any(
            isinstance(a, np.ndarray) and a.dtype.kind == "f" and np.isnan(a).any() for a in leaves
        ):
            report.notes.append(f"{path.name}: result has NaN")
        if args.v:
            print(f"run  {path.name}: {_describe(result)}")
    shutil.rmtree(scratch, ignore_errors=True)
    return ops


def _leaves(value: object) -> list[object]:
    if isinstance(value, tuple):
        return [leaf for item in value for leaf in _leaves(item)]
    return [value]


def _describe(value: object) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(_describe(item) for item in value) + ")"
    if isinstance(value, np.ndarray):
        return f"{value.dtype}{list(value.shape)}"
    return repr(value)


def check_errors(report: Report, args: argparse.Namespace) -> None:
    """Check the invalid programs of ``errors/`` and their ``# tvm:`` verdicts."""
    for path in sorted((HERE / "errors").glob("*.py")):
        if args.k and args.k not in path.name:
            continue
        report.counts["error files"] += 1
        lines = path.read_text().splitlines()
        match = ERROR_LINE.match(lines[0]) if lines else None
        if match is None:
            report.fail(path, "first line is not '# error: LINE:COL: message'")
            continue
        line, col = int(match["line"]), int(match["col"])
        if not 1 <= line <= len(lines) or not 1 <= col <= len(lines[line - 1]) + 1:
            report.fail(path, f"position {line}:{col} is outside the file")
        elif not lines[line - 1][col - 1 :].strip():
            report.fail(path, f"position {line}:{col} points at nothing")
        verdicts = [m["verdict"] for m in map(TVM_LINE.match, lines) if m]
        if len(verdicts) != 1 or not TVM_LINE.match(lines[-1]):
            report.fail(path, "last line is not '# tvm: rejects' or '# tvm: accepts'")
            continue
        message = tvm_oracle.rejection(path)
        measured = "accepts" if message is None else "rejects"
        report.counts[f"error files TVM {measured}"] += 1
        if measured != verdicts[0]:
            report.fail(
                path,
                f"says 'tvm: {verdicts[0]}' but TVM {measured}"
                + (f" ({message.splitlines()[0]})" if message else ""),
            )
        if args.v:
            first = message.splitlines()[0] if message else ""
            print(f"{measured:8} {path.name}: {first[:150]}")


_TYPEVAR = re.compile(r'^(\w+) = TypeVar\("\1"\)\n', re.MULTILINE)
_SIGNATURE = re.compile(r"^(?P<indent>\s*)def (?P<name>\w+)\((?P<params>.*)\)(?P<ret> -> .*)?:$")


def to_tvm_025(text: str) -> str:
    """Spell a newer-syntax program the TVM 0.25 way, as far as renames go: module-level
    ``TypeVar`` declarations become quoted signature dimensions plus ``T.int64()`` in the body,
    ``R.Any`` becomes ``R.Object``, ``ty_args=``/``out_ty=`` become ``sinfo_args=``/
    ``out_sinfo=``, and ``T.int64``-style prim annotations become ``R.Prim("int64")``.
    Features TVM 0.25 lacks (arithmetic on prim values, bare returned prim values) stay."""
    type_vars = _TYPEVAR.findall(text)
    text = _TYPEVAR.sub("", text).replace("from typing import TypeVar\n", "")
    text = text.replace("R.Any", "R.Object").replace("ty_args=", "sinfo_args=")
    text = text.replace("out_ty=", "out_sinfo=")
    text = re.sub(
        r"(?<![\w.])T\.(int64|int32|float32|float64|bool)(?![\w(])", r'R.Prim("\1")', text
    )
    lines: list[str] = []
    for line in text.split("\n"):
        match = _SIGNATURE.match(line)
        if match is None or not type_vars:
            lines.append(line)
            continue
        params, ret = match["params"], match["ret"] or ""
        for var in type_vars:
            bare = rf'(?<![\w"]){var}(?![\w"])'
            params = re.sub(bare, f'"{var}"', params)
            ret = re.sub(bare, f'"{var}"', ret)
        lines.append(f"{match['indent']}def {match['name']}({params}){ret}:")
        lines.extend(
            f"{match['indent']}    {var} = T.int64()" for var in type_vars if f'"{var}"' in params
        )
    return "\n".join(lines)


def check_newer(report: Report, args: argparse.Namespace) -> None:
    """Check the programs in the newer (TVM 0.27) syntax as far as Python and TVM 0.25 can:
    valid Python, and (a note, not a failure) whether TVM 0.25 accepts them once the renamed
    spellings are translated back (:func:`to_tvm_025`)."""
    scratch = Path(tempfile.mkdtemp(prefix="tvmscript_newer_"))
    for path in sorted((HERE / "corpus_newer").glob("*.py")):
        if args.k and args.k not in path.name:
            continue
        report.counts["newer-syntax files"] += 1
        text = path.read_text()
        if not _leading_comment_or_docstring(text):
            report.fail(path, "does not start with a docstring or comment")
        try:
            ast.parse(text)
        except SyntaxError as error:
            report.fail(path, f"not valid Python: {error}")
            continue
        translated = scratch / path.name
        translated.write_text(to_tvm_025(text))
        message = tvm_oracle.rejection(translated)
        if message is None:
            report.counts["newer files TVM 0.25 accepts translated"] += 1
        else:
            report.notes.append(
                f"{path.name}: TVM 0.25 rejects its translation: {message.splitlines()[0][:120]}"
            )
    shutil.rmtree(scratch, ignore_errors=True)


def main() -> int:
    """Run every check and print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", action="store_true", help="print every file")
    parser.add_argument("--no-run", action="store_true", help="do not build and run")
    parser.add_argument("-k", default="", help="only files whose name contains this")
    args = parser.parse_args()
    report = Report()
    ops = check_corpus(report, args)
    check_errors(report, args)
    check_newer(report, args)
    if not args.k:
        documented = _documented_ops()
        missing = [op for op in documented if op not in ops]
        report.counts["operators documented"] = len(documented)
        report.counts["operators called in the corpus"] = len(documented) - len(missing)
        if missing:
            report.failures.append(f"operators never called in the corpus: {missing}")
    print(f"TVM {tvm.__version__}")
    for key, value in report.counts.items():
        print(f"{key:42} {value}")
    for note in report.notes:
        print(f"note: {note}")
    for failure in report.failures:
        print(f"FAIL: {failure}")
    print("OK" if not report.failures else f"{len(report.failures)} failure(s)")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
