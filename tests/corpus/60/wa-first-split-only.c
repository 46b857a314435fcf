/* expect: WA */
/* Returns the first split as the answer, as if P were always 1. */
void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    (void)P;
    for (int i = 0; i < B * H * D; i++) out[i] = o_part[i];
    for (int i = 0; i < B * H; i++) lse[i] = lse_part[i];
}
