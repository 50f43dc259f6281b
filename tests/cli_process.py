"""The CLI in a new process, with that process's own peak memory (for the tests of closed
and endless standard streams and of memory bounds)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile

CLI = "from advisor.cli import main; main()"
YAHTZEE = [sys.executable, "-c", CLI]
"""The command line of ``yahtzee`` in a new process, from this checkout."""
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The checkout: on a script's path, ``tests`` is importable and ``solver`` and ``advisor``
are the checkout's (never the folders of their tests, tests/solver and tests/advisor)."""


def python_script(script: str, *args: str) -> list[str]:
    """The command line of a new Python process running ``script`` with ``args`` in
    ``sys.argv[1:]``, with the checkout on its path (``from tests.cli_process import ...``)."""
    return [sys.executable, "-c", f"import sys; sys.path.insert(0, {ROOT!r})\n{script}",
            *args]

# A small Python process forks and runs the CLI, waits for it and writes the peak that
# wait4 reports for it (the CLI and everything it started) to the file named first.
# The peak is measured from a small parent on purpose: Linux counts in a child's peak the
# resident size of the process it was forked from (a fork's copy, or the parent's whole
# peak when the child is started by vfork), and a pytest worker that holds tables is
# larger than most commands it starts.
_LAUNCHER = (
    "import os, sys\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    os.execv(sys.executable, [sys.executable, '-c', sys.argv[2], *sys.argv[3:]])\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "with open(sys.argv[1], 'w') as peak:\n"
    "    peak.write(str(usage.ru_maxrss))\n"
    "sys.exit(os.waitstatus_to_exitcode(status))\n")


def run_measured(args: list[str], timeout: float = 300,
                 **popen: object) -> tuple[subprocess.CompletedProcess, float]:
    """Run ``yahtzee args`` in a new process; return its result and its peak memory in MB
    (its own and its descendants', not that of the process running the test)."""
    with tempfile.TemporaryDirectory() as folder:
        peak_file = os.path.join(folder, "peak")
        # a session of its own, so that a timeout stops the CLI too, not the launcher only
        with subprocess.Popen([sys.executable, "-c", _LAUNCHER, peak_file, CLI, *args],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              start_new_session=True, **popen) as proc:
            try:
                out, err = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                raise
        done = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
        with open(peak_file) as peak:
            return done, int(peak.read()) / 1024


def close_stdin() -> None:
    """``preexec_fn``: the child starts with file descriptor 0 closed."""
    os.close(0)


def own_peak_mb() -> float:
    """This process's peak resident memory in MB since it started its program: VmHWM,
    which (unlike ``getrusage``) does not count the process it was forked from."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")
