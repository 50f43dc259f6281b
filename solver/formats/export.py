"""Export a solved table in the layout of docs/export.md (npy or csv), atomically.

A file format, below the table driver: it reads a table's ``rules`` and ``values``
(:class:`Solved`, which :class:`solver.table.Table` is) and imports nothing above it."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import IO, Protocol

import numpy as np

from ..errors import TableError
from ..game.rules import RuleSet
from .files import atomic_write, check_target

FORMATS = ("npy", "csv")
_SIGNATURES = {"npy": b"\x93NUMPY", "csv": b"open_boxes,upper_subtotal,"}
"""How an earlier export of each format begins: such a file is replaced without force."""


class Solved(Protocol):
    """What an export reads of a solved table (a :class:`solver.table.Table`)."""

    @property
    def rules(self) -> RuleSet: ...

    @property
    def values(self) -> np.ndarray: ...


def interface_array(table: Solved) -> np.ndarray:
    """The table as docs/export.md lays it out.

    13 boxes: (8192, 64, 2) float64 ``[mask, upper, Yahtzee box holds 50]`` (a rule set
    without Yahtzee bonus has equal values in both flags wherever the box is filled);
    15 boxes (Yatzy): (32768, 64). NaN where a state cannot occur.
    """
    values = np.asarray(table.values)
    rules = table.rules
    if rules.n_boxes != 13:
        return values[:, :, 0].copy()
    if rules.n_flags == 2:
        return values.copy()
    out = np.repeat(values, 2, axis=2)
    yahtzee_open = (np.arange(rules.n_masks) >> rules.yahtzee_box & 1) == 0
    out[yahtzee_open, :, 1] = np.nan
    return out


def _write_csv(table: Solved, out: IO[bytes]) -> None:
    text = io.TextIOWrapper(out, encoding="utf-8", newline="")
    try:
        _write_csv_rows(table, text)
    finally:
        text.flush()
        text.detach()


def _write_csv_rows(table: Solved, text: io.TextIOWrapper) -> None:
    rules = table.rules
    values = interface_array(table)
    has_flag = values.ndim == 3
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["open_boxes", "upper_subtotal"] + (["yahtzee_holds_50"] if has_flag else [])
                    + ["value"])
    names = [b.name for b in rules.boxes]
    for mask in range(rules.n_masks):
        open_names = " ".join(n for b, n in enumerate(names) if not mask >> b & 1)
        block = values[mask]
        for upper in range(block.shape[0]):
            for flag in range(block.shape[1] if has_flag else 1):
                v = block[upper, flag] if has_flag else block[upper]
                if np.isnan(v) or (has_flag and flag == 1 and rules.n_flags == 1):
                    continue
                flag_cell = [flag] if has_flag else []
                writer.writerow([open_names, upper, *flag_cell, repr(float(v))])


def _is_export(path: Path, fmt: str) -> bool:
    """True when ``path`` begins like an export in format ``fmt`` (so may be rewritten)."""
    signature = _SIGNATURES[fmt]
    try:
        with open(path, "rb") as f:
            return f.read(len(signature)) == signature
    except OSError:
        return False


def check_export_target(path: Path | str, fmt: str, *, force: bool = False) -> None:
    """Raise :class:`~solver.errors.WriteError` now if :func:`export_table` would refuse
    ``path``: it is a symlink, folder or device, or a file other than an earlier export in
    the same format (unless ``force``)."""
    _check_format(fmt)
    check_target(path, force=force, replaceable=lambda p: _is_export(p, fmt))


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise TableError(f"unknown export format {str(fmt)[:20]!r}; formats: "
                         f"{', '.join(FORMATS)}")


def export_table(table: Solved, path: Path | str, fmt: str, *, force: bool = False) -> None:
    """Write ``table`` to ``path`` as ``npy`` or ``csv`` (one row per reachable state).

    Refuses what :func:`check_export_target` refuses; raises
    :class:`~solver.errors.WriteError` when the file cannot be written.
    """
    _check_format(fmt)
    if fmt == "npy":
        def write(out: IO[bytes]) -> None:
            np.save(out, interface_array(table))
    else:
        def write(out: IO[bytes]) -> None:
            _write_csv(table, out)
    atomic_write(path, write, force=force, replaceable=lambda p: _is_export(p, fmt))


__all__ = ["FORMATS", "check_export_target", "export_table", "interface_array"]
