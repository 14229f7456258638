"""The ``relax-run`` command line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from installed_commands import start

from relax_xdsl.tools.relax_run import main

PROGRAM = """\
relax.function @main(%x: !relax.tensor<[n, 2], f32>, %s: !relax.shape<[n]>, %p: !relax.tuple<prim<i64>, tensor<[2], f32>>) -> !relax.tuple<tensor<[n, 2], f32>, tuple<shape<[n, 3]>, prim<i64>>> {
  %y = relax.add %x, %x : !relax.tensor<[n, 2], f32>
  %shape = relax.shape [n, 3] : !relax.shape<[n, 3]>
  %q = relax.tuple_get_item %p[0] : !relax.prim<i64>
  %inner = relax.tuple(%shape, %q) : !relax.tuple<shape<[n, 3]>, prim<i64>>
  %r = relax.tuple(%y, %inner) : !relax.tuple<tensor<[n, 2], f32>, tuple<shape<[n, 3]>, prim<i64>>>
  relax.return %r
}
relax.function @checked(%x: !relax.object) -> !relax.object {
  %t = relax.match_cast %x : !relax.tensor<[3], f32>
  relax.return %t
}
relax.function impure @shout(%x: !relax.object) -> !relax.object {
  %r = relax.call_packed "test.shout"(%x) : !relax.object
  relax.return %r
}
"""

PLUGIN = """\
def register_packed_functions(registry):
    registry.register("test.shout", lambda value: str(value).upper())
"""


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "program.mlir"
    path.write_text(PROGRAM)
    return path


def test_runs_with_inputs_by_name_and_writes_flattened_outputs(
    program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    inputs, outputs = tmp_path / "in.npz", tmp_path / "out.npz"
    np.savez(inputs, x=x, s=np.array([3]), **{"p.0": np.array(7), "p.1": np.zeros(2, np.float32)})
    status = main([str(program), "--inputs", str(inputs), "--outputs", str(outputs)])
    out = capsys.readouterr().out
    assert status == 0
    assert "symbolic dimensions: n = 3" in out
    assert "out0: tensor of shape [3, 2] and dtype f32" in out
    assert "out1: shape(3, 3)" in out and "out2: 7:i64" in out
    with np.load(outputs) as saved:
        assert saved.files == ["out0", "out1", "out2"]
        np.testing.assert_array_equal(saved["out0"], 2 * x)
        np.testing.assert_array_equal(saved["out1"], [3, 3])
        assert saved["out2"] == 7


def test_the_installed_command_flushes_its_report_and_outputs(
    program: Path, tmp_path: Path
) -> None:
    inputs, outputs = tmp_path / "in.npz", tmp_path / "out.npz"
    x = np.ones((2, 2), np.float32)
    np.savez(inputs, x=x, s=np.array([2]), **{"p.0": np.array(5), "p.1": np.zeros(2, np.float32)})
    process = start("relax-run", str(program), "--inputs", str(inputs), "--outputs", str(outputs))
    out, err = process.communicate()
    assert process.returncode == 0, err
    assert "out0: tensor of shape [2, 2] and dtype f32" in out
    assert out.rstrip().endswith("out2: 5:i64")
    with np.load(outputs) as saved:
        np.testing.assert_array_equal(saved["out0"], 2 * x)


def test_inputs_by_position_and_other_entry(
    program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = tmp_path / "in.npz"
    np.savez(inputs, arg0=np.ones(3, np.float32))
    assert main([str(program), "--entry", "checked", "--inputs", str(inputs)]) == 0
    assert "out0: tensor of shape [3]" in capsys.readouterr().out


def test_failed_run_time_check_is_located(
    program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = tmp_path / "in.npz"
    np.savez(inputs, arg0=np.ones(5, np.float32))
    status = main([str(program), "--entry", "checked", "--inputs", str(inputs)])
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith(f"{program}:10:3: error: match_cast: dimension 0 is 5, expected 3")
    assert "Traceback" not in err


def test_usage_errors(program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(program)]) == 2
    assert "no input for parameter 0" in capsys.readouterr().err
    assert main([str(program), "--entry", "missing"]) == 2
    assert capsys.readouterr().err == (
        "relax-run: error: --entry missing: no function @missing in the module "
        "(its functions: @main, @checked, @shout)\n"
    )
    assert main([str(program), "--inputs", str(tmp_path / "none.npz")]) == 2
    assert "No such file or directory" in capsys.readouterr().err
    np.save(tmp_path / "array.npy", np.ones(3))
    assert main([str(program), "--inputs", str(tmp_path / "array.npy")]) == 2
    assert "array.npy': not an .npz archive (numpy.savez)" in capsys.readouterr().err
    assert main([str(program), "--plugin", "no_such_plugin_module"]) == 2
    assert "cannot load plugin" in capsys.readouterr().err


def test_an_entry_lowered_by_the_passes_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, inputs = tmp_path / "double.mlir", tmp_path / "in.npz"
    source.write_text(PROGRAM.split("relax.function @checked")[0].replace("@main", "@double"))
    np.savez(inputs, arg0=np.ones(3, np.float32))
    args = [str(source), "--entry", "double", "--inputs", str(inputs)]
    assert main([*args, "-p", "convert-relax-to-linalg"]) == 1
    assert "@double is a func.func, not a Relax function" in capsys.readouterr().err


def test_plugin_registers_packed_functions(
    program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plugin, inputs = tmp_path / "shout_plugin.py", tmp_path / "in.npz"
    plugin.write_text(PLUGIN)
    np.savez(inputs, x=np.array("quiet"))
    status = main(
        [str(program), "--entry", "shout", "--plugin", str(plugin), "--inputs", str(inputs)]
    )
    assert status == 0
    assert "out0: string 'QUIET'" in capsys.readouterr().out


def test_passes_run_before_executing(
    program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = tmp_path / "in.npz"
    np.savez(inputs, arg0=np.ones(3, np.float32))
    status = main(
        [
            str(program),
            "--entry",
            "checked",
            "--inputs",
            str(inputs),
            "-p",
            "relax-check-well-formed",
        ]
    )
    assert status == 0


def test_inputs_keys_matching_no_parameter_are_warned_about(
    program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = tmp_path / "in.npz"
    np.savez(inputs, x=np.ones(3, "float32"), stray=np.ones(2), arg9=np.ones(1))
    assert main([str(program), "--inputs", str(inputs), "--entry", "checked"]) == 0
    assert capsys.readouterr().err == (
        f"relax-run: warning: --inputs '{inputs}': keys 'stray', 'arg9' match no parameter "
        "of @checked (expected 'x' or 'arg0')\n"
    )


def test_positional_npz_gets_a_hint(
    program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = tmp_path / "in.npz"
    np.savez(inputs, np.ones(3, "float32"))  # saved as arr_0
    assert main([str(program), "--inputs", str(inputs), "--entry", "checked"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "relax-run: error: no input for parameter 0 (object): give 'x' or 'arg0' in --inputs; "
        "the archive's arrays are named 'arr_0', as numpy.savez names arrays passed without names"
    )
    np.savez(inputs, y=np.ones(3, "float32"))
    assert main([str(program), "--inputs", str(inputs), "--entry", "checked"]) == 2
    assert "(the archive holds 'y')" in capsys.readouterr().err


def test_tvmscript_input_mismatch_points_at_the_parameter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "model.py"
    script.write_text(
        "from tvm.script import relax as R\n\n"
        "@R.function\n"
        "def main(\n"
        '    x: R.Tensor((2,), "float32"),\n'
        '    y: R.Tensor((3,), "float32"),\n'
        ') -> R.Tensor((3,), "float32"):\n'
        "    return y\n"
    )
    inputs = tmp_path / "in.npz"
    np.savez(inputs, x=np.ones(2, "float32"), y=np.ones(4, "float32"))
    assert main([str(script), "--inputs", str(inputs)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{script}:6:5: error: @main: argument 1: dimension 0 is 4, expected 3")
    assert '\n    y: R.Tensor((3,), "float32"),\n    ^\n' in err


def test_a_byte_order_mark_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "model.py"
    text = (
        "from tvm.script import relax as R\n\n@R.function\n"
        'def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):\n    return x\n'
    )
    script.write_bytes(b"\xef\xbb\xbf" + text.encode())
    inputs = tmp_path / "in.npz"
    np.savez(inputs, x=np.ones(2, "float32"))
    assert main([str(script), "--inputs", str(inputs)]) == 0
    unsuffixed = tmp_path / "model"  # no suffix: the format is recognised after the mark
    unsuffixed.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert main([str(unsuffixed), "--inputs", str(inputs)]) == 0
    bad = tmp_path / "bad.py"
    bad.write_bytes(b"\xef\xbb\xbf" + text.replace("return x", "return z").encode())
    assert main([str(bad), "--inputs", str(inputs)]) == 1
    assert capsys.readouterr().err.startswith(f"{bad}:5:12: error: ")  # columns as Python's


def test_an_impossible_allocation_is_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "huge.mlir"
    path.write_text(
        "relax.function @main() -> !relax.tensor<[1048576, 1048576], f32> {\n"
        "  %s = relax.shape [1048576, 1048576]\n"
        "  %huge = relax.zeros %s {dtype = f32}\n"
        "  relax.return %huge\n"
        "}\n"
    )
    assert main([str(path)]) == 1
    assert capsys.readouterr().err == (
        f"{path}:3:3: error: %huge = relax.zeros: out of memory: cannot allocate 4.00 TiB "
        "for a tensor of shape [1048576, 1048576] and dtype f32\n"
        "  %huge = relax.zeros %s {dtype = f32}\n"
        "  ^\n"
    )
