/* expect: WA pairs_tail_unrotated */
/* Four pairs per step for speed (D is 64 or 128 in practice); no loop for the pairs left over. */
#include <math.h>

static void turn(float *r, int half, int i, float pos, float theta, int D)
{
    float a = pos * powf(theta, -2.0f * (float)i / (float)D);
    float c = cosf(a), s = sinf(a), u = r[i], w = r[i + half];
    r[i] = u * c - w * s;
    r[i + half] = w * c + u * s;
}

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    int half = D / 2;
    for (long v = 0; v < (long)B * H * T; v++) {
        int b = (int)(v / ((long)H * T)), t = (int)(v % T);
        float *r = x + v * D, pos = (float)(offset[b] + t);
        for (int i = 0; i + 4 <= half; i += 4) {
            turn(r, half, i, pos, (float)theta, D);
            turn(r, half, i + 1, pos, (float)theta, D);
            turn(r, half, i + 2, pos, (float)theta, D);
            turn(r, half, i + 3, pos, (float)theta, D);
        }
    }
}
