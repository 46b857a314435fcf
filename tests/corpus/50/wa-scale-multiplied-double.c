/* expect: WA scale_multiplied */
/* Three passes in double over a VLA of scores; each dot product is multiplied by sqrt(D), not divided. */
#include <float.h>
#include <math.h>

#define IDX(b, h, t, c) ((((b) * H + (h)) * T + (t)) * D + (c))

/* does query i see key j? */
static int visible(int i, int j, int W)
{
    return j <= i && j > i - W;
}

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    double scores[T];
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                /* pass 1: the scores and the largest one */
                double mx = -FLT_MAX;
                for (int j = 0; j < T; j++) {
                    if (!visible(i, j, W)) continue;
                    double dot = 0.0;
                    for (int c = 0; c < D; c++)
                        dot += (double)q[IDX(b, h, i, c)] * k[IDX(b, h, j, c)];
                    scores[j] = dot * sqrt((double)D);
                    if (scores[j] > mx) mx = scores[j];
                }
                /* pass 2: exponentials and their sum */
                double total = 0.0;
                for (int j = 0; j < T; j++) {
                    if (!visible(i, j, W)) continue;
                    scores[j] = exp(scores[j] - mx);
                    total += scores[j];
                }
                /* pass 3: the weighted sum of the values */
                for (int c = 0; c < D; c++) {
                    double o = 0.0;
                    for (int j = 0; j < T; j++)
                        if (visible(i, j, W)) o += scores[j] * v[IDX(b, h, j, c)];
                    out[IDX(b, h, i, c)] = (float)(o / total);
                }
            }
}
