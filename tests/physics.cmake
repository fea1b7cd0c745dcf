# Analytic physics tests of the scalar reference engine: each case checks the engine against a
# formula worked out by hand (closed forms of the discrete schemes, exact periods, equilibria) and
# prints its measured error.
skein_test(physics_free_fall SOURCES test_physics_free_fall.c CASES
  cyclone euler symplectic verlet damped_cyclone damped_euler damped_symplectic damped_verlet)
skein_test(physics_link_damping SOURCES test_physics_link_damping.c CASES
  symplectic_recurrence implicit_closed_form ratio_critical)
skein_test(physics_oscillator SOURCES test_physics_oscillator.c CASES
  symplectic verlet cyclone euler two_body_symplectic two_body_verlet)
skein_test(physics_pendulum SOURCES test_physics_pendulum.c CASES cyclone_0_8 cyclone_1_5 symplectic_0_8 verlet_0_8)
skein_test(physics_chain SOURCES test_physics_chain.c CASES symplectic cyclone verlet)
skein_test(physics_energy SOURCES test_physics_energy.c CASES euler_growth cyclone_growth symplectic_modified)
skein_test(physics_deploy SOURCES test_physics_deploy.c CASES
  law_exact max_length_weightless max_length_between_steps max_length_with_room law_rounded)
skein_test(physics_deploy_profile SOURCES test_physics_deploy_profile.c CASES
  length_integral reel_cycle absorb_momentum stops_at_initial)
skein_test(physics_deploy_payload SOURCES test_physics_deploy_payload.c CASES
  hanging_symplectic hanging_verlet hanging_implicit mass_cycle)
skein_test(physics_deploy_line SOURCES test_physics_deploy_line.c CASES large_implicit_steps held_segment hanging_slow
  held_segment_implicit implicit_step hanging_implicit)
skein_test(physics_deploy_line_water SOURCES test_physics_deploy_line_water.c CASES submerged_weight_held
  submerged_weight_held_implicit reel_in_band)
skein_test(physics_ground SOURCES test_physics_ground.c CASES
  bounce_acceleration bounce_force rest_acceleration rest_force)
skein_test(physics_drag SOURCES test_physics_drag.c CASES
  linear_symplectic linear_cyclone linear_verlet quadratic_symplectic quadratic_cyclone combined)
skein_test(physics_buoyancy SOURCES test_physics_buoyancy.c CASES
  half_symplectic half_cyclone half_verlet partial_symplectic)
skein_test(physics_fake_spring SOURCES test_physics_fake_spring.c CASES symplectic stiff damped verlet with_gravity)
skein_test(physics_driven SOURCES test_physics_driven.c CASES near_resonance below_resonance above_resonance)
skein_test(physics_bungee SOURCES test_physics_bungee.c CASES anchored_slack link_slack hanging)
skein_test(physics_implicit SOURCES test_physics_implicit.c CASES
  oscillator_small_step oscillator_large_step stiff_chain_large_step convergence_first_order deploy_law
  drag_linear drag_quadratic bungee_slack fake_spring anchored_bungee_slack)
skein_test(physics_statics SOURCES test_physics_statics.c CASES catenary hanging_payloads bungee_slack deploying_at_rest fake_spring_refused rod_catenary cable_hanging springs_on_ground
           line_in_water line_on_seabed line_catenary_ea jumper wind_slant)
skein_test(physics_support SOURCES test_physics_support.c CASES chain pendulum symplectic euler verlet implicit sine refused)
skein_test(physics_bdf2 SOURCES test_physics_bdf2.c CASES recurrence second_order energy newton profile_hang w3_tip)
skein_test(physics_flow SOURCES test_physics_flow.c CASES uniform_relaxation sheared_relaxation current_angle)
skein_test(physics_towing SOURCES test_physics_towing.c CASES path_table towed_angle towed_bdf2 towed_euler_iterations)
skein_test(physics_direct SOURCES test_physics_direct.c CASES
  pendulum_period double_pendulum hanging_rods hanging_cables ground_fall slack_cable tolerance)
skein_test(physics_friction SOURCES test_physics_friction.c CASES
  slide_distance slide_cyclone stick_below_mu_s slip_above_mu_s no_energy_created
  direct_slide_distance direct_slide_cyclone direct_stick_below_mu_s direct_slip_above_mu_s direct_no_energy_created
  direct_sliding_chain stick_ties direct_stick_ties)
skein_test(physics_line SOURCES test_physics_line.c CASES
  terminal_broadside terminal_broadside_verlet terminal_end_on added_mass_broadside added_mass_end_on floating
  seabed_rest seabed_slide terminal_broadside_implicit terminal_end_on_implicit added_mass_broadside_implicit
  added_mass_end_on_implicit seabed_rest_implicit)
skein_test(physics_bending SOURCES test_physics_bending.c CASES gradient tip_deflection first_mode symplectic_energy)
skein_test(physics_profiles SOURCES test_physics_profiles.c CASES
  tip_payload_symplectic tip_payload_verlet tip_payload_implicit two_material batch_tensions rods_cyclone rods_direct)
skein_test(physics_diagnostics SOURCES test_physics_diagnostics.c CASES
  hand_values anchor_off_axis fake_spring deploying conserved_springs conserved_bungees cable_cyclone cable_symplectic
  rod_column_cyclone rod_column_direct)
# The water (top-level "water"): keys, refusals, round trip, dispersion, kinematics, and the kernels' lanes
# against the reference bit for bit: tests/water_lanes.c compiled once per kernel ISA with its flags.
skein_test(water SOURCES test_water.c test_batch_common.c CASES
  keys dispersion refusals round_trip kinematics ramp current lanes harmless)
foreach(t ${SKEIN_KERNEL_TARGETS})
  string(REPLACE "skein_kernels_" "" isa ${t})
  string(TOUPPER ${isa} ISA)
  add_library(test_water_lanes_${isa} OBJECT water_lanes.c)
  target_include_directories(test_water_lanes_${isa} PRIVATE ${PROJECT_SOURCE_DIR}/kernels
                             ${PROJECT_SOURCE_DIR}/core/include ${PROJECT_SOURCE_DIR}/core)
  target_compile_definitions(test_water_lanes_${isa} PRIVATE $<TARGET_PROPERTY:${t},COMPILE_DEFINITIONS>)
  target_compile_options(test_water_lanes_${isa} PRIVATE $<TARGET_PROPERTY:${t},COMPILE_OPTIONS>)
  target_link_libraries(test_water_lanes_${isa} PRIVATE PkgConfig::SLEEF)
  target_sources(test_water PRIVATE $<TARGET_OBJECTS:test_water_lanes_${isa}>)
  target_compile_definitions(test_water PRIVATE SKEIN_TEST_LANES_${ISA}=1)
endforeach()
