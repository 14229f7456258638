"""Native libraries found by the Relax module before lowering (``lowering/program_cache.py``):
what the program key covers, and a warm compile that lowers nothing."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from test_units import SMALL, Counts, args_of
from toolchain_harness import needs_toolchain

from relax_dialect.builder import Builder
from relax_dialect.frontends.tvmscript.frontend import parse_tvmscript
from relax_dialect.instrumentation import instrumented
from relax_dialect.interpreter import run
from relax_dialect.resources import blob_text
from relax_xdsl.lowering import program_cache
from relax_xdsl.lowering.backends import compile_function
from relax_xdsl.lowering.backends.backend import Program
from relax_xdsl.lowering.disk_cache import CACHE_HIT, cache_dir


def key_of(source: str = SMALL, name: str = "small.py", tile: bool = True, parallel=False):
    return program_cache.program_key(parse_tvmscript(source, name), tile, parallel)


def test_the_key_is_stable_and_follows_text_locations_and_options():
    key = key_of()
    assert key == key_of()
    assert key != key_of(SMALL.replace("8", "16"))
    assert key != key_of(name="other.py")  # run-time errors quote the locations
    assert key != key_of(tile=False)
    assert key != key_of(parallel=True)


def test_the_key_follows_the_compiler(monkeypatch):
    key = key_of()
    monkeypatch.setattr(program_cache, "compiler_digest", lambda: "an edited lowering")
    assert key_of() != key


def test_the_sources_digest_follows_every_python_file(tmp_path):
    digest = program_cache.sources_digest.__wrapped__
    (tmp_path / "ops").mkdir()
    rule = tmp_path / "ops" / "rule.py"
    rule.write_text("A = 1\n")
    (tmp_path / "notes.txt").write_text("not a source")
    before = digest(tmp_path)
    (tmp_path / "notes.txt").write_text("still not a source")
    assert digest(tmp_path) == before
    rule.write_text("A = 2\n")
    assert digest(tmp_path) != before


def weights_text(weights: np.ndarray) -> str:
    builder = Builder()
    with builder.function("main", {}) as _:
        builder.emit_func_output([builder.emit(weights, "w")])
    return program_cache.module_text(builder.module)


def test_the_text_holds_a_digest_of_the_constants_data():
    """Not a blob's handle (named per process: the same handle may hold other data in another)
    nor its hexadecimal text (megabytes of weights): a digest of the bytes."""
    weights = np.arange(600, dtype=np.float32).reshape(2, 300)
    text = weights_text(weights)
    assert f"sha256<{hashlib.sha256(weights.tobytes()).hexdigest()}>" in text
    assert "dense_resource" not in text and blob_text(weights)[2:] not in text
    other = weights.copy()
    other[1, 299] = -1.0
    assert weights_text(other) != text
    assert weights_text(weights.astype(np.float64)) != text


@needs_toolchain
def test_a_warm_compile_lowers_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    module = parse_tvmscript(SMALL, "small.py")
    args = args_of(3)
    want = run(module, "main", *args)
    np.testing.assert_allclose(compile_function(module, "main", "mlir")(*args), want, rtol=1e-5)

    def refused(self):
        raise AssertionError("a warm compile lowered the module")

    with monkeypatch.context() as patched:
        patched.setattr(Program, "lowered", refused)
        patched.setattr(Program, "lowered_copy", refused)
        counts = Counts()
        with instrumented(counts):
            warm = compile_function(parse_tvmscript(SMALL, "small.py"), "main", "mlir")
        assert counts.reported == [(CACHE_HIT, 1, None)]
        np.testing.assert_allclose(warm(*args), want, rtol=1e-5)
        for library in cache_dir().glob("*.so"):  # a record whose library left the cache
            library.unlink()
        with pytest.raises(AssertionError, match="lowered"):
            compile_function(module, "main", "mlir")
    again = compile_function(module, "main", "mlir")
    np.testing.assert_allclose(again(*args), want, rtol=1e-5)
