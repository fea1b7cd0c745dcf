"""libskein through cffi in ABI mode: the declarations are the public headers of the build (_cdef.py), the
library the one _config.py names. Nothing is compiled at import."""
import numpy as np
from cffi import FFI

from . import _cdef, _config
from .errors import Error, ScenarioError

ffi = FFI()
ffi.cdef(_cdef.CDEF)
lib = ffi.dlopen(_config.LIBRARY)

if lib.sk_real_size() != ffi.sizeof("sk_real"):
    raise ImportError("skein: %s has %d-byte reals, this package was built for %d-byte ones"
                      % (_config.LIBRARY, lib.sk_real_size(), ffi.sizeof("sk_real")))

#: numpy's dtype of the library's sk_real (float64, or float32 in a build with SKEIN_REAL=float)
REAL = np.dtype(np.float64 if ffi.sizeof("sk_real") == 8 else np.float32)

# Statuses that say the input was at fault (a scenario, a key path, a value, a file that is not skein's).
_SCENARIO_STATUSES = {lib.SK_ERR_INVALID, lib.SK_ERR_MISMATCH, lib.SK_ERR_CORRUPT}


def new_error():
    return ffi.new("sk_error *")


def fail(err):
    """The exception for a filled sk_error: its message is the line the command line prints after 'skein: '."""
    message = ffi.string(err.message).decode("utf-8", "replace")
    status = int(err.status)
    if status == lib.SK_ERR_NO_MEMORY:
        return MemoryError(message)
    cls = ScenarioError if status in _SCENARIO_STATUSES else Error
    return cls(message, status=ffi.string(lib.sk_status_name(status)).decode())


def check(status, err):
    if status != lib.SK_OK:
        raise fail(err)


def real_pointer(array):
    """A numpy array of sk_real as the sk_real * cffi hands the library (no copy)."""
    assert array.dtype == REAL and array.flags.c_contiguous
    return ffi.cast("sk_real *", ffi.from_buffer(array, require_writable=True))
