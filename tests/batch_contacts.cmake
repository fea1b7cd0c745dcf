# The batch engine's contacts: against the scalar reference bit for bit (every ISA, integrator, thread
# count), their diagnostics and stages; and physics through the batch engine (analytic bounds).
skein_test(batch_contacts SOURCES test_batch_contacts.c test_batch_common.c CASES
  rod_chain rod_chain_pinned cable_chain rod_constraint cable_constraint springs_on_rod_constraint
  ground_springs ground_rods ground_cables deploy_ground fixed_iterations groups_side_by_side isa_is_kernels
  diagnostics_match stages driven_constraint
  friction_rods friction_springs friction_zero_is_frictionless friction_anchored_and_deploying)
skein_test(batch_contacts_physics SOURCES test_batch_contacts_physics.c CASES
  pendulum_cyclone pendulum_euler pendulum_symplectic pendulum_verlet cable_cyclone cable_euler cable_symplectic
  cable_verlet resting_cyclone resting_euler resting_symplectic resting_verlet rebound_cyclone rebound_euler
  rebound_symplectic rebound_verlet hanging_tension)
skein_test(batch_direct SOURCES test_batch_direct.c test_batch_common.c CASES
  rod_chain rod_chain_pinned cable_chain rod_anchor cable_anchor ground_rods ground_cables ground_springs
  deploy_ground driven_anchor friction_rods friction_cables friction_deploy)
