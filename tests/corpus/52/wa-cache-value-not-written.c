/* expect: WA cache_not_written */
#include <math.h>
void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    double p[65];
    for (int b = 0; b < B; b++) {
        int n0 = len[b]; for (int x = 0; x < H*D; x++) { k_cache[((long)b*S_max+n0)*H*D+x] = k[b*H*D+x]; }
        for (int h = 0; h < H; h++) {
            int n = len[b];
            
            double mx = -1e300, sum = 0;
            for (int j = 0; j < n + 1; j++) {
                double s = 0;
                for (int c = 0; c < D; c++) s += q[(b*H+h)*D+c] * k_cache[((b*S_max+j)*H+h)*D+c];
                p[j] = s / sqrt((double)D); if (p[j] > mx) mx = p[j];
            }
            for (int j = 0; j < n + 1; j++) { p[j] = exp(p[j] - mx); sum += p[j]; }
            for (int c = 0; c < D; c++) {
                double a = 0; for (int j = 0; j < n + 1; j++) a += p[j] * v_cache[((b*S_max+j)*H+h)*D+c];
                out[(b*H+h)*D+c] = (float)(a / sum);
            }
            
        }
        len[b] = n0 + 1;
    }
}
