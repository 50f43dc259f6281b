"""A small QR code encoder (ISO/IEC 18004, byte mode, versions 1 to 10) and its drawing in
a terminal with Unicode half blocks, for ``yahtzee serve`` to show its address to a phone.

The steps, in the standard's order: the text's bytes become a bit stream (mode 0100, a
character count, the bytes, a terminator, pad codewords 0xEC 0x11); the data codewords are
cut into blocks, each gets its Reed-Solomon error correction codewords (GF(256) modulo
x^8 + x^4 + x^3 + x^2 + 1, generator with roots alpha^0 .. alpha^(n-1)); the blocks are
interleaved and placed in the zig-zag around the function patterns (finders, timing,
alignment, dark module, format and version information); of the eight masks the one with
the lowest penalty score is kept.
"""

from __future__ import annotations

from collections.abc import Sequence

Matrix = list[list[bool]]
"""``matrix[row][column]``, True for a dark module."""

LEVELS = ("L", "M", "Q", "H")
_FORMAT_BITS = {"L": 1, "M": 0, "Q": 3, "H": 2}

# Per version (1-based) and level: (EC codewords per block, ((blocks, data codewords), ...)).
_BLOCKS: dict[str, tuple[tuple[int, tuple[tuple[int, int], ...]], ...]] = {
    "L": ((7, ((1, 19),)), (10, ((1, 34),)), (15, ((1, 55),)), (20, ((1, 80),)),
          (26, ((1, 108),)), (18, ((2, 68),)), (20, ((2, 78),)), (24, ((2, 97),)),
          (30, ((2, 116),)), (18, ((2, 68), (2, 69)))),
    "M": ((10, ((1, 16),)), (16, ((1, 28),)), (26, ((1, 44),)), (18, ((2, 32),)),
          (24, ((2, 43),)), (16, ((4, 27),)), (18, ((4, 31),)), (22, ((2, 38), (2, 39))),
          (22, ((3, 36), (2, 37))), (26, ((4, 43), (1, 44)))),
    "Q": ((13, ((1, 13),)), (22, ((1, 22),)), (18, ((2, 17),)), (26, ((2, 24),)),
          (18, ((2, 15), (2, 16))), (24, ((4, 19),)), (18, ((2, 14), (4, 15))),
          (22, ((4, 18), (2, 19))), (20, ((4, 16), (4, 17))), (24, ((6, 19), (2, 20)))),
    "H": ((17, ((1, 9),)), (28, ((1, 16),)), (22, ((2, 13),)), (16, ((4, 9),)),
          (22, ((2, 11), (2, 12))), (28, ((4, 15),)), (26, ((4, 13), (1, 14))),
          (26, ((4, 14), (2, 15))), (24, ((4, 12), (4, 13))), (28, ((6, 15), (2, 16)))),
}
_ALIGNMENT = ((), (6, 18), (6, 22), (6, 26), (6, 30), (6, 34), (6, 22, 38), (6, 24, 42),
              (6, 26, 46), (6, 28, 50))
MAX_VERSION = len(_ALIGNMENT)


class QrTooLongError(ValueError):
    """The text does not fit a version-10 code at the level asked for."""


# ---------------------------------------------------------------- Reed-Solomon, GF(256)
_EXP = [0] * 512
_LOG = [0] * 256
_x = 1
for _i in range(255):
    _EXP[_i] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D
for _i in range(255, 512):
    _EXP[_i] = _EXP[_i - 255]


def gf_multiply(a: int, b: int) -> int:
    """Product of two elements of GF(256) (bytes)."""
    return 0 if a == 0 or b == 0 else _EXP[_LOG[a] + _LOG[b]]


def rs_generator(degree: int) -> list[int]:
    """Coefficients, highest power first (leading 1), of prod_{i<degree} (x - alpha^i)."""
    poly = [1]
    for i in range(degree):
        root = _EXP[i]
        poly = [a ^ gf_multiply(b, root) for a, b in zip([*poly, 0], [0, *poly], strict=True)]
    return poly


def rs_remainder(data: Sequence[int], degree: int) -> list[int]:
    """The ``degree`` error correction codewords of ``data``: data(x) x^degree mod g(x)."""
    generator = rs_generator(degree)
    rest = [*data, *([0] * degree)]
    for i in range(len(data)):
        factor = rest[i]
        if factor:
            for j, g in enumerate(generator):
                rest[i + j] ^= gf_multiply(g, factor)
    return rest[len(data):]


# ---------------------------------------------------------------- codewords
def capacity(version: int, level: str) -> int:
    """Bytes of text a code of ``version`` and ``level`` holds in byte mode."""
    _, groups = _BLOCKS[level][version - 1]
    data_bits = 8 * sum(n * size for n, size in groups)
    return (data_bits - 4 - _count_bits(version)) // 8


def _count_bits(version: int) -> int:
    return 8 if version < 10 else 16


def smallest_version(text: str, level: str = "M") -> int:
    """The smallest version that holds ``text`` (UTF-8) at ``level``; QrTooLongError if none."""
    size = len(text.encode("utf-8"))
    for version in range(1, MAX_VERSION + 1):
        if size <= capacity(version, level):
            return version
    raise QrTooLongError(f"{size} bytes do not fit a QR code of version {MAX_VERSION} at "
                         f"level {level} (at most {capacity(MAX_VERSION, level)})")


def codewords(text: str, version: int, level: str) -> list[int]:
    """The data and error correction codewords of ``text``, interleaved as placed."""
    data = text.encode("utf-8")
    if len(data) > capacity(version, level):
        raise QrTooLongError(f"{len(data)} bytes do not fit version {version} level {level}")
    ec_size, groups = _BLOCKS[level][version - 1]
    total = sum(n * size for n, size in groups)
    bits = [0, 1, 0, 0]
    bits += _bits(len(data), _count_bits(version))
    for byte in data:
        bits += _bits(byte, 8)
    bits += [0] * min(4, 8 * total - len(bits))
    bits += [0] * (-len(bits) % 8)
    stream = [int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8)]
    pad = (0xEC, 0x11)
    stream += [pad[i % 2] for i in range(total - len(stream))]
    blocks = []
    start = 0
    for n, size in groups:
        for _ in range(n):
            blocks.append(stream[start:start + size])
            start += size
    ecs = [rs_remainder(block, ec_size) for block in blocks]
    out = []
    for i in range(max(len(b) for b in blocks)):
        out += [b[i] for b in blocks if i < len(b)]
    for i in range(ec_size):
        out += [e[i] for e in ecs]
    return out


def _bits(value: int, width: int) -> list[int]:
    return [(value >> i) & 1 for i in reversed(range(width))]


# ---------------------------------------------------------------- the matrix
def format_bits(level: str, mask: int) -> int:
    """The 15 format bits: level and mask, BCH(15,5) with generator 0x537, XOR 0x5412."""
    data = _FORMAT_BITS[level] << 3 | mask
    rest = data
    for _ in range(10):
        rest = (rest << 1) ^ ((rest >> 9) * 0x537)
    return (data << 10 | rest) ^ 0x5412


def version_bits(version: int) -> int:
    """The 18 version bits (versions 7 and up): BCH(18,6) with generator 0x1F25."""
    rest = version
    for _ in range(12):
        rest = (rest << 1) ^ ((rest >> 11) * 0x1F25)
    return version << 12 | rest


_MASKS = (
    lambda r, c: (r + c) % 2 == 0,
    lambda r, c: r % 2 == 0,
    lambda r, c: c % 3 == 0,
    lambda r, c: (r + c) % 3 == 0,
    lambda r, c: (r // 2 + c // 3) % 2 == 0,
    lambda r, c: r * c % 2 + r * c % 3 == 0,
    lambda r, c: (r * c % 2 + r * c % 3) % 2 == 0,
    lambda r, c: ((r + c) % 2 + r * c % 3) % 2 == 0,
)


def _format_cells(size: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(row, column) of format bit i, in its first and its second copy, for i = 0 .. 14."""
    first = [(i, 8) for i in range(6)] + [(7, 8), (8, 8), (8, 7)] + [(8, 14 - i)
                                                                   for i in range(9, 15)]
    second = [(8, size - 1 - i) for i in range(8)] + [(size - 15 + i, 8) for i in range(8, 15)]
    return list(zip(first, second, strict=True))


class _Grid:
    """The symbol being built: ``dark`` modules and which are ``fixed`` (function patterns)."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.size = 17 + 4 * version
        self.dark = [[False] * self.size for _ in range(self.size)]
        self.fixed = [[False] * self.size for _ in range(self.size)]

    def put(self, row: int, col: int, dark: bool) -> None:
        self.dark[row][col] = dark
        self.fixed[row][col] = True

    def function_patterns(self) -> None:
        n = self.size
        for i in range(n):
            self.put(6, i, i % 2 == 0)
            self.put(i, 6, i % 2 == 0)
        for row, col in ((3, 3), (3, n - 4), (n - 4, 3)):  # finders and their separators
            for dr in range(-4, 5):
                for dc in range(-4, 5):
                    r, c = row + dr, col + dc
                    if 0 <= r < n and 0 <= c < n:
                        self.put(r, c, max(abs(dr), abs(dc)) not in (2, 4))
        centers = _ALIGNMENT[self.version - 1]
        last = len(centers) - 1
        for i, row in enumerate(centers):
            for j, col in enumerate(centers):
                if (i, j) in ((0, 0), (0, last), (last, 0)):
                    continue  # where a finder is
                for dr in range(-2, 3):
                    for dc in range(-2, 3):
                        self.put(row + dr, col + dc, max(abs(dr), abs(dc)) != 1)
        for first, second in _format_cells(n):  # reserved; written once the mask is known
            self.put(*first, False)
            self.put(*second, False)
        self.put(n - 8, 8, True)  # the dark module
        if self.version >= 7:
            bits = version_bits(self.version)
            for i in range(18):
                dark = bool((bits >> i) & 1)
                a, b = n - 11 + i % 3, i // 3
                self.put(b, a, dark)
                self.put(a, b, dark)

    def place(self, words: Sequence[int]) -> None:
        """The codewords' bits in the zig-zag of two-module columns, right to left;
        the remainder bits after them are light."""
        n = self.size
        total = 8 * len(words)
        i = 0
        right = n - 1
        while right >= 1:
            if right == 6:
                right = 5  # the vertical timing pattern
            upward = (right + 1) & 2 == 0
            for vert in range(n):
                row = n - 1 - vert if upward else vert
                for col in (right, right - 1):
                    if self.fixed[row][col]:
                        continue
                    self.dark[row][col] = i < total and bool((words[i >> 3] >> (7 - (i & 7))) & 1)
                    i += 1
            right -= 2

    def masked(self, mask: int, level: str) -> Matrix:
        """A copy with ``mask`` applied to the data modules and the format bits written."""
        rule = _MASKS[mask]
        out = [[dark != (not fixed and rule(r, c))
                for c, (dark, fixed) in enumerate(zip(darks, fixeds, strict=True))]
               for r, (darks, fixeds) in enumerate(zip(self.dark, self.fixed, strict=True))]
        bits = format_bits(level, mask)
        for i, cells in enumerate(_format_cells(self.size)):
            for r, c in cells:
                out[r][c] = bool((bits >> i) & 1)
        return out


def penalty(matrix: Matrix) -> int:
    """The standard's penalty score of a masked symbol (rules N1 to N4: runs, 2x2 blocks,
    finder-like patterns, balance of dark and light)."""
    n = len(matrix)
    lines = [*matrix, *([matrix[r][c] for r in range(n)] for c in range(n))]
    score = 0
    finder = ((True, False, True, True, True, False, True, False, False, False, False),
              (False, False, False, False, True, False, True, True, True, False, True))
    for line in lines:
        run = 1
        for a, b in zip(line, line[1:], strict=False):
            run = run + 1 if a == b else 1
            if run == 5:
                score += 3
            elif run > 5:
                score += 1
        for i in range(n - 10):
            if tuple(line[i:i + 11]) in finder:
                score += 40
    for r in range(n - 1):
        for c in range(n - 1):
            if matrix[r][c] == matrix[r][c + 1] == matrix[r + 1][c] == matrix[r + 1][c + 1]:
                score += 3
    dark = sum(map(sum, matrix))
    score += 10 * (abs(20 * dark - 10 * n * n) // (n * n))
    return score


def encode(text: str, level: str = "M", version: int | None = None,
           mask: int | None = None) -> Matrix:
    """The QR code of ``text`` (UTF-8, byte mode): a square matrix of 21 to 57 modules,
    without the quiet zone. ``version`` defaults to the smallest that holds the text and
    ``mask`` to the one of lowest penalty. Raises QrTooLongError (a ValueError)."""
    if level not in LEVELS:
        raise ValueError(f"level {level!r}: one of {', '.join(LEVELS)}")
    version = version or smallest_version(text, level)
    if not 1 <= version <= MAX_VERSION:
        raise ValueError(f"version {version}: 1 to {MAX_VERSION}")
    grid = _Grid(version)
    grid.function_patterns()
    grid.place(codewords(text, version, level))
    masks = range(8) if mask is None else (mask,)
    return min((grid.masked(m, level) for m in masks), key=penalty)


# ---------------------------------------------------------------- drawing
_HALF = {(False, False): " ", (True, False): "\u2580", (False, True): "\u2584",
         (True, True): "\u2588"}
"""Glyph of (top light, bottom light): light modules are drawn, dark ones left empty."""
LIGHT_ON_DARK = ("\x1b[97;40m", "\x1b[0m")
"""ANSI colours around each line: bright white glyphs on black, whatever the terminal's
colours (click drops them when the output is not a terminal)."""


def half_blocks(matrix: Matrix, quiet: int = 4) -> list[str]:
    """The code as text lines, two module rows per line, with ``quiet`` light modules
    around it. Light modules are the glyphs' foreground, so on a terminal with light text
    on a dark background (or with :data:`LIGHT_ON_DARK`) the code shows dark on light."""
    n = len(matrix)
    size = n + 2 * quiet

    def light(r: int, c: int) -> bool:
        r, c = r - quiet, c - quiet
        return not (0 <= r < n and 0 <= c < n and matrix[r][c])

    return ["".join(_HALF[light(r, c), light(r + 1, c)] for c in range(size))
            for r in range(0, size, 2)]
