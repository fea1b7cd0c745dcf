# The scalar reference engine: force and contact generators, resolver, integrators, constants,
# deployment and ropes, each against values worked out by hand.
skein_test(ref_forces SOURCES test_forces.c CASES
  gravity gravity_pinned drag drag_at_rest buoyancy spring_stretched spring_compressed spring_pinned_end
  spring_damped spring_coincident bungee anchored_spring anchored_spring_compressed anchored_bungee fake_spring_exact
  fake_spring_inactive registry_order)
skein_test(ref_contacts SOURCES test_contacts.c CASES
  ground rod cable rod_constraint cable_constraint bounce acceleration_term two_particles
  separating_and_pinned moves_zero_when_skipped resolver_order resolver_penetration_updates resolver_none
  world_rod_chain world_verlet_q world_verlet_q_bits)
skein_test(ref_integrators SOURCES test_integrators.c CASES
  cyclone euler symplectic verlet pinned mass_read_back)
skein_test(ref_constants SOURCES test_constants.c CASES
  constants fake_spring_constants layout anchor_motion)
skein_test(ref_deploy SOURCES test_deploy.c CASES
  length_grows_exactly insert_seed_rule insert_along_rule insert_verlet insert_pinned
  max_length_weightless_segment max_length_with_room)
skein_test(ref_rope SOURCES test_rope.c CASES
  anchor_holds_particle_0 driven_anchor pinned_untouched iterations verlet_start engine)
