"""Ctrl-C while the library runs: a SIGINT handler installed for the call sets sk_run's stop flag, and the
progress callback (every tenth of a second or so) brings the interpreter back, so the handler runs while C
is still busy. The library then finishes the chunk under way and returns SK_ERR_INTERRUPTED."""
import signal
import sys
import threading

from ._native import ffi


class StopOnInterrupt:
    def __init__(self, progress=None):
        self.flag = ffi.new("sig_atomic_t *")
        self._previous = None
        self._report = progress

        def on_progress(ctx, step, steps, particle_steps, elapsed):
            if self._report:
                self._report(step, steps, particle_steps, elapsed)

        # The callback is what lets the handler run: the interpreter handles signals when it runs Python code.
        self.callback = ffi.callback("void(void *, long, long, uint64_t, double)", on_progress,
                                     onerror=self._swallow)

    def _swallow(self, exc, value, tb):
        # An exception inside the callback cannot cross C: a KeyboardInterrupt there (another handler) stops the
        # run like ours; anything else is dropped with the progress line it was printing.
        if exc is not None and issubclass(exc, KeyboardInterrupt):
            self.flag[0] = 1

    def _handler(self, signum, frame):
        self.flag[0] = 1

    @property
    def stopped(self):
        return bool(self.flag[0])

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            previous = signal.getsignal(signal.SIGINT)
            if previous is not None:  # None: a handler Python did not install, which it could not put back
                signal.signal(signal.SIGINT, self._handler)
                self._previous = previous
        return self

    def __exit__(self, *exc):
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None
        return False


def progress_bar(stream=None):
    """A one-line progress report on stderr, as the command line's."""
    stream = stream or sys.stderr

    def report(step, steps, particle_steps, elapsed):
        rate = particle_steps / elapsed / 1e6 if elapsed > 0 else 0.0
        stream.write("\rskein: step %d/%d (%3.0f%%), %.1f M particle-steps/s" %
                     (step, steps, 100.0 * step / steps if steps else 100.0, rate))
        if step >= steps:
            stream.write("\n")
        stream.flush()

    return report
