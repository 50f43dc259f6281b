"""Helpers of the benchmark scripts: cold-cache JIT timing and the machine's load."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile


def cold_compile_seconds(script: str) -> float:
    """Run ``script`` in a fresh process with an empty numba cache; it prints the seconds
    it measured as its last word."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        out = subprocess.run([sys.executable, "-c", script], env=env, check=True,
                             capture_output=True, text=True)
    return float(out.stdout.split()[-1])


def load_average() -> str:
    """The 1, 5 and 15 minute load averages (2 cores: above ~1 means shared cores)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())
