# Analytic physics tests of the scalar reference engine: each case checks the engine against a
# formula worked out by hand (closed forms of the discrete schemes, exact periods, equilibria) and
# prints its measured error.
skein_test(physics_free_fall SOURCES test_physics_free_fall.c CASES
  cyclone euler symplectic verlet damped_cyclone damped_euler damped_symplectic damped_verlet)
skein_test(physics_oscillator SOURCES test_physics_oscillator.c CASES
  symplectic verlet cyclone euler two_body_symplectic two_body_verlet)
skein_test(physics_pendulum SOURCES test_physics_pendulum.c CASES period_0_8 period_1_5)
