"""Command-line drivers: ``relax-opt`` (installed as ``relax_xdsl.tools``)."""
