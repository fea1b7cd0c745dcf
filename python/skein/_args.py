"""Whole-number arguments checked as the command line checks its options: an int or a numpy integer (never a
float, however whole, nor a bool), within its range, else ScenarioError naming the argument."""
import operator

import numpy as np

from .errors import ScenarioError

# sk_run_options.steps and sk_engine_advance take a C long
LONG_MAX = 2**63 - 1
# the command line's --threads cap
MAX_THREADS = 4096


def _shown(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def integer(name, value, lo, hi):
    """value as a Python int in [lo, hi]."""
    if isinstance(value, (bool, np.bool_)):
        raise ScenarioError("%s: %s is not a whole number" % (name, _shown(value)))
    try:
        n = operator.index(value)
    except TypeError:
        raise ScenarioError("%s: %s is not a whole number" % (name, _shown(value))) from None
    if n < lo:
        raise ScenarioError("%s: %d must be >= %d" % (name, n, lo))
    if n > hi:
        raise ScenarioError("%s: %d must be <= %d" % (name, n, hi))
    return n


def integers(name, values):
    """A flat int64 array of whole numbers: a sequence, a range or a numpy array of integers."""
    if isinstance(values, (str, bytes)):
        raise ScenarioError("%s: %s is not a list of whole numbers" % (name, _shown(values)))
    try:
        a = np.asarray(values)
    except (TypeError, ValueError):
        raise ScenarioError("%s: %s is not a list of whole numbers" % (name, _shown(values))) from None
    a = a.ravel()
    if a.size == 0:
        return np.empty(0, dtype=np.int64)
    if a.dtype.kind in "iu":
        if a.dtype.kind == "u" and a.max() > LONG_MAX:
            raise ScenarioError("%s: %d must be <= %d" % (name, int(a.max()), LONG_MAX))
        return a.astype(np.int64)
    if a.dtype.kind == "O":
        return np.array([integer(name, v, -LONG_MAX - 1, LONG_MAX) for v in a], dtype=np.int64)
    bad = a[0]
    if a.dtype.kind == "f":
        frac = a[~(np.isfinite(a) & (a == np.floor(a)))]
        bad = frac[0] if frac.size else a[0]
    raise ScenarioError("%s: %s is not a whole number" % (name, _shown(bad.item() if hasattr(bad, "item") else bad)))
