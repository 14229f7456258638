"""Passes of the Relax dialect, one per file, and their registry.

``PASSES`` maps each pass name to the module (in this package) that defines
it; ``pass_class`` loads one lazily, as ``xdsl-opt`` and ``relax-opt`` do.
What passes share is not in a pass file: the queries in ``relax_dialect.analysis``,
the changes of the IR in ``relax_dialect.rewriting``.
"""

from __future__ import annotations

from xdsl.passes import ModulePass

from ..registry import class_named

PASSES: dict[str, str] = {
    "relax-check-well-formed": "check_well_formed",
    "relax-normalize": "normalize",
    "relax-canonicalize-bindings": "canonicalize_bindings",
    "relax-dce": "dce",
    "relax-cse": "cse",
    "relax-fold-constant": "fold_constant",
    "relax-fold-batch-norm": "fold_batch_norm",
    "relax-widen-float-formats": "widen_float_formats",
    "relax-simplify-shapes": "simplify_shapes",
    "relax-convert-to-dataflow": "convert_to_dataflow",
    "relax-to-non-dataflow": "to_non_dataflow",
    "relax-lambda-lift": "lambda_lift",
    "relax-inline-private-functions": "inline_private_functions",
    "relax-remove-unused-outputs": "remove_unused_outputs",
    "relax-remove-unused-parameters": "remove_unused_parameters",
    "relax-topological-sort": "topological_sort",
    "relax-bind-symbolic-vars": "bind_symbolic_vars",
    "relax-bind-params": "bind_params",
    "relax-fuse-ops": "fuse_ops",
    "relax-fuse-by-pattern": "fuse_by_pattern",
    "relax-apply-patterns": "apply_patterns",
    "convert-stablehlo-to-relax": "convert_stablehlo_to_relax",
    "relax-o1": "pipelines",
    "relax-o2": "pipelines",
}


def pass_class(name: str) -> type[ModulePass]:
    """The pass registered as ``name``."""
    return class_named(f"{__name__}.{PASSES[name]}", ModulePass, name)
