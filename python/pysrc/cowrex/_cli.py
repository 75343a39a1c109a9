"""The ``cowrex`` command (the package's console script, and ``python -m cowrex``).

It runs the command line's Rust code, built into this package's extension, on ``sys.argv``, so
a wheel holds one copy of it and ``cowrex`` behaves as the binary of ``cargo install`` does:
the same output, progress display and exit codes (docs/formats.md, "Exit codes").
"""

import signal
import sys

from ._cowrex import run_cli


def main() -> int:
    """Run ``cowrex`` on ``sys.argv`` and return its exit code."""
    # Python's own SIGINT handler would raise KeyboardInterrupt once the command returns, and
    # the command line's handler (signal-hook) calls it after its own. The binary starts with
    # the action it inherits, the default unless a shell ignores SIGINT for a background job
    # (then Python installs no handler of its own): `process` takes SIGINT over (a clean stop
    # on the first Ctrl-C, at once on the second), every other command is ended by it. SIGTERM
    # and SIGUSR1 are left as they came, as Python leaves them; SIGPIPE is ignored by both.
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    # `cowrex` is how the binary names itself in its messages, however this was started.
    return run_cli(["cowrex", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
