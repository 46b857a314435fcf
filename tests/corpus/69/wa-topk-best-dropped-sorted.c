/* expect: WA topk_off_by_one */
/* After sorting the visible keys by score, the copy loop starts at 1 (r = 1; r < n), keeping only n-1 keys and dropping one. */
#include <math.h>
#include <stdlib.h>

#define AT(p, t, c) ((p)[(size_t)(t) * D + (c)])

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    double scale = 1.0 / sqrt((double)D);
    double *sc = malloc(sizeof(double) * T);
    int *order = malloc(sizeof(int) * T);
    int *sel = malloc(sizeof(int) * T);
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            size_t base = ((size_t)b * H + h) * T * D;
            const float *qq = q + base, *kk = k + base, *vv = v + base;
            float *oo = out + base;
            for (int i = 0; i < T; i++) {
                int nvis = i + 1;
                for (int j = 0; j < nvis; j++) {
                    double d = 0.0;
                    for (int c = 0; c < D; c++) d += (double)AT(qq, i, c) * AT(kk, j, c);
                    sc[j] = d;
                    order[j] = j;
                }
                /* insertion sort, best first; stable so ties keep lower index first */
                for (int a = 1; a < nvis; a++) {
                    int x = order[a], p = a;
                    while (p > 0 && sc[order[p - 1]] < sc[x]) {
                        order[p] = order[p - 1];
                        p--;
                    }
                    order[p] = x;
                }
                int n = topk < nvis ? topk : nvis;
                int ns = 0;
                for (int r = 1; r < n; r++) sel[ns++] = order[r];
                double mx = -INFINITY;
                for (int t = 0; t < ns; t++) if (sc[sel[t]] > mx) mx = sc[sel[t]];
                double den = 0.0;
                for (int t = 0; t < ns; t++) den += exp((sc[sel[t]] - mx) * scale);
                for (int c = 0; c < D; c++) {
                    double num = 0.0;
                    for (int t = 0; t < ns; t++)
                        num += exp((sc[sel[t]] - mx) * scale) * AT(vv, sel[t], c);
                    AT(oo, i, c) = (float)(num / den);
                }
            }
        }
    }
    free(sc);
    free(order);
    free(sel);
}
