"""Test helpers: a QR matrix as a PNG image (no imaging library) and its decoding by
zbar's ``zbarimg`` (Debian's ``zbar-tools``), an implementation independent of ours."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

ZBARIMG = shutil.which("zbarimg")


def need_zbarimg() -> str:
    """The path of ``zbarimg``; without it a skip, or a failure under CI (``.ci/run``
    installs zbar-tools)."""
    if ZBARIMG:
        return ZBARIMG
    message = "zbarimg is missing (apt-get install zbar-tools)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"QR decoding tests must run under CI: {message}")
    pytest.skip(message)


def write_png(matrix: list[list[bool]], path: Path, scale: int = 4, quiet: int = 4) -> Path:
    """``matrix`` (True: dark) as an 8-bit greyscale PNG, ``scale`` pixels per module,
    with a light quiet zone of ``quiet`` modules."""
    n = len(matrix)
    size = (n + 2 * quiet) * scale
    rows = []
    for y in range(size):
        r = y // scale - quiet
        line = bytearray([0])  # filter type: none
        for x in range(size):
            c = x // scale - quiet
            line.append(0 if 0 <= r < n and 0 <= c < n and matrix[r][c] else 255)
        rows.append(bytes(line))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", size, size, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                     + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))
    return path


def decode(matrix: list[list[bool]], folder: Path) -> str:
    """What zbarimg reads from ``matrix`` (QR codes only), or "" when it reads nothing."""
    path = write_png(matrix, folder / "code.png")
    result = subprocess.run([need_zbarimg(), "--raw", "-q", "-Sdisable", "-Sqrcode.enable",
                             str(path)], capture_output=True, text=True, timeout=60)
    return result.stdout.removesuffix("\n")


def read_half_blocks(lines: list[str], quiet: int = 4) -> list[list[bool]]:
    """The matrix drawn by ``advisor.cli.qr.half_blocks`` (its inverse)."""
    from advisor.cli.qr import _HALF

    glyph = {v: k for k, v in _HALF.items()}
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [glyph[ch] for ch in line]
        rows.append([not top for top, _ in pairs])
        rows.append([not bottom for _, bottom in pairs])
    size = len(rows[0])
    rows = rows[:size]  # an odd size leaves a half line of quiet zone
    return [row[quiet:size - quiet] for row in rows[quiet:size - quiet]]
