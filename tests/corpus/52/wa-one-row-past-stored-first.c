/* expect: WA attends_one_row_past */
/* Every new row stored first, then each (b, h) attends over j < n + 2: one stale row too far, the next sequence's row 0 (already stored) where n + 1 = S_max; in double. */
#include <float.h>
#include <math.h>
#include <string.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    const double scale = 1.0 / sqrt((double)D);
    /* append first, all sequences */
    for (int b = 0; b < B; b++) {
        long dst = ((long)b * S_max + len[b]) * H * D;
        memcpy(&k_cache[dst], &k[(long)b * H * D], sizeof(float) * H * D);
        memcpy(&v_cache[dst], &v[(long)b * H * D], sizeof(float) * H * D);
    }
    for (int bh = 0; bh < B * H; bh++) {
        int b = bh / H, h = bh % H;
        int n = len[b];
        double sc[n + 2];
        double best = -DBL_MAX;
        for (int j = 0; j < n + 2; j++) {
            long base = (((long)b * S_max + j) * H + h) * D;
            double d = 0.0;
            for (int c = 0; c < D; c++) d += (double)q[(long)bh * D + c] * k_cache[base + c];
            sc[j] = d * scale;
            if (sc[j] > best) best = sc[j];
        }
        double z = 0.0;
        for (int j = 0; j < n + 2; j++) { sc[j] = exp(sc[j] - best); z += sc[j]; }
        for (int c = 0; c < D; c++) {
            double a = 0.0;
            for (int j = 0; j < n + 2; j++) a += sc[j] * v_cache[(((long)b * S_max + j) * H + h) * D + c];
            out[(long)bh * D + c] = (float)(a / z);
        }
    }
    for (int b = 0; b < B; b++) len[b] += 1;
}
