/* probe.c: the probing steps the attention problems share, so each
 * problem_<name>.c says only which of its params play which part. */
#include "judge.h"

void judge_probe_kv(judge_args *a, int k, int v, int heads, int S, int D, int j)
{
    for (int p = 0; p < 2; p++) {
        float *x = (float *)a->buf[p ? v : k];
        if (p ? v < 0 : k < 0) continue;
        for (int h = 0; h < heads; h++)
            for (int c = 0; c < D; c++) x[((size_t)h * S + j) * D + c] += 0.5f;
    }
}

void judge_probe_rows(int T, int width, int i, size_t *start, size_t *n)
{
    *n = i < T ? (size_t)width : 0;
    *start = (size_t)i * (size_t)width;
}
