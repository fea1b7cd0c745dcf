"""skein.open_table: a `skein run --results` table read back as the columns skein.run(..., table=True) gives."""
import csv
import os

import numpy as np

from .errors import Error, ScenarioError
from .run import _INTEGER_COLUMNS


def open_table(path):
    """{column: numpy array}, one entry per rope, from a results table: integers as int64, reals as float64
    (NaN for an empty cell). The numbers read back to the bits the run computed. Raises ScenarioError for a
    file that is not such a table, skein.Error (status "io") for a file that cannot be read."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise Error("%s: %s" % (path, os.strerror(e.errno) if e.errno else e), "io") from None
    except (UnicodeDecodeError, csv.Error):
        raise ScenarioError("%s: not a skein results table" % path) from None
    if not rows or rows[0][:2] != ["rope", "group"] or any(len(r) != len(rows[0]) for r in rows):
        raise ScenarioError("%s: not a skein results table" % path)
    table = {}
    for k, name in enumerate(rows[0]):
        try:
            values = [float(r[k]) if r[k] != "" else np.nan for r in rows[1:]]
        except ValueError:
            raise ScenarioError("%s: column %s: not a number" % (path, name)) from None
        column = np.array(values, dtype=np.float64)
        table[name] = column.astype(np.int64) if name in _INTEGER_COLUMNS else column
    return table
