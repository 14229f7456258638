"""Transform-dialect schedules of the MLIR toolchain that rewrite operations before the
contraction tiling (`lowering/tiling.py`) runs: each contributes named sequences to its
library and a step of its entry point."""
