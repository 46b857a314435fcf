/* expect: WA hybrid_window_off_by_one */
/* Flags for the globals, two passes; the window test is j > i - W + 1, one key short. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_global(const int *gi, int G, int x)
{
    for (int g = 0; g < G; g++) if (gi[g] == x) return 1;
    return 0;
}

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * T);
    char *see = malloc(T);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * T * D, *V = v + (size_t)bh * T * D;
        float *O = out + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            int gq = is_global(global_idx, G, i);
            float mx = -INFINITY, z = 0.0f;
            for (int j = 0; j < T; j++) {
                see[j] = j <= i && (j > i - W + 1 || is_global(global_idx, G, j) || gq);
                if (!see[j]) continue;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                p[j] = s * scale;
                if (p[j] > mx) mx = p[j];
            }
            for (int j = 0; j < T; j++) if (see[j]) { p[j] = expf(p[j] - mx); z += p[j]; }
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int j = 0; j < T; j++) if (see[j]) a += p[j] * V[j * D + c];
                O[i * D + c] = a / z;
            }
        }
    }
    free(p); free(see);
}
