/* att_compare.c: the one element-wise comparison (DESIGN point 6). */
#include <math.h>
#include "att.h"

/* err / tol for one element: <= 1 passes, +inf for NaN or a wrong non-finite. */
static double ratio_of(double g, double e, double atol, double rtol)
{
    if (!isfinite(e))   /* only a simulated mistake has one: match its kind */
        return (isnan(e) ? isnan(g) : g == e) ? 0.0 : INFINITY;
    double err = fabs(g - e), tol = atol + rtol * fabs(e);
    if (!(err <= tol))  /* NaN and Inf in got land here */
        return isfinite(err) ? (tol > 0 ? err / tol : INFINITY) : INFINITY;
    return tol > 0 ? err / tol : 0.0;
}

void att_compare(att_cmp *r, const float *got, const float *ref, size_t n,
                 double atol, double rtol)
{
    r->n = n;
    r->n_bad = 0;
    r->first_bad = r->worst = n;
    r->max_abs = r->max_rel = r->max_ratio = 0.0;
    for (size_t i = 0; i < n; i++) {
        double g = got[i], e = ref[i];
        double ratio = ratio_of(g, e, atol, rtol);
        if (ratio > 1.0 && r->n_bad++ == 0)
            r->first_bad = i;
        if (r->worst == n || ratio > r->max_ratio) {
            r->max_ratio = ratio;
            r->worst = i;
        }
        if (!isfinite(e) && ratio <= 1.0) continue;   /* matched by kind: no distance to speak of */
        /* A NaN got makes the maxima NaN, and keeps them so (a later err > NaN
         * is false); an infinite one, or a finite one where -inf was
         * expected, makes them inf: the learner reads what went wrong, not 0
         * as if the element were not there. */
        double err = fabs(g - e);
        if (isnan(err) || err > r->max_abs) r->max_abs = err;
        if (isnan(err) || isinf(e)) r->max_rel = err;
        else if (e == 0.0) {   /* a wrong element where 0 was expected is off by any factor */
            if (ratio > 1.0 && !isnan(r->max_rel)) r->max_rel = INFINITY;
        } else if (err / fabs(e) > r->max_rel) r->max_rel = err / fabs(e);
    }
}
