"""Changes of the IR that several passes make, and that are not passes themselves:
replacing and erasing bindings (``bindings``), keeping dataflow blocks in normal
form (``dataflow_blocks``), re-inferring StructInfo after a change (``type_refiner``),
the walk of the passes that rewrite StructInfo (``function_walk``), materializing
run-time values as bindings (``materialize``), removing dead bindings
(``dead_code``) and outlining groups of bindings into functions
(``outline_groups``). A pass file holds one pass; what two passes share is here
(or, for queries that change nothing, in ``analysis``)."""
