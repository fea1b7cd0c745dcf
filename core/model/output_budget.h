/* The most the output writers buffer, whatever the batch: the HDF5 writer's chunk slots (raw and compressed,
 * io/hdf5/h5_writer.c) fit in it, and the memory check (scenario/memory.c) counts it for a batch whose written
 * frames are larger. */
#ifndef SKEIN_MODEL_OUTPUT_BUDGET_H
#define SKEIN_MODEL_OUTPUT_BUDGET_H

#include <stdint.h>

#define SK_OUTPUT_BUFFER_BYTES ((uint64_t)64 << 20)

#endif
