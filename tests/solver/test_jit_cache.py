"""Stale cached kernels are deleted when any source file of the package changes, in any
of its folders."""

from __future__ import annotations

import solver._jit_cache as jc


def test_changed_sources_delete_cached_kernels(tmp_path, monkeypatch) -> None:
    package = tmp_path / "pkg"
    cache = package / "__pycache__"
    kernel_cache = package / "kernels" / "__pycache__"
    cache.mkdir(parents=True)
    kernel_cache.mkdir(parents=True)
    (package / "game").mkdir()
    (package / "game" / "dice.py").write_text("A = 1\n")
    (package / "kernels" / "expected.py").write_text("B = 1\n")
    monkeypatch.setattr(jc, "_PACKAGE", package)
    monkeypatch.setattr(jc, "_CACHE", cache)
    monkeypatch.setattr(jc, "_STAMP", cache / "stamp")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)

    def run_check() -> None:
        monkeypatch.setattr(jc, "_checked", False)
        jc.check()

    def cached_kernels() -> list:
        top = cache / "warmup.main-1.py311.nbi"
        inner = kernel_cache / "expected.solve-1.py311.nbc"
        top.write_text("machine code")
        inner.write_text("machine code")
        return [top, inner]

    run_check()  # first run: stamp written
    kernels = cached_kernels()
    run_check()  # unchanged sources: the cache stays
    assert all(k.exists() for k in kernels)
    (package / "game" / "dice.py").write_text("A = 2\n")  # a module kernels read from
    run_check()
    assert not any(k.exists() for k in kernels)
    assert (cache / "stamp").read_text() == jc._source_digest()
    kernels = cached_kernels()
    (package / "kernels" / "new.py").write_text("C = 1\n")  # a new file counts too
    run_check()
    assert not any(k.exists() for k in kernels)
