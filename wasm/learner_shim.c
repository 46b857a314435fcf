/* learner_shim.c: linked into every learner module the wasm backend builds
 * (wasm/compile.mjs), the counterpart of what runner.c adds natively. It only
 * turns three events the loader cannot see from outside into calls to the
 * loader's `judge` imports, which stop the run; it decides nothing, and a
 * learner calling those imports can only fail their own run.
 *   - a failed malloc/calloc/realloc (linked with --wrap): the memory limit,
 *     MLE, as natively, rather than a crash on NULL that looks like RE;
 *   - a load or store through a NULL pointer (compiled with -fsanitize=null):
 *     wasm memory has no unmapped page 0, so without this a read of NULL
 *     silently gives zeros;
 *   - a learner `main`: natively it collides with the runner's main, so it
 *     must collide here too (a submission defines only the function). */
#include <stddef.h>
#include <stdint.h>

#define JUDGE_IMPORT(name) __attribute__((import_module("judge"), import_name(#name)))

JUDGE_IMPORT(out_of_memory) void judge_out_of_memory(size_t bytes);
JUDGE_IMPORT(null_pointer) void judge_null_pointer(const char *file, uint32_t line, uint32_t column);

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);

static void *checked(void *p, size_t n)
{
    if (!p && n) judge_out_of_memory(n);
    return p;
}

void *__wrap_malloc(size_t n) { return checked(__real_malloc(n), n); }
void *__wrap_realloc(void *p, size_t n) { return checked(__real_realloc(p, n), n); }
void *__wrap_calloc(size_t n, size_t size)
{
    return checked(__real_calloc(n, size), n * size ? n * size : n);
}

/* The layout clang gives UBSan's type-mismatch data: where the access is. */
struct source_location {
    const char *file;
    uint32_t line, column;
};
struct type_mismatch {
    struct source_location loc;
    const void *type;
    unsigned char log_alignment, kind;
};

/* With only the null check enabled, a type mismatch is a NULL access. */
void __ubsan_handle_type_mismatch_v1_abort(struct type_mismatch *data, void *ptr)
{
    (void)ptr;
    judge_null_pointer(data->loc.file, data->loc.line, data->loc.column);
    __builtin_trap();
}

int main(void) { return 0; }
