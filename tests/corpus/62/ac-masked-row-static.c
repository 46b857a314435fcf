/* expect: AC */
/* A static row with -INFINITY for hidden keys, pointer walking, the sink in the max and in the sum. */
#include <math.h>
#include <stddef.h>

static float row[65];   /* T <= 65 */

/* Every key gets a slot, -INFINITY where the query cannot see it; the
 * sink takes part in the max and the sum. Pointers walk the rows. */
void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    float scale = 1.0f / sqrtf((float)D);
    const float *qi = q;
    float *o = out;
    for (int bh = 0; bh < B * H; bh++) {
        const float *kb = k + (size_t)bh * T * D, *vb = v + (size_t)bh * T * D;
        float sink = sinks[bh % H];
        for (int i = 0; i < T; i++, qi += D, o += D) {
            float max = sink;
            for (int j = 0; j < T; j++) {
                int seen = j <= i && (W == 0 || j > i - W);
                const float *kj = kb + (size_t)j * D;
                float s = 0.0f;
                for (int c = 0; seen && c < D; c++) s += qi[c] * kj[c];
                row[j] = seen ? s * scale : -INFINITY;
                if (row[j] > max) max = row[j];
            }
            float sum = expf(sink - max);
            for (int j = 0; j < T; j++) sum += row[j] = expf(row[j] - max);
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int j = 0; j < T; j++) {
                const float *vj = vb + (size_t)j * D;
                for (int c = 0; c < D; c++) o[c] += row[j] * vj[c];
            }
            for (int c = 0; c < D; c++) o[c] /= sum;
        }
    }
}
