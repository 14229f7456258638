// RUN: relax-opt %s -p 'relax-apply-patterns{patterns="%S/Inputs/apply_patterns.py:RAISING"}' --verify-diagnostics
// RUN: not relax-opt %s -p 'relax-apply-patterns{patterns="%S/Inputs/apply_patterns.py:BROKEN"}' 2>&1 | filecheck %s --check-prefix=BROKEN
// RUN: not relax-opt %s -p 'relax-apply-patterns{patterns="%S/Inputs/missing.py"}' 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not relax-opt %s -p 'relax-apply-patterns{patterns="%S/Inputs/apply_patterns.py:NOT_PATTERNS"}' 2>&1 | filecheck %s --check-prefix=CLASS
// RUN: not relax-opt %s -p 'relax-apply-patterns{patterns="%S/Inputs/apply_patterns.py:NOWHERE"}' 2>&1 | filecheck %s --check-prefix=NOWHERE
// RUN: not relax-opt %s -p 'relax-apply-patterns{patterns="%s"}' 2>&1 | filecheck %s --check-prefix=NOPDL

// Errors of relax-apply-patterns: a pattern that raises is reported at the
// operation it was rewriting; one that breaks the program, by the
// well-formedness check after the pass; patterns that cannot be loaded, by name.

// BROKEN: error: after pass relax-apply-patterns: relax.multiply: result type tensor<[1], f32> contradicts the inferred type tensor<[2], f32>
// MISSING: error: relax-apply-patterns: cannot load {{.*}}Inputs/missing.py: FileNotFoundError: [Errno 2] No such file or directory
// CLASS: error: relax-apply-patterns: {{.*}}apply_patterns.py:NOT_PATTERNS holds <class 'apply_patterns.AddSelf'> (a class: give an instance), not a RewritePattern
// NOWHERE: error: relax-apply-patterns: {{.*}}apply_patterns.py defines no NOWHERE
// NOPDL: error: relax-apply-patterns: {{.*}}apply_patterns_invalid.mlir holds no pdl.pattern

// expected-error @+1 {{relax-apply-patterns: Raising failed on relax.function: ValueError: not today}}
relax.function @main(%x: !relax.tensor<[2], f32>) -> !relax.tensor<[2], f32> {
  %y = relax.add %x, %x
  relax.return %y
}
