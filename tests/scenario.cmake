# The scenario loader: schema, defaults, sweeps, overrides, normalised JSON, memory limit, bad inputs.
skein_test(scenario SOURCES test_scenario.c CASES
  defaults full_scenario sweep_linear sweep_values sweep_random sweeps_together auto_length overrides
  normalized memory_estimate memory_limit sweep_errors rules real_range inverse_ranges files bad_corpus
  nearest_key path_overflow speed_overflow byte_order_mark link_length_overflow value_messages)
# Scenarios built in code (skein/scenario.h's builder), through the public header alone.
skein_test(builder SOURCES test_builder.c CASES same_as_file sweeps path_errors validation_errors)
# The scenario as programs hold it: the public loaders' handle, its accessors, a slice, how a rope is held.
skein_test(scenario_handle SOURCES test_scenario_handle.c CASES accessors failures build slice_and_hold)
# The explicit stability limit of a group against chains of known frequencies, and the energy check.
skein_test(stability SOURCES test_stability.c CASES spring_chain anchor link_damping bending sweep_and_none energy_excess energy_line_in_water)
