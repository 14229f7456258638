"""Queries of a module, written once for the passes, the checker and the tools:
``symbols`` (top-level symbols; no operation classes, so that the operations'
verifiers can use it), ``call_graph`` (the Relax functions and their references),
``symbolic_vars`` (the symbolic variables operations mention and bind) and
``effects`` (purity and writes in place, from the operations' traits).

Import the module you need: this package re-exports nothing, so that importing
``analysis.symbols`` does not import the others."""
