"""TVM Relax as an xDSL dialect: types, ops, checker, passes, interpreter."""

from .names import keep_exact_names

keep_exact_names()
