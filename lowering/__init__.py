"""Relax → linalg/tensor/arith/func lowering (installed as ``relax_xdsl.lowering``)."""
