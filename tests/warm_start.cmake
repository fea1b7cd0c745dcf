# Warm starts ("initial": {from, frame}): a run continued from frame k of an earlier run's HDF5 output ends at
# that run's last state to the bit, every integrator, deploying and contact groups, both engines, every ISA and
# thread count, a rope diverging later back at its last sound frame (test_warm_start); files that cannot be
# started from are refused with one line.
skein_test(warm_start SOURCES test_warm_start.c test_batch_common.c CASES continue_springs_deploy continue_contacts
  continue_implicit_iterations diverge_after_start refuse_missing_file refuse_not_hdf5 refuse_frame_out_of_range
  refuse_other_shapes refuse_rope_subset refuse_missing_state refuse_bad_values
  refuse_crafted_extents slices)
