"""TVM Relax as an xDSL dialect: types, ops, checker, passes, interpreter."""
