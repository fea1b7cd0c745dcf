# Checkpoints and resume: through the library (test_checkpoint: resume equals an uninterrupted run for both
# engines, every ISA, integrator, deployment, divergence and contacts; refused checkpoints and journals,
# damaged or crafted (their checksums right); a checkpoint that cannot be written; a link planted at the
# journal's path; one checkpoint streamed in chunks, resumed slice by slice, as a run across processes does) and through the command line (checkpoint.sh: outputs byte for byte
# after a kill, a Ctrl-C, a full disk; refusals with exit 2).
skein_test(checkpoint SOURCES test_checkpoint.c test_batch_common.c CASES bdf2_state resume_bdf2 resume_springs resume_deploy resume_reel_in
  resume_contacts resume_divergence resume_twice checkpoint_schedule refuse_other_scenario refuse_other_engine
  refuse_other_real refuse_damaged refuse_damaged_journal write_fails crafted_journal_frames crafted_marks
  crafted_totals crafted_attributes crafted_journal journal_symlink output_temps vtk_results_attributes
  resume_extremes refuse_untracked slices_streamed crafted_extents)
# The command line: kill, Ctrl-C, divergence, the reference engine, refusals, full disks (a tmpfs in a mount
# namespace of the test's own where allowed, else a file size limit). Sanitizer and debug builds run shorter.
find_program(SKEIN_BASH bash REQUIRED)
set(SKEIN_CHECKPOINT_LENGTH "")
if(SKEIN_SANITIZE OR CMAKE_BUILD_TYPE STREQUAL "Debug")
  set(SKEIN_CHECKPOINT_LENGTH short)
endif()
foreach(c kill_resume kill_resume_reference kill_resume_verlet kill_twice others_temps interrupt_resume shared_checkpoint resume_elsewhere resume_absolute resume_alone diverge_resume refused
    vtk_results vtk_results_reference vtk_results_diverge refused_vtk_results full_csv full_h5 full_checkpoint)
  add_test(NAME checkpoint.cli_${c}
    COMMAND ${SKEIN_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/checkpoint/checkpoint.sh $<TARGET_FILE:skein>
      ${PROJECT_SOURCE_DIR} ${c} $<TARGET_FILE:h5_probe> ${SKEIN_CHECKPOINT_LENGTH})
endforeach()
