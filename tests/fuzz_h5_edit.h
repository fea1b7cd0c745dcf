/* Structure-aware mutations of HDF5 files, for the libFuzzer targets of skein's readers of HDF5 files
 * (fuzz_checkpoint.c, fuzz_h5_replay.c). A byte flipped in an HDF5 file mostly meets one of the library's
 * metadata checksums, or, where there is none (the global heap of variable-length strings), libhdf5's own
 * parser, which 1.10 does not harden against crafted bytes and which skein cannot fix. What skein's readers
 * must survive is what a well-formed file can say: so a mutation is an edit made through libhdf5 itself,
 * and the result is a file HDF5 wrote, holding anything: an attribute of another value, type or shape, a
 * dataset of other values, extent, rank or type, an object deleted, copied or renamed. */
#ifndef SKEIN_TESTS_FUZZ_H5_EDIT_H
#define SKEIN_TESTS_FUZZ_H5_EDIT_H

#include <stddef.h>
#include <stdint.h>

/* A pseudo-random number from *state (xorshift64*; a zero state is made non-zero). */
uint64_t sk_fuzz_random(uint64_t *state);

/* An integer a reader may mishandle: 0, -1, limits of every width, 2^61 + 1, v's neighbours, multiples and
 * halves, or random bits. */
int64_t sk_fuzz_integer(int64_t v, uint64_t *rng);

/* Makes one random edit of the HDF5 file data[0..size) in place; returns its new size, at most max, or 0
 * when data is not a file HDF5 opens or the edited file would not fit in max bytes (data is then as it was).
 * Bytes before the superblock (a user block, a checkpoint's seal) stay as they are. */
size_t sk_fuzz_h5_edit(uint8_t *data, size_t size, size_t max, uint64_t *rng);

/* Sets the scalar 64-bit integer attribute `name` of the file's root group to value: for a harness that
 * keeps two parts of its input agreeing (a checkpoint's journal_bytes after its journal changed length).
 * Same returns as sk_fuzz_h5_edit. */
size_t sk_fuzz_h5_set_root_int(uint8_t *data, size_t size, size_t max, const char *name, int64_t value);

#endif
