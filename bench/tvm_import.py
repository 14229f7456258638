"""An ONNX model as TVMScript, through TVM 0.25's importer (run under a Python with TVM).

    /path/to/tvmenv/bin/python bench/tvm_import.py MODEL.onnx OUT.py

The weights stay parameters of ``main`` (``keep_params_in_input=True``); the ``params``
function attribute TVM adds (references into its metadata section, which the project's
TVMScript reader does not take as attribute values) is dropped.
"""

from __future__ import annotations

import re
import sys

import onnx
from tvm.relax.frontend.onnx import from_onnx

PARAMS_ATTRIBUTE = re.compile(r"^\s*R\.func_attr\(\{\"num_input\".*\n", re.MULTILINE)


def main(model: str, out: str) -> None:
    script = from_onnx(onnx.load(model), keep_params_in_input=True).script()
    with open(out, "w") as handle:
        handle.write(PARAMS_ATTRIBUTE.sub("", script))


if __name__ == "__main__":
    main(*sys.argv[1:3])
