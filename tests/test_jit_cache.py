"""Stale cached kernels are deleted when any source file of the package changes."""

from __future__ import annotations

import solver._jit_cache as jc


def test_changed_sources_delete_cached_kernels(tmp_path, monkeypatch) -> None:
    package = tmp_path / "pkg"
    cache = package / "__pycache__"
    cache.mkdir(parents=True)
    (package / "dice.py").write_text("A = 1\n")
    monkeypatch.setattr(jc, "_PACKAGE", package)
    monkeypatch.setattr(jc, "_CACHE", cache)
    monkeypatch.setattr(jc, "_STAMP", cache / "stamp")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)

    def run_check() -> None:
        monkeypatch.setattr(jc, "_checked", False)
        jc.check()

    run_check()  # first run: stamp written
    kernel = cache / "_kernels.solve-1.py311.nbi"
    kernel.write_text("machine code")
    run_check()  # unchanged sources: the cache stays
    assert kernel.exists()
    (package / "dice.py").write_text("A = 2\n")  # a module kernels read constants from
    run_check()
    assert not kernel.exists()
    assert (cache / "stamp").read_text() == jc._source_digest()
