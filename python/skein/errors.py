"""The package's exceptions. Their messages are the library's: what the command line prints after 'skein: '."""


class Error(Exception):
    """A failure of the library: an unreadable file, an engine that cannot run here. `status` is the
    library's status name ("io", "unsupported", "invalid", ...)."""

    def __init__(self, message, status="invalid"):
        super().__init__(message)
        self.status = status


class ScenarioError(Error, ValueError):
    """Bad input: a scenario, a key path, a value, a file that is not a skein output."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during skein.run or Simulation.step. A KeyboardInterrupt, so a script stops as usual; for
    skein.run, `result` holds the frames written so far (the last one at the step the run stopped at)."""

    def __init__(self, message, result=None):
        super().__init__(message)
        self.result = result
