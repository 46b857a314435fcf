/* att_fast_paged.c: the public entry point of the paged decode kernel
 * (att.h, att_paged_decode_simd): checks the arguments as its scalar twin
 * does, sizes the scratch and runs the chosen table's paged workers
 * (att_kern.h) through att_parallel. No SIMD here. */
#include <math.h>
#include "att_fast.h"

/* The scores of one sequence, every query head's (the workers share them). */
size_t att_paged_decode_scratch_floats(int H, int Hkv, int block_size, int max_blocks,
                                       int threads)
{
    (void)threads;
    if (H < 1 || Hkv < 1 || H % Hkv || block_size < 1 || max_blocks < 1) return 0;
    return (size_t)H * max_blocks * block_size;
}

static void paged_task(const void *ctx, int tid, int n) { att_kern_chosen()->paged(ctx, tid, n); }

att_status att_paged_decode_simd(float *out, const float *q, const float *k_cache,
                                 const float *v_cache, const int *block_table,
                                 const int *seq_lens, int B, int H, int Hkv, int D,
                                 int num_blocks, int block_size, int max_blocks,
                                 int threads, float *scratch)
{
    att_status st = att_paged_check(block_table, seq_lens, B, H, Hkv, D, num_blocks, block_size,
                                    max_blocks);
    if (st) return st;
    att_paged_job j = { out, q, k_cache, v_cache, block_table, seq_lens, B, H, Hkv, D,
                        block_size, max_blocks, 1.0f / sqrtf((float)D), scratch };
    att_kern_chosen();
    att_parallel(att_threads_clamp(threads), paged_task, &j);
    return ATT_OK;
}
