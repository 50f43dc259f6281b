"""Whole numbers as a user types them: ASCII digits only, and not too many of them.

Python's ``int`` reads ``３００``, ``٣٠٠``, ``3_00`` and ``+300`` as 300 and fails with a
``ValueError`` of its own on 4,300 digits; dice and cards take ASCII digits only. Every
number typed (a target, ``target:X``, a count or a seed, on the command line or in a web
query) is read here, so that all of them accept the same text.
"""

from __future__ import annotations

import re
from numbers import Integral

from .errors import LimitError, shown

MAX_DIGITS = 30
"""Most digits of a number typed (far beyond any score, count or seed)."""
_WHOLE = re.compile(r"[ \t]*(-?[0-9]{1," + str(MAX_DIGITS) + r"})[ \t]*")


def whole_number(text: str, *, signed: bool = False) -> int | None:
    """The whole number written in ``text`` (ASCII digits, spaces or tabs around, a
    leading ``-`` when ``signed``), or None for any other text."""
    found = _WHOLE.fullmatch(text)
    if found is None or (not signed and found.group(1).startswith("-")):
        return None
    return int(found.group(1))



def check_count(value: object, most: int, what: str) -> int:
    """``value`` as an int when it is an integer (not a bool; numpy's too) 1 to ``most``;
    else a :class:`~solver.errors.LimitError` naming ``what`` ("the number of games")."""
    if isinstance(value, bool) or not isinstance(value, Integral) \
            or not 1 <= int(value) <= most:
        raise LimitError(f"{what} must be an integer 1 to {most:,}, not {shown(value, 40)}")
    return int(value)
