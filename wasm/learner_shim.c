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
 *     must collide here too (a submission defines only the function).
 * It also replaces the C library's sbrk (see there), for speed only. */
#include <errno.h>
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

/* malloc's break. The C library's sbrk grows the memory by exactly what
 * malloc asks, a page or two at a time, and each memory.grow costs V8 about
 * half a millisecond: an allocation loop that natively reaches the memory
 * limit (MLE) in a fraction of a second ran out of time (TLE) instead. Here the
 * memory grows in steps of at least GROW_STEP, and by exactly what is needed
 * once a whole step no longer fits under the limit, so all of it stays usable. */
#define WASM_PAGE 65536u
#define GROW_STEP (16u << 20)

static uint64_t judge_break;

void *sbrk(intptr_t increment)
{
    uint64_t end = (uint64_t)__builtin_wasm_memory_size(0) * WASM_PAGE;
    if (!judge_break) judge_break = end;
    uint64_t want = judge_break + (uint64_t)increment;
    if (increment < 0 || want > UINT32_MAX) {
        errno = ENOMEM;
        return (void *)-1;
    }
    if (want > end) {
        size_t pages = (size_t)((want - end + WASM_PAGE - 1) / WASM_PAGE);
        size_t step = GROW_STEP / WASM_PAGE;
        if (__builtin_wasm_memory_grow(0, pages > step ? pages : step) == (size_t)-1
            && __builtin_wasm_memory_grow(0, pages) == (size_t)-1) {
            errno = ENOMEM;
            return (void *)-1;
        }
    }
    void *old = (void *)(uintptr_t)judge_break;
    judge_break = want;
    return old;
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
