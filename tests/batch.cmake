# The batch engine: against the scalar reference bit for bit, determinism over threads, ISAs and batch
# composition, a golden hash, diagnostics, divergence, the stage kernels.
skein_test(batch_accuracy SOURCES test_batch_accuracy.c test_batch_common.c CASES
  spring spring_unpinned pinned_set bungee gravity_force drag buoyancy wind wind_everywhere anchored_spring anchored_bungee
  fake_spring anchor_on_pinned undamped all_forces deploy_seed deploy_along deploy_pinned deploy_max_length
  deploy_weightless_segment deploy_exact_ties deploy_profile deploy_reel_in deploy_reel_in_ground deploy_payload deploy_payload_reel_in
  deploy_payload_reel_in_ground single_particle signed_zeros groups_with_contacts ground_is_kernels driven_anchor pin_towed
  implicit_contacts bdf2 bdf2_profiles bdf2_line_water flow flow_swept_only towed_path bending bending_all_forces bending_deploy bending_contacts
  stages_unfused isa_choice profiles_linear profiles_lists_forces profiles_fake_spring profiles_bungee
  profiles_contacts profiles_friction profiles_direct profiles_bending friction_ties link_damping
  link_damping_ratio link_damping_profiles link_damping_deploy link_damping_bdf2
  line_water line_waves line_water_particles line_water_bending deploy_line deploy_line_reel_in deploy_line_ground
  deploy_line_water deploy_line_water_reel_in deploy_line_seabed deploy_line_seabed_dry deploy_particles_water
  deploy_line_implicit deploy_line_reel_in_implicit deploy_line_undamped_implicit deploy_line_water_implicit
  deploy_line_seabed_implicit)
skein_test(batch_determinism SOURCES test_batch_determinism.c test_batch_common.c CASES
  threads_one_and_two every_isa split_steps alone_and_in_batch golden_hash)
skein_test(batch_diagnostics SOURCES test_batch_diagnostics.c test_batch_common.c CASES
  hand_values fake_spring_and_deployment bending_energy batch_equals_scalar divergence divergence_contact_group)
# Memory: the estimate a scenario is refused on covers what the batch allocates, and not much more.
skein_test(batch_memory SOURCES test_batch_memory.c test_batch_common.c CASES springs contacts_and_deployment profiles bdf2)
# Anchors moved between steps (sk_engine_set_anchor): both engines alike, to the bit.
skein_test(engine_anchor SOURCES test_engine_anchor.c CASES batch_equals_reference move_at_start_is_the_written_point
  refused)
