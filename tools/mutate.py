"""``make mutate``: apply each deliberate bug of ``tools/mutations.py`` to a scratch copy of
the repository, run the tests named for it, and report which test catches it.

    python tools/mutate.py [--jobs 2] [--only NAME,...] [--check] [--no-baseline]

The working tree is never touched: one base copy (sources only) is made in a temporary
folder, the named tests are run there once unmutated (they must pass; this also fills
the copy's numba cache), then every mutation runs in its own copy of that base, with
its own ``__pycache__`` folders (``solver/_jit_cache.py`` drops the cached kernels as
soon as a solver source differs, so a kernel mutation is compiled, never loaded stale).
Prints one line per mutation, the wall time, and last the line ``caught N of M``.
Exit status 0 only when every mutation is caught and every anchor found.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutations import MUTATIONS, Mutation  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SKIP = shutil.ignore_patterns(".git", ".venv", "tables", "__pycache__", "*.ytable",
                              ".pytest_cache", ".mypy_cache", ".ruff_cache", "*.egg-info",
                              "node_modules", "build", "dist")
TIMEOUT = 1800  # seconds per mutation run
FAILED = re.compile(r"^(FAILED|ERROR) (\S+)", re.M)


def anchor_errors(mutations: tuple[Mutation, ...], root: Path = REPO) -> dict[str, str]:
    """Mutation name -> why it cannot be applied (anchor missing or repeated)."""
    errors = {}
    for m in mutations:
        path = root / m.path
        if not path.exists():
            errors[m.name] = f"{m.path} does not exist"
            continue
        count = path.read_text(encoding="utf-8").count(m.anchor)
        if count != 1:
            where = "not found" if count == 0 else f"found {count} times"
            errors[m.name] = f"anchor {where} in {m.path}: {m.anchor.strip()[:60]!r}"
    return errors


def apply(m: Mutation, root: Path) -> None:
    path = root / m.path
    source = path.read_text(encoding="utf-8")
    assert source.count(m.anchor) == 1, m.name
    path.write_text(source.replace(m.anchor, m.replacement), encoding="utf-8")


def pytest(root: Path, tests: tuple[str, ...], threads: int) -> tuple[int, str, float]:
    """(exit code, output, seconds) of the tests run in copy ``root``."""
    env = dict(os.environ, PYTHONPATH=str(root), NUMBA_NUM_THREADS=str(threads),
               PYTHONDONTWRITEBYTECODE="1")
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("YAHTZEE_TABLES", None)
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-rfE",
                               "-p", "no:cacheprovider", *tests], cwd=root, env=env,
                              capture_output=True, text=True, timeout=TIMEOUT)
        code, out = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as exc:
        code, out = -1, f"timeout after {TIMEOUT} s\n{exc.stdout or ''}"
    return code, out, time.perf_counter() - start


def catcher(code: int, out: str) -> str | None:
    """The test that failed (None when everything passed)."""
    if code == 0:
        return None
    if code == -1:
        return "timeout"
    found = FAILED.search(out)
    if found:
        return found.group(2)
    if "error" in out.lower():
        return "collection/import error"
    return f"pytest exit {code}"


def check_copy_imports_itself(root: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(root))
    where = subprocess.run([sys.executable, "-c", "import solver, advisor; "
                            "print(solver.__file__); print(advisor.__file__)"],
                           cwd=root, env=env, capture_output=True, text=True, check=True)
    for line in where.stdout.split():
        if not Path(line).resolve().is_relative_to(root.resolve()):
            sys.exit(f"the scratch copy imports {line}, not its own code: aborting")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="parallel runs (at most 2)")
    parser.add_argument("--only", default="", help="comma-separated mutation names")
    parser.add_argument("--check", action="store_true", help="only check the anchors")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the unmutated run of the tests")
    args = parser.parse_args(argv)
    jobs = max(1, min(2, args.jobs))
    chosen = MUTATIONS
    if args.only:
        names = {n.strip() for n in args.only.split(",") if n.strip()}
        unknown = names - {m.name for m in MUTATIONS}
        if unknown:
            parser.error(f"unknown mutations: {', '.join(sorted(unknown))}")
        chosen = tuple(m for m in MUTATIONS if m.name in names)
    errors = anchor_errors(chosen)
    for name, why in errors.items():
        print(f"ERROR {name}: {why}", flush=True)
    if args.check:
        print(f"{len(chosen) - len(errors)} of {len(chosen)} anchors found")
        return 1 if errors else 0

    start = time.perf_counter()
    threads = max(1, (os.cpu_count() or 2) // jobs)
    scratch = Path(tempfile.mkdtemp(prefix="yahtzee-mutate-"))
    try:
        base = scratch / "base"
        shutil.copytree(REPO, base, ignore=SKIP)
        check_copy_imports_itself(base)
        if not args.no_baseline:
            union = tuple(dict.fromkeys(t for m in chosen for t in m.tests))
            code, out, seconds = pytest(base, union, os.cpu_count() or 2)
            print(f"baseline: {len(union)} test targets unmutated, {seconds:.0f} s", flush=True)
            if code != 0:
                print(out[-3000:])
                print("the tests fail without any mutation: fix them first")
                return 2

        def run_one(m: Mutation) -> tuple[Mutation, str | None, float]:
            copy = scratch / m.name
            shutil.copytree(base, copy)
            try:
                apply(m, copy)
                code, out, seconds = pytest(copy, m.tests, threads)
            finally:
                shutil.rmtree(copy, ignore_errors=True)
            who = catcher(code, out)
            verdict = f"caught by {who}" if who else "SURVIVED"
            print(f"{m.name:32} {m.layer:6} {seconds:6.0f} s  {verdict}", flush=True)
            return m, who, seconds

        runnable = [m for m in chosen if m.name not in errors]
        print(f"{'mutation':32} {'layer':6} {'time':>8}  result", flush=True)
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(run_one, runnable))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    caught = sum(1 for _, who, _ in results if who)
    print()
    print(f"{'mutation':32} {'layer':6}  what it breaks -> caught by")
    for m, who, _ in results:
        print(f"{m.name:32} {m.layer:6}  {m.what} -> {who or 'SURVIVED'}")
    for name in errors:
        print(f"{name:32} ERROR   anchor missing: update tools/mutations.py")
    print(f"wall time {time.perf_counter() - start:.0f} s with {jobs} parallel runs")
    print(f"caught {caught} of {len(chosen)}")
    return 0 if caught == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main())
