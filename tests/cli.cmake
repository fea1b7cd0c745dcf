# The command line: example scenarios, bad scenarios, bad command lines, each command and option.
# Every case is its own ctest test; the scripts run skein from a scratch directory of their own.
set(SKEIN_CLI_DIR ${CMAKE_CURRENT_SOURCE_DIR}/cli)
find_program(SKEIN_BASH bash REQUIRED)

function(skein_cli_test name script)
  add_test(NAME cli.${name}
    COMMAND ${SKEIN_BASH} ${SKEIN_CLI_DIR}/${script} $<TARGET_FILE:skein> ${PROJECT_SOURCE_DIR} ${ARGN})
endfunction()

# Each example scenario, run briefly: NAME ROWS "FRAME STEPS" OPTIONS. The rows are frames x ropes x
# particles present, worked out by hand: seed000_mass_rope starts with 2 particles and inserts its
# third at step 2808 (s = 0.1 + 1.5e-4 k first exceeds L = 9.9/19 at k = 2808).
skein_cli_test(scenario.seed001_ball scenario.sh seed001_ball 6 "0 10 20 30 40 50" --steps 50)
skein_cli_test(scenario.seed001_pendulum scenario.sh seed001_pendulum 6 "0 10 20 30 40 50" --steps 50)
skein_cli_test(scenario.seed000_weightless_segment_rope scenario.sh seed000_weightless_segment_rope
  8 "0 100 200 300" --steps 300 --every 100)
skein_cli_test(scenario.seed000_mass_rope scenario.sh seed000_mass_rope
  12 "0 1000 2000 3000 4000" --steps 4000 --every 1000)
skein_cli_test(scenario.seed002_rod_chain_ground scenario.sh seed002_rod_chain_ground 30 "0 10 20" --steps 20 --every 10)
skein_cli_test(scenario.seed003_rope_euler scenario.sh seed003_rope_euler 9 "0 64 128" --steps 128)
skein_cli_test(scenario.seed003_rope_verlet scenario.sh seed003_rope_verlet 9 "0 64 128" --steps 128)
# The workloads write ropes 0 and 4095 (output.ropes); 3 steps give frames 0 and 3.
skein_cli_test(scenario.w1_springs scenario.sh w1_springs 256 "0 3" --steps 3)
skein_cli_test(scenario.w2_rods scenario.sh w2_rods 128 "0 3" --steps 3)
# 16 deploying ropes, 2 particles each until their first insertion (s = 0.5 + 4e-3 k at most exceeds 1 m
# from step 125 on).
skein_cli_test(scenario.stiff_deploying_tether scenario.sh stiff_deploying_tether 64 "0 3" --steps 3)
# 3 ropes of 50 particles written (output.ropes).
skein_cli_test(scenario.line_in_current scenario.sh line_in_current 300 "0 3" --steps 3)
# 3 mooring lines of 83 particles written (output.ropes), the 64 solved for rest before step 0. A float build
# cannot solve these chains for rest: their forces' round-off, EA / L times a coordinate's, is about 1e4 N
# (measured: not at rest within 1e4 N in 500 solves); it runs them from the straight chord.
if(SKEIN_REAL STREQUAL "float")
  skein_cli_test(scenario.mooring_lines scenario.sh mooring_lines 498 "0 3" --steps 3
    --set initial.equilibrium=false)
else()
  skein_cli_test(scenario.mooring_lines scenario.sh mooring_lines 498 "0 3" --steps 3)
endif()
# 2 ropes of 40 particles written (output.ropes).
skein_cli_test(scenario.towed_line scenario.sh towed_line 160 "0 3" --steps 3)
# 3 ropes of 32 particles written (output.ropes).
skein_cli_test(scenario.rod_chains_direct scenario.sh rod_chains_direct 192 "0 3" --steps 3)
# Ropes 0 and 15 written (output.ropes), the whole cycle: 2 particles, 8 at 3 s (3 m paid out from
# s = 0.45 with L = 0.5: 6 insertions), 2 again at 6 s (all 3 m reeled in).
skein_cli_test(scenario.reel_in scenario.sh reel_in 24 "0 30000 60000" --every 30000)
# Ropes 0 and 7 written (output.ropes): 1 particle each at the start; at 12.5 s rope 0 (0.5 m/s) has 13
# (0.2 + 6.25 m out: 12 segments and s = 0.45) and rope 7 (2 m/s) all 20; all 10 m out by 25 s.
skein_cli_test(scenario.deploy_line scenario.sh deploy_line 75 "0 50000 100000")
# Ropes 0 and 7 written (output.ropes), 1 particle each at the start, s = 0.5 m of a 1 m segment: rope 0 pays
# out 0.8 m/s (4e-4 m a step: insertions near steps 1250 and 3750), rope 7 1.3 m/s (6.5e-4 m: near 770, 2310,
# 3850): 1 + 1, 2 + 2 and 3 + 4 rows at steps 0, 2000 and 4000.
skein_cli_test(scenario.cable_lay scenario.sh cable_lay 13 "0 2000 4000" --steps 4000 --every 2000)
# 3 ropes of 32 particles written (output.ropes).
skein_cli_test(scenario.rods_sliding_to_a_stop scenario.sh rods_sliding_to_a_stop 192 "0 3" --steps 3)
# 3 ropes of 32 particles written (output.ropes).
skein_cli_test(scenario.rods_sliding_direct scenario.sh rods_sliding_direct 192 "0 3" --steps 3)
# 3 cantilevers of 22 particles written (output.ropes).
skein_cli_test(scenario.cantilevers scenario.sh cantilevers 132 "0 3" --steps 3)
# a two-material tether with a tip payload (mass and stiffness along the rope)
skein_cli_test(scenario.two_material_tether scenario.sh two_material_tether 126 "0 3" --steps 3)
# A tether paid out from its reel with a tip payload (particle 0): ropes 0 and 7 written (output.ropes), 2
# particles each until the first insertion (s = 0.45 + the speed's integral, under 1e-5 m in 3 steps).
skein_cli_test(scenario.deploy_tip_payload scenario.sh deploy_tip_payload 8 "0 3" --steps 3)
# W3 writes rope 0 of 200 particles.
skein_cli_test(scenario.w3_stiff_tether scenario.sh w3_stiff_tether 400 "0 3" --steps 3)
# The Lowe and Langley jumper, case 1 (tests/validation/make_paths.py writes it): 69 particles of 1 rope.
skein_cli_test(scenario.jumper_lowe_langley scenario.sh jumper_lowe_langley 138 "0 3" --steps 3)
# a line in water and on the compliant seabed under the implicit integrator (docs/model.md 2.1)
skein_cli_test(scenario.jumper_lowe_langley_implicit scenario.sh jumper_lowe_langley 138 "0 3" --steps 3
  --set integrator=implicit)
# W4 writes jumpers 0 and 1023 (output.ropes), 69 particles each (68 segments).
skein_cli_test(scenario.w4_jumpers scenario.sh w4_jumpers 276 "0 3" --steps 3)

# The warm-start pair: the settling run writes the file the gust starts from (tests/cli/warm_start.sh).
skein_cli_test(scenario.hanging_lines_settle scenario.sh hanging_lines_settle 1920 "0 3" --steps 3)
skein_cli_test(scenario.hanging_lines_gust warm_start.sh example)
foreach(c continue refused)
  skein_cli_test(warm_start.${c} warm_start.sh ${c})
endforeach()

# Every scenario file must have a test above.
file(GLOB SKEIN_SCENARIO_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/scenarios/*.json)
foreach(f ${SKEIN_SCENARIO_FILES})
  get_filename_component(n ${f} NAME_WE)
  if(NOT TEST cli.scenario.${n})
    message(SEND_ERROR "scenarios/${n}.json has no cli.scenario test in tests/cli.cmake")
  endif()
endforeach()

# The corpus of bad scenarios: one test per line of tests/bad/expected.tsv (FILE<TAB>MESSAGE).
set(SKEIN_BAD_TSV ${CMAKE_CURRENT_SOURCE_DIR}/bad/expected.tsv)
if(EXISTS ${SKEIN_BAD_TSV})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${SKEIN_BAD_TSV})
  # Only the first column is taken here: the messages hold brackets, which CMake lists mishandle.
  file(READ ${SKEIN_BAD_TSV} tsv)
  string(REGEX MATCHALL "(^|\n)[^\t\n#][^\t\n]*\t" SKEIN_BAD_FILES "${tsv}")
  foreach(f IN LISTS SKEIN_BAD_FILES)
    string(STRIP "${f}" f)
    get_filename_component(n ${f} NAME_WE)
    skein_cli_test(bad.${n} bad.sh ${f})
  endforeach()
endif()

# Bad command lines (the cases of usage.sh).
foreach(c unknown_option unknown_command missing_value value_is_option steps_not_number
    steps_fraction steps_negative steps_plus steps_huge threads_zero threads_many every_zero every_equals
    duration_bad duration_negative steps_and_duration isa_bad engine_bad ropes_backwards
    ropes_syntax ropes_out_of_range set_syntax quiet_value run_without_file extra_argument
    default_with_file info_with_option tolerance_on_run csv_on_compare tolerance_bad h5_on_compare h5_empty h5_bad_ropes
    h5_twice steps_twice quiet_twice)
  skein_cli_test(usage.${c} usage.sh ${c})
endforeach()

# The commands and options (the cases of commands.sh).
foreach(c help version quiet validate_roundtrip validate_set every duration ropes ropes_replace_list csv_unwritable
    csv_full csv_replaces interrupt compare_reference compare_batch stability bdf2 equilibrium)
  skein_cli_test(${c} commands.sh ${c})
endforeach()
skein_cli_test(info commands.sh info ${SKEIN_REAL})
# The full default batch takes seconds with the reference engine in a Release build; debug and
# sanitizer builds run it shortened.
if(SKEIN_SANITIZE OR CMAKE_BUILD_TYPE STREQUAL "Debug")
  skein_cli_test(default commands.sh default short)
else()
  skein_cli_test(default commands.sh default)
endif()

skein_test(csv SOURCES test_csv.c CASES round_trip time_column abort_keeps_target
  commit_replaces_target unwritable_path write_error)
skein_test(run SOURCES test_run.c CASES frame_schedule frames_and_counts no_steps chunked_same
  stop sink_failure)
skein_test(compare SOURCES test_compare.c CASES identical values signed_zero non_finite contacts_differ
  counts_differ)

# Output paths checked before the first step (tests/cli/outputs.sh).
foreach(c same_file on_scenario directory no_directory special incomplete_names no_orphan_journal)
  skein_cli_test(outputs.${c} outputs.sh ${c})
endforeach()
# Frames copied into arrays a program owns (the Python package's sink).
skein_test(frame_arrays SOURCES test_frame_arrays.c CASES frames_copied)
