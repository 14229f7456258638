"""The converters of ONNX operators, one module per family; importing this package
imports every module, whose ``@converter`` decorators register them."""

from __future__ import annotations

import pkgutil
from importlib import import_module

for _module in pkgutil.iter_modules(__path__):
    import_module(f"{__name__}.{_module.name}")
