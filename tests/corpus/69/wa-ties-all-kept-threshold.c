/* expect: WA topk_ties_all_kept */
/* Finds the topk-th best score as a threshold and keeps every score at or
 * above it: the keys tied with it are all kept, more than topk. */
#include <math.h>

static float sc[4096];

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            for (int j = 0; j <= i; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += q[(bh * T + i) * D + c] * k[(bh * T + j) * D + c];
                sc[j] = d / sqrtf((float)D);
            }
            int n = topk < i + 1 ? topk : i + 1;
            float thr = -INFINITY;   /* the n-th largest: the largest score with at least n keys >= it */
            for (int j = 0; j <= i; j++) {
                int ge = 0;
                for (int m = 0; m <= i; m++) ge += sc[m] >= sc[j];
                if (ge >= n && sc[j] > thr) thr = sc[j];
            }
            float mx = -INFINITY;
            for (int j = 0; j <= i; j++) if (sc[j] > mx) mx = sc[j];
            float sum = 0.0f, acc[256] = { 0 };
            for (int j = 0; j <= i; j++) {
                int kept = sc[j] >= thr;
                if (!kept) continue;
                float w = expf(sc[j] - mx);
                sum += w;
                for (int c = 0; c < D; c++) acc[c] += w * v[(bh * T + j) * D + c];
            }
            for (int c = 0; c < D; c++) out[(bh * T + i) * D + c] = acc[c] / sum;
        }
}
