/* expect: WA depends_on_earlier_calls */
/* The inverse frequencies kept in a static table, rebuilt only when D changes: a later call with the same D and another theta turns by the old theta's angles. */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    static float inv_freq[512];
    static int cached_d = -1;
    const int half = D / 2;
    if (D != cached_d) {
        for (int i = 0; i < half; i++) inv_freq[i] = powf((float)theta, -2.0f * (float)i / (float)D);
        cached_d = D;
    }
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                float *r = x + (((long)b * H + h) * T + t) * D;
                const float pos = (float)(offset[b] + t);
                for (int i = 0; i < half; i++) {
                    const float a = pos * inv_freq[i], c = cosf(a), s = sinf(a);
                    const float x0 = r[i], x1 = r[i + half];
                    r[i] = x0 * c - x1 * s;
                    r[i + half] = x1 * c + x0 * s;
                }
            }
}
