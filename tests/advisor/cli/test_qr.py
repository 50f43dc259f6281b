"""The QR encoder of ``yahtzee serve`` (advisor/cli/qr.py): the standard's published
constants, the Reed-Solomon code's defining property, and every version, level and mask
decoded back by zbar (an independent decoder)."""

from __future__ import annotations

import random
import string

import pytest

from advisor.cli import qr
from tests.qr_decode import decode, read_half_blocks

# ISO/IEC 18004 Table 7: bytes of 8-bit data per version (1-10) and level L, M, Q, H.
BYTE_CAPACITY = ((17, 14, 11, 7), (32, 26, 20, 14), (53, 42, 32, 24), (78, 62, 46, 34),
                 (106, 84, 60, 44), (134, 106, 74, 58), (154, 122, 86, 64),
                 (192, 152, 108, 84), (230, 180, 130, 98), (271, 213, 151, 119))


def test_capacities_are_the_standards():
    for version, row in enumerate(BYTE_CAPACITY, start=1):
        assert tuple(qr.capacity(version, level) for level in qr.LEVELS) == row


def test_format_and_version_words_are_the_standards():
    # mask 0 of each level (Annex C), versions 7 and 10 (Annex D)
    assert [qr.format_bits(level, 0) for level in "LMQH"] == [0x77C4, 0x5412, 0x355F, 0x1689]
    assert qr.format_bits("M", 5) == 0b100000011001110
    assert qr.version_bits(7) == 0x07C94 and qr.version_bits(10) == 0x0A4D3


def poly_at(coefficients, x):
    """A polynomial over GF(256), highest power first, at ``x`` (Horner)."""
    value = 0
    for c in coefficients:
        value = qr.gf_multiply(value, x) ^ c
    return value


@pytest.mark.parametrize("degree", [7, 10, 16, 26, 30])
def test_a_block_with_its_error_correction_vanishes_at_the_generators_roots(degree):
    rng = random.Random(degree)
    data = [rng.randrange(256) for _ in range(rng.randint(9, 120))]
    word = data + qr.rs_remainder(data, degree)
    alpha = 2
    root = 1
    for _ in range(degree):
        assert poly_at(word, root) == 0
        root = qr.gf_multiply(root, alpha)
    word[len(word) // 2] ^= 0x5A  # one codeword wrong: some root sees it
    roots = [qr.gf_multiply(1, 1)]
    for _ in range(degree - 1):
        roots.append(qr.gf_multiply(roots[-1], alpha))
    assert any(poly_at(word, r) for r in roots)


def test_smallest_version_and_too_long():
    assert qr.smallest_version("http://192.168.1.23:8000/") == 2
    assert len(qr.encode("http://192.168.1.23:8000/")) == 25
    with pytest.raises(qr.QrTooLongError, match="version 10 at level M .at most 213"):
        qr.encode("x" * 214)
    with pytest.raises(ValueError, match="level 'X'"):
        qr.encode("x", level="X")


def test_half_blocks_draw_the_matrix_with_its_quiet_zone():
    for text in ("a", "http://[fd00::2]:8000/", "x" * 150):
        matrix = qr.encode(text)
        lines = qr.half_blocks(matrix)
        size = len(matrix) + 8
        assert len(lines) == (size + 1) // 2 and {len(line) for line in lines} == {size}
        assert lines[0] == lines[1] == "\u2588" * size  # the quiet zone: light
        assert read_half_blocks(lines) == matrix


def test_every_version_level_and_mask_decodes_back(tmp_path):
    rng = random.Random(18004)
    alphabet = string.ascii_letters + string.digits + ":/.[]-_?=&%"
    for version in range(1, qr.MAX_VERSION + 1):
        for level in qr.LEVELS:
            room = qr.capacity(version, level)
            for mask in (rng.randrange(8), rng.randrange(8)):
                text = "".join(rng.choice(alphabet) for _ in range(rng.randint(room - 4, room)))
                matrix = qr.encode(text, level, version, mask)
                assert len(matrix) == 17 + 4 * version
                assert decode(matrix, tmp_path) == text, (version, level, mask)


def test_addresses_decode_with_the_mask_chosen(tmp_path):
    for text in ("http://192.168.1.23:8000/", "http://10.0.0.5:8766/",
                 "http://[2001:db8:1234:5678:9abc:def0:1234:5678]:8000/"):
        assert decode(qr.encode(text), tmp_path) == text
