"""The declarations cffi reads are the headers preprocessed for this build (python/gen_cdef.py); this checks
that cffi lays every struct out as the C compiler does (an attribute cffi cannot see, packing, alignment),
member by member, against a program the build compiled from the same declarations."""
import os
import subprocess

import numpy as np

import skein
from skein._native import ffi, lib


def test_struct_layouts():
    out = subprocess.run([os.environ["SKEIN_ABI_PROBE"]], capture_output=True, text=True, check=True).stdout
    checked = 0
    for line in out.splitlines():
        name, value = line.rsplit(" ", 1)
        if "." in name:
            struct, member = name.split(".")
            assert ffi.offsetof(struct, member) == int(value), name
        else:
            assert ffi.sizeof(name) == int(value), name
        checked += 1
    assert checked > 60  # every struct of the public API (69 members and sizes), not a few


def test_real_type():
    assert skein.REAL.itemsize == lib.sk_real_size() == ffi.sizeof("sk_real")
    assert skein.REAL == (np.float32 if skein.REAL.itemsize == 4 else np.float64)
