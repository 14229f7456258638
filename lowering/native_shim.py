"""C source linked into each compiled module: uniform entry points and the assert trap.

Every public function `f` gets `int relax_xdsl_entry_f(void **args, void *results)`: `args[i]`
points at argument i (a memref descriptor or a scalar), `results` at the results struct of
`memref_abi.results_type`. It returns 0, or 1 when a `cf.assert` failed.

MLIR lowers a failed `cf.assert` to `puts(message); abort();`. The module is linked with
`-Wl,--wrap=puts,--wrap=abort`, so those calls reach `__wrap_puts`, which records the message,
and `__wrap_abort`, which `longjmp`s back into the entry point: the check becomes an error
return instead of killing the process. Buffers the function allocated before the failure leak.

`malloc`, `aligned_alloc` and `free` are wrapped the same way: the bytes a call holds are
counted (`malloc_usable_size`), and an allocation that fails, or that would take them past the
limit `relax_xdsl_set_memory_limit` set (0: none), ends the call with an "out of memory" error
instead of dereferencing null or taking the machine's memory. Each entry point also resets the
call-depth counter of lowered code (`call_depth`), which a failed check leaves raised.

`relax_xdsl_park_workers` puts libomp's workers to sleep after a call (`threads.CALL_SPIN_MS`):
it sets their spin to zero and opens one empty parallel region, which they leave straight for
sleep. libomp's entry points are weak references: a module without parallel loops does not
link libomp, and the function then does nothing.
"""

from relax_dialect.recursion import CALL_DEPTH_GLOBAL

from .memref_abi import Signature, TensorSpec

C_TYPES = {
    "bool": "_Bool",
    "int8": "int8_t",
    "int16": "int16_t",
    "int32": "int32_t",
    "int64": "int64_t",
    "float16": "_Float16",
    "float32": "float",
    "float64": "double",
}

LINK_FLAGS = tuple(
    f"-Wl,--wrap={name}" for name in ("puts", "abort", "malloc", "aligned_alloc", "free")
)

PRELUDE = r"""
#include <malloc.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>

static _Thread_local jmp_buf *relax_trap;
static _Thread_local const char *relax_message;
static _Thread_local char relax_memory_message[160];
static _Thread_local size_t relax_held;
static size_t relax_memory_limit;

extern int64_t CALL_DEPTH_GLOBAL __attribute__((weak));

int __wrap_puts(const char *message) {
  relax_message = message;
  return 0;
}

void __wrap_abort(void) { longjmp(*relax_trap, 1); }

void relax_xdsl_set_memory_limit(size_t bytes) { relax_memory_limit = bytes; }

static void relax_out_of_memory(size_t bytes) {
  if (relax_memory_limit && relax_held + bytes > relax_memory_limit)
    snprintf(relax_memory_message, sizeof relax_memory_message,
             "out of memory: allocating %zu bytes would exceed the memory limit of %zu bytes "
             "(relax-run --memory-limit)", bytes, relax_memory_limit);
  else
    snprintf(relax_memory_message, sizeof relax_memory_message,
             "out of memory: allocating %zu bytes failed", bytes);
  relax_message = relax_memory_message;
  longjmp(*relax_trap, 1);
}

static void *relax_held_block(void *block, size_t bytes) {
  if (!block) relax_out_of_memory(bytes);
  relax_held += malloc_usable_size(block);
  return block;
}

void *__real_malloc(size_t);
void *__real_aligned_alloc(size_t, size_t);
void __real_free(void *);

void *__wrap_malloc(size_t bytes) {
  if (relax_memory_limit && relax_held + bytes > relax_memory_limit) relax_out_of_memory(bytes);
  return relax_held_block(__real_malloc(bytes), bytes);
}

void *__wrap_aligned_alloc(size_t alignment, size_t bytes) {
  if (relax_memory_limit && relax_held + bytes > relax_memory_limit) relax_out_of_memory(bytes);
  return relax_held_block(__real_aligned_alloc(alignment, bytes), bytes);
}

void __wrap_free(void *block) {
  size_t bytes = block ? malloc_usable_size(block) : 0;
  relax_held = bytes < relax_held ? relax_held - bytes : 0;
  __real_free(block);
}

typedef struct {
  int32_t reserved_1, flags, reserved_2, reserved_3;
  const char *source;
} relax_omp_location;
typedef void (*relax_omp_body)(int32_t *, int32_t *, ...);
extern void __kmpc_fork_call(relax_omp_location *, int32_t, relax_omp_body, ...)
    __attribute__((weak));
extern void kmp_set_blocktime(int) __attribute__((weak));

static void relax_no_work(int32_t *thread, int32_t *bound, ...) {
  (void)thread;
  (void)bound;
}

void relax_xdsl_park_workers(void) {
  static relax_omp_location here = {0, 2, 0, 0, ";relax_xdsl;park_workers;0;0;;"};
  if (!__kmpc_fork_call || !kmp_set_blocktime) return;
  kmp_set_blocktime(0);
  __kmpc_fork_call(&here, 0, relax_no_work);
}

const char *relax_xdsl_assert_message(void) { return relax_message ? relax_message : "abort"; }

#define RELAX_TRAP_BEGIN                                                                   \
  jmp_buf trap;                                                                            \
  jmp_buf *outer = relax_trap;                                                             \
  relax_trap = &trap;                                                                      \
  relax_message = 0;                                                                       \
  relax_held = 0;                                                                          \
  if (&CALL_DEPTH_GLOBAL) CALL_DEPTH_GLOBAL = 0;                                   \
  if (setjmp(trap)) {                                                                      \
    relax_trap = outer;                                                                    \
    return 1;                                                                              \
  }
#define RELAX_TRAP_END relax_trap = outer;
""".replace("CALL_DEPTH_GLOBAL", CALL_DEPTH_GLOBAL)


def entry_source(signature: Signature) -> str:
    """C source of `relax_xdsl_entry_<name>`, calling `_mlir_ciface_<name>`."""

    def c_type(spec) -> str:
        return "void *" if isinstance(spec, TensorSpec) else C_TYPES[spec.dtype]

    params = [c_type(s) for s in signature.inputs]
    values = [
        f"args[{i}]" if isinstance(s, TensorSpec) else f"*({c_type(s)} *)args[{i}]"
        for i, s in enumerate(signature.inputs)
    ]
    ret, assign = "void", ""
    if signature.returns_struct():
        params, values = ["void *", *params], ["results", *values]
    elif signature.results:
        ret = c_type(signature.results[0])
        assign = f"*({ret} *)results = "
    target = f"_mlir_ciface_{signature.name}"
    return (
        f"extern {ret} {target}({', '.join(params) or 'void'});\n"
        f"int relax_xdsl_entry_{signature.name}(void **args, void *results) {{\n"
        f"  RELAX_TRAP_BEGIN\n"
        f"  {assign}{target}({', '.join(values)});\n"
        f"  RELAX_TRAP_END\n"
        f"  return 0;\n"
        f"}}\n"
    )


def shim_source(signatures: list[Signature]) -> str:
    """The whole C file for a module's callable functions."""
    return PRELUDE + "".join(entry_source(s) for s in signatures)
