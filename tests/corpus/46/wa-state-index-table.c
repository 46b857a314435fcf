/* expect: WA state_kept_between_calls */
/* Builds a static table of gathered values on the first call for a size and
 * then serves from it: the table holds the first call's x and y values. */
#define MAX_N (3 * 65 * 5 * 17)

static float table_heads[MAX_N], table_merged[MAX_N];
static int table_n;

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    int n = B * T * H * D;
    if (n != table_n) {
        for (int b = 0; b < B; b++)
            for (int t = 0; t < T; t++)
                for (int h = 0; h < H; h++)
                    for (int c = 0; c < D; c++) {
                        int whole = ((b * T + t) * H + h) * D + c;
                        int split = ((b * H + h) * T + t) * D + c;
                        table_heads[split] = x[whole];
                        table_merged[whole] = y[split];
                    }
        table_n = n;
    }
    for (int i = 0; i < n; i++) {
        heads[i] = table_heads[i];
        merged[i] = table_merged[i];
    }
}
