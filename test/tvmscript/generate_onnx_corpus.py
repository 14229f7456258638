"""Generate ``corpus_onnx/``: the Relax programs TVM 0.25's ONNX importer makes of ONNX's
node test suite, where TVM reproduces ONNX's expected outputs.

Test tooling, run by hand with a Python that has ``tvm`` (0.25), ``onnx`` and this directory
on its path (the project itself is not needed)::

    nice python test/tvmscript/generate_onnx_corpus.py --cache /tmp/onnx-cache

For each case of ``onnx.backend.test.case.node.collect_testcases()`` (which regenerates the
models and their expected outputs offline) it imports the model with
``tvm.relax.frontend.onnx.from_onnx`` (default options: symbolic dimensions stay symbolic),
builds it for LLVM, runs it on the case's inputs and compares with ONNX's expected outputs
as ONNX's backend test does (the case's ``rtol``/``atol``, 1e-3/1e-7 by default; equal shapes
and data types; integers and booleans exactly). The verdicts go to the cache directory, one
JSON file per case, so a second run redoes nothing; each case runs in a worker process that
is replaced when it crashes or takes longer than ``--timeout`` seconds.

For each reproduced case whose data are small (``--max-bytes``), the corpus gets:

* ``NAME.py``: the module as TVM prints it (``tvm_oracle.printed``);
* ``NAME.npz``: the inputs keyed by parameter name (``relax-run --inputs NAME.npz``);
* ``NAME.expected.npz``: ONNX's expected outputs as ``out0``, ``out1``... (the keys of
  ``relax-run --outputs``);
* ``NAME.metadata.npz``: the module's ``metadata["relax.expr.Constant"]`` arrays keyed by
  index, when it has any (``relax-opt --metadata``);

where NAME is the ONNX case's name without its ``test_`` prefix. ``SUMMARY.txt`` records
how many cases there are, how many TVM imports, builds and reproduces, and why the others
were left out.
"""

from __future__ import annotations

import argparse
import ast
import collections
import contextlib
import io
import json
import multiprocessing
import queue
import shutil
import sys
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from relax_dialect.dtype import FORMATS
from relax_dialect.frontends.onnx.dtypes import stored

HERE = Path(__file__).resolve().parent


def first_line(error: BaseException) -> str:
    """The first line of an error's message that says something, with its type."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    message = next((line for line in lines if not line.startswith(("Traceback", "File "))), "")
    return f"{type(error).__name__}: {message}"[:300]


def leaves(value: Any) -> Iterator[np.ndarray]:
    """A result's arrays, nested tuples flattened depth first (as ``relax-run`` does)."""
    if isinstance(value, tuple | list):
        for item in value:
            yield from leaves(item)
    else:
        yield np.asarray(value)


def mismatch(
    actual: list[np.ndarray], expected: list[np.ndarray], rtol: float, atol: float
) -> str | None:
    """How ``actual`` outputs differ from ``expected`` beyond ONNX's tolerance (floating
    point: ``rtol``, ``atol``; the others exactly), or ``None``."""
    if len(actual) != len(expected):
        return f"{len(actual)} outputs, expected {len(expected)}"
    for index, (got, want) in enumerate(zip(actual, expected, strict=True)):
        want = stored(want)  # ONNX's 4- and 2-bit integers, as Relax holds them
        if got.dtype != want.dtype or got.shape != want.shape:
            return (
                f"out{index}: {got.dtype}{list(got.shape)}, expected {want.dtype}{list(want.shape)}"
            )
        if want.dtype.kind == "f":
            close = np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
        elif want.dtype.name in FORMATS:  # bfloat16, float8, float4 (ml_dtypes)
            wide_got, wide_want = (a.astype(np.float64) for a in (got, want))
            # bfloat16 within two of its ULPs, as ONNX's backend test runner allows
            tolerance = max(rtol, 2**-6) if want.dtype.name == "bfloat16" else rtol
            close = np.isclose(wide_got, wide_want, rtol=tolerance, atol=atol, equal_nan=True)
        else:
            close = got == want
        if not np.all(close):
            return f"out{index}: {np.count_nonzero(~close)} of {want.size} values differ"
    return None


def metadata_arrays(mod: Any) -> list[np.ndarray]:
    """The arrays of the module's ``metadata["relax.expr.Constant"]``, in index order."""
    import tvm

    text = mod.script(show_meta=True)
    start = text.find('tvm.ir.load_json("""')
    if start < 0:
        return []
    start += len("tvm.ir.load_json(")
    literal = text[start : text.index('""")', start) + 3]  # TVM's own output, a string literal
    constants = tvm.ir.load_json(ast.literal_eval(literal)).get("relax.expr.Constant", [])
    return [constant.data.numpy() for constant in constants]


def examine(name: str, model_bytes: bytes, inputs: list[np.ndarray], expected, rtol, atol):
    """The verdict on one case (a dict for the cache), with its program and arrays when it
    is reproduced."""
    import onnx
    import tvm
    import tvm_oracle
    from tvm.relax.frontend.onnx import from_onnx

    record: dict[str, Any] = {"name": name}
    try:
        mod = from_onnx(onnx.load_from_string(model_bytes))
    except Exception as error:  # the importer raises many kinds
        return {**record, "verdict": "no import", "reason": first_line(error)}
    params = mod["main"].params
    if len(params) != len(inputs):
        reason = f"{len(params)} parameters for {len(inputs)} inputs"
        return {**record, "verdict": "no run", "reason": reason}
    try:
        vm = tvm_oracle.build(mod)
    except Exception as error:
        return {**record, "verdict": "no build", "reason": first_line(error)}
    try:
        result = vm["main"](*(tvm.runtime.tensor(np.array(a, order="C")) for a in inputs))
        actual = list(leaves(tvm_oracle._to_numpy(result)))
    except Exception as error:
        return {**record, "verdict": "no run", "reason": first_line(error)}
    problem = mismatch(actual, expected, rtol, atol)
    if problem is not None:
        return {**record, "verdict": "different outputs", "reason": problem}
    arrays = {
        "inputs": {param.name_hint: array for param, array in zip(params, inputs, strict=True)},
        "expected": {f"out{index}": array for index, array in enumerate(expected)},
        "metadata": {str(index): array for index, array in enumerate(metadata_arrays(mod))},
    }
    return {
        **record,
        "verdict": "reproduced",
        "program": tvm_oracle.printed(mod),
        "bytes": sum(a.nbytes for group in arrays.values() for a in group.values()),
        "arrays": arrays,
    }


def worker(tasks: Any, results: Any) -> None:
    """Examine the cases the parent sends until it sends ``None``."""
    sys.path.insert(0, str(HERE))
    while (task := tasks.get()) is not None:
        try:
            results.put(examine(*task))
        except Exception:
            results.put({"name": task[0], "verdict": "no run", "reason": traceback.format_exc()})


class Examiner:
    """A worker process, replaced when it dies or overruns its time."""

    def __init__(self, timeout: float):
        self.timeout = timeout
        self.context = multiprocessing.get_context("spawn")
        self.process: Any = None

    def start(self) -> None:
        self.tasks, self.results = self.context.Queue(), self.context.Queue()
        self.process = self.context.Process(target=worker, args=(self.tasks, self.results))
        self.process.start()

    def __call__(self, task: tuple) -> dict[str, Any]:
        if self.process is None or not self.process.is_alive():
            self.start()
        self.tasks.put(task)
        deadline = time.monotonic() + self.timeout
        while self.process.is_alive() and time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                return self.results.get(timeout=1.0)
        crashed = not self.process.is_alive()
        self.process.kill()
        self.process.join()
        self.process = None
        reason = "crashed" if crashed else f"took longer than {self.timeout:.0f} s"
        return {"name": task[0], "verdict": "no build", "reason": reason}

    def stop(self) -> None:
        if self.process is not None and self.process.is_alive():
            self.tasks.put(None)
            self.process.join()


def task(case: Any) -> tuple | str:
    """The worker's task for an ONNX test case, or why the case cannot be one."""
    inputs, outputs = ([as_array(value) for value in values] for values in case.data_sets[0])
    others = sorted(
        {
            str(v.dtype) if isinstance(v, np.ndarray) else type(v).__name__
            for v in inputs + outputs
            if not isinstance(v, np.ndarray) or v.dtype.kind not in "biuf"
        }
    )
    if others:
        return f"inputs or outputs that are not bool, integer or float tensors: {', '.join(others)}"
    return (case.name, case.model.SerializeToString(), inputs, outputs, case.rtol, case.atol)


def as_array(value: Any) -> Any:
    """A test case's input or output, as an array if it is a tensor."""
    from onnx import TensorProto, numpy_helper

    if isinstance(value, TensorProto):
        return numpy_helper.to_array(value)
    return np.asarray(value) if isinstance(value, np.generic) else value


def save_record(cache: Path, record: dict[str, Any]) -> None:
    """Write a case's verdict (and arrays) into the cache."""
    arrays = record.pop("arrays", None)
    if arrays is not None:
        for group, named in arrays.items():
            np.savez_compressed(cache / f"{record['name']}.{group}.npz", **named)
    (cache / f"{record['name']}.json").write_text(json.dumps(record, indent=1))


def examine_all(cache: Path, timeout: float) -> list[dict[str, Any]]:
    """The verdicts on every node test case, from the cache or computed (and cached)."""
    from onnx.backend.test.case.node import collect_testcases

    cache.mkdir(parents=True, exist_ok=True)
    examiner = Examiner(timeout)
    records = []
    try:
        for case in collect_testcases():
            cached = cache / f"{case.name}.json"
            if not cached.exists():
                work = task(case)
                if isinstance(work, str):
                    record = {"name": case.name, "verdict": "not a tensor case", "reason": work}
                else:
                    record = examiner(work)
                print(f"{case.name}: {record['verdict']} {record.get('reason', '')}", flush=True)
                save_record(cache, record)
            records.append(json.loads(cached.read_text()))
    finally:
        examiner.stop()
    return records


def short_name(case: str) -> str:
    return case.removeprefix("test_")


def write_corpus(cache: Path, corpus: Path, records: list[dict[str, Any]], limit: int) -> None:
    """Replace the corpus with the small reproduced cases, and write ``SUMMARY.txt``."""
    for old in corpus.glob("*.py"):
        old.unlink()
    for old in corpus.glob("*.npz"):
        old.unlink()
    corpus.mkdir(parents=True, exist_ok=True)
    counts = collections.Counter(record["verdict"] for record in records)
    too_large = [r for r in records if r["verdict"] == "reproduced" and r["bytes"] > limit]
    kept = [r for r in records if r["verdict"] == "reproduced" and r["bytes"] <= limit]
    for record in kept:
        name = short_name(record["name"])
        (corpus / f"{name}.py").write_text(record["program"])
        for group, suffix in (("inputs", ""), ("expected", ".expected"), ("metadata", ".metadata")):
            source = cache / f"{record['name']}.{group}.npz"
            if group != "metadata" or np.load(source).files:
                shutil.copyfile(source, corpus / f"{name}{suffix}.npz")
    out = io.StringIO()
    out.write(
        f"ONNX node test cases (onnx.backend.test.case.node.collect_testcases): {len(records)}\n"
    )
    tensor_cases = len(records) - counts["not a tensor case"]
    imported = tensor_cases - counts["no import"]
    built = imported - counts["no build"]
    ran = built - counts["no run"]
    out.write(f"with numeric tensor inputs and outputs: {tensor_cases}\n")
    out.write(f"imported by TVM 0.25 from_onnx: {imported}\n")
    out.write(f"built for LLVM: {built}\n")
    out.write(f"ran: {ran}\n")
    out.write(f"reproduce ONNX's expected outputs: {counts['reproduced']}\n")
    out.write(f"left out, data over {limit} bytes: {len(too_large)}\n")
    out.write(f"in this corpus: {len(kept)}\n\n")
    out.write("Cases TVM does not reproduce, by verdict and reason (with their number):\n")
    reasons = collections.defaultdict(list)
    for record in records:
        if record["verdict"] != "reproduced":
            reasons[(record["verdict"], record["reason"])].append(record["name"])
    for (verdict, reason), names in sorted(reasons.items(), key=lambda item: -len(item[1])):
        which = f" ({', '.join(names)})" if len(names) <= 3 else ""
        out.write(f"{len(names):4d} {verdict}: {reason}{which}\n")
    out.write("\nCases TVM reproduces whose data are too large:\n")
    for record in too_large:
        out.write(f"{record['name']}: {record['bytes']} bytes\n")
    (corpus / "SUMMARY.txt").write_text(out.getvalue())
    print(out.getvalue().split("\n\n")[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, required=True, help="directory of the verdicts")
    parser.add_argument("--corpus", type=Path, default=HERE / "corpus_onnx")
    parser.add_argument("--max-bytes", type=int, default=100_000, help="largest data kept")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per case")
    args = parser.parse_args()
    records = examine_all(args.cache, args.timeout)
    write_corpus(args.cache, args.corpus, records, args.max_bytes)


if __name__ == "__main__":
    main()
