/* The known key nearest to a mistyped one, for "unknown key; did you mean ...": the fewest single-character
 * edits (insert, delete, replace, swap two neighbours) that turn one into the other. */
#include <string.h>

#include "scenario/scenario_impl.h"

enum { LONGEST = 64 }; /* keys longer than this get no suggestion */

/* Edits between a and b (optimal string alignment distance). */
static int edits(const char *a, const char *b)
{
    const int n = (int)strlen(a), m = (int)strlen(b);
    int d[LONGEST + 1][LONGEST + 1];
    for (int i = 0; i <= n; i++)
        d[i][0] = i;
    for (int j = 0; j <= m; j++)
        d[0][j] = j;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++) {
            const int cost = a[i - 1] != b[j - 1];
            int best = d[i - 1][j - 1] + cost;
            best = d[i - 1][j] + 1 < best ? d[i - 1][j] + 1 : best;
            best = d[i][j - 1] + 1 < best ? d[i][j - 1] + 1 : best;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *sk_scn_nearest(const char *key, const char *const *known, int n_known)
{
    if (strlen(key) > LONGEST)
        return NULL;
    /* close enough to be a slip: one edit in a short key, two in a longer one, never most of the key */
    const int allowed = strlen(key) <= 4 ? 1 : 2;
    const char *best = NULL;
    int best_edits = allowed + 1;
    for (int i = 0; n_known < 0 ? known[i] != NULL : i < n_known; i++) {
        if (strlen(known[i]) > LONGEST)
            continue;
        const int e = edits(key, known[i]);
        if (e < best_edits) {
            best = known[i];
            best_edits = e;
        }
    }
    return best;
}
