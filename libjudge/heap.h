/* heap.h: how a judging process (the CLI, the diagnosis tests) sets up its
 * C heap. The mistake search allocates and frees a simulation's buffers for
 * every case of every way it tries: megabytes each on the long cases. glibc
 * gives such blocks back to the kernel when they are freed (past its mmap
 * and trim thresholds), so the next one is page-faulted in and cleared
 * anew: half of a long search's time (perf; 55's lse-last-tile-max file,
 * 3.5 s natively before, 1.8 s after). A judging process is short, so it
 * keeps the memory it has had. Elsewhere (wasm's heap never shrinks) this
 * does nothing. */
#ifndef JUDGE_HEAP_H
#define JUDGE_HEAP_H

#ifdef __GLIBC__
#include <limits.h>
#include <malloc.h>
#endif

static inline void judge_heap_keep(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 1 << 30);   /* blocks up to 1 GiB from the heap */
    mallopt(M_TRIM_THRESHOLD, INT_MAX);   /* and the heap never handed back */
#endif
}

#endif
