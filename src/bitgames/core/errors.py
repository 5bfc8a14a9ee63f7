"""The error every user mistake raises: a ``ValueError`` that says what and where."""

from __future__ import annotations


class BitgamesError(ValueError):
    """Base class of the errors raised for bad input (positions, moves, files, options).

    The command line catches it and prints its message on one line, without a traceback.
    """
