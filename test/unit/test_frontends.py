"""The frontend registry: lookup by name, suffix and content, text and bytes,
options, and a frontend registered here as ``relax-opt`` and ``read_module`` find it."""

from __future__ import annotations

import subprocess
import sys
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from test_relax_opt import VALID, run
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from relax_dialect import frontends
from relax_dialect.diagnostics import DiagnosticError
from relax_dialect.frontends.frontend import Frontend, FrontendError, Option, UnknownFormat
from relax_dialect.frontends.mlir import parse_module
from relax_xdsl.tools.relax_opt import main

EXAMPLES = Path(__file__).parents[2] / "examples"
ZLIB_HEADER = b"\x78\x9c"
"""How ``zlib.compress`` output starts (the default level)."""


def test_lookup_by_name_or_suffix() -> None:
    assert list(frontends.REGISTRY) == ["mlir", "tvmscript", "stablehlo", "onnx"]
    assert (
        frontends.lookup("tvmscript") is frontends.lookup("py") is frontends.REGISTRY["tvmscript"]
    )
    assert frontends.lookup("mlir").split_marker == "// -----"
    assert frontends.lookup("tvmscript").split_marker == "# -----"
    assert frontends.lookup("onnx").binary and frontends.lookup("onnx").split_marker is None
    expected = r"unknown frontend 'tflite' \(registered: mlir, tvmscript, stablehlo, onnx\)"
    with pytest.raises(UnknownFormat, match=expected):
        frontends.lookup("tflite")


def test_the_suffix_decides_over_the_content() -> None:
    assert frontends.select(b"builtin.module {}", "model.py").name == "tvmscript"
    assert frontends.select(b"import tvm\n", "model.mlir").name == "mlir"
    assert frontends.select(b"import tvm\n", "model.mlir", "tvmscript").name == "tvmscript"
    expected = r"unknown input format 'txt' \(expected \.mlir, or \.py for TVMScript, or \.onnx\)"
    with pytest.raises(UnknownFormat, match=expected):
        frontends.select(b"", "notes.txt")


def test_stablehlo_is_recognised_by_its_operations() -> None:
    stablehlo = b"func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.abs %x"
    assert frontends.select(stablehlo, "model.mlir").name == "stablehlo"
    assert frontends.select(stablehlo).name == "stablehlo"
    relax = b"relax.function @main(%x: !relax.tensor<[2], f32>) {\n  %0 = relax.abs %x"
    assert frontends.select(relax, "model.mlir").name == "mlir"


@pytest.mark.parametrize(
    "head",
    [
        '"""A model."""\nfrom tvm.script import relax as R\n',
        "'''A model.'''\n",
        'r"""A model."""\n',
        "# a model\n\nfrom tvm.script import relax as R\n",
        "\n\nimport tvm\n",
        "@I.ir_module\nclass Module:\n",
    ],
)
def test_tvmscript_is_recognised_by_its_start(head: str) -> None:
    assert frontends.select(head.encode()).name == "tvmscript"
    assert frontends.select(head.encode(), "model").name == "tvmscript"  # no suffix


@pytest.mark.parametrize(
    "head",
    [
        "",
        VALID,
        "builtin.module {\n}\n",
        '"builtin.module"() ({\n}) : () -> ()\n',
        "// a comment\nrelax.function @f() {\n",
        "#map = affine_map<(d0) -> (d0)>\n",
        '"string"',
    ],
)
def test_anything_else_is_mlir(head: str) -> None:
    assert frontends.select(head.encode()).name == "mlir"


def test_text_is_decoded_as_open_reads_it() -> None:
    mlir = frontends.lookup("mlir")
    assert mlir.decode(b"a\r\nb\rc\n") == "a\nb\nc\n"
    with pytest.raises(UnicodeDecodeError):
        mlir.decode(b"\xff")


def first_location(module: ModuleOp) -> str:
    return str(next(iter(module.body.ops)).location)


def test_read_module_from_a_path_or_bytes() -> None:
    for path in (EXAMPLES / "mlp.mlir", str(EXAMPLES / "mlp.py")):
        assert first_location(frontends.read_module(path)).startswith(f'loc("{path}":')
    script = (EXAMPLES / "mlp.py").read_bytes()
    assert first_location(frontends.read_module(script)) == 'loc("<input>":18:5)'
    named = frontends.read_module(script, name="model.py")
    assert first_location(named) == 'loc("model.py":18:5)'
    assert named.is_structurally_equivalent(frontends.read_module(EXAMPLES / "mlp.py"))


def test_read_module_errors_are_located() -> None:
    with pytest.raises(DiagnosticError) as mlir:
        frontends.read_module(b"relax.function @f(", name="bad.mlir")
    assert str(mlir.value.diagnostics[0]).startswith("bad.mlir:1:")
    with pytest.raises(DiagnosticError) as python:
        frontends.read_module(b"import tvm\ndef f(:\n", name="bad.py")
    assert str(python.value.diagnostics[0]).startswith("bad.py:2:")
    with pytest.raises(UnknownFormat):
        frontends.read_module(b"", name="bad.txt")
    with pytest.raises(UnknownFormat):
        frontends.read_module(b"", frontend="tflite")
    with pytest.raises(DiagnosticError) as onnx:
        frontends.read_module(b"\x08\x07\x12", name="bad.onnx")
    assert str(onnx.value.diagnostics[0]).startswith("bad.onnx: error: not an ONNX model")


def test_read_module_passes_the_frontends_options(tmp_path: Path) -> None:
    (tmp_path / "text.npz").write_text("not an archive")
    script = b"@R.function\ndef main():\n    return R.tuple()\n"
    with pytest.raises(FrontendError, match="cannot read metadata"):
        frontends.read_module(script, frontend="tvmscript", metadata=str(tmp_path / "text.npz"))


# A frontend registered by a test: zlib-compressed MLIR text, binary, with an option.

READ: list[Mapping[str, object]] = []
"""The options each read of the test frontend received."""


def read_compressed(
    ctx: Context, source: bytes, name: str, options: Mapping[str, object], line_offset: int
) -> ModuleOp:
    assert isinstance(source, bytes)
    READ.append(dict(options))
    return parse_module(ctx, zlib.decompress(source).decode(), name, line_offset)


COMPRESSED = Frontend(
    "mlirz",
    "compressed MLIR",
    ("mlirz",),
    lambda: read_compressed,
    sniff=lambda head: head.startswith(ZLIB_HEADER),
    binary=True,
    options=(Option("--level-check", "a switch of the compressed MLIR frontend"),),
)


@pytest.fixture
def compressed(monkeypatch: pytest.MonkeyPatch) -> Iterator[Frontend]:
    monkeypatch.setattr(frontends, "REGISTRY", dict(frontends.REGISTRY))
    frontends.register(COMPRESSED)
    READ.clear()
    yield COMPRESSED


def test_a_registered_frontend_is_found_by_relax_opt(
    compressed: Frontend, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = zlib.compress(VALID.encode())
    path = tmp_path / "model.mlirz"
    path.write_bytes(data)
    status, out, err = run(capsys, str(path), "--level-check")
    assert (status, err) == (0, ""), err
    assert "relax.add %x, %x" in out
    onnx = {"params_as_inputs": False, "bind_inputs": None, "params_out": None}
    assert [{"metadata": None, **onnx, "level_check": True}] == READ
    status, out, _ = run(capsys, "-", stdin=data)  # recognised by its sniffer
    assert status == 0 and "relax.add %x, %x" in out
    status, out, _ = run(capsys, "-", "-f", "mlirz", stdin=data)
    assert status == 0 and "relax.add %x, %x" in out
    assert READ[-1] == {"metadata": None, **onnx, "level_check": False}
    status, _, err = run(capsys, str(path), "--split-input-file")
    assert (status, err) == (
        2,
        "relax-opt: error: --split-input-file: compressed MLIR input cannot be split\n",
    )
    assert frontends.read_module(path).is_structurally_equivalent(
        frontends.read_module(VALID.encode(), name="model.mlir")
    )


def test_help_lists_the_registered_frontends(
    compressed: Frontend, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    out, _ = capsys.readouterr()
    assert exit_info.value.code == 0
    assert "-f {mlir,py,tvmscript,stablehlo,onnx,mlirz}" in out and "--level-check" in out
    with pytest.raises(SystemExit) as exit_info:
        main(["-f", "tflite"])
    _, err = capsys.readouterr()
    assert exit_info.value.code == 2
    assert (
        "invalid choice: 'tflite' (choose from 'mlir', 'py', 'tvmscript', 'stablehlo', 'onnx', "
        "'mlirz')" in err
    )


def test_the_tool_loads_no_frontend_it_does_not_use() -> None:
    """A frontend's reader loads when it reads: ``relax-opt`` starts without it (the
    frontend's declaration, its package's ``__init__``, is all it imports)."""
    code = (
        "import sys, relax_xdsl.tools.relax_opt;"
        "print('relax_dialect.frontends.tvmscript.frontend' in sys.modules)"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert loaded.stdout == "False\n"
