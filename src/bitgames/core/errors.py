"""The errors every game raises: ``ValueError`` subclasses that say what was wrong and where.

One hierarchy for all games, as python-chess has one for chess::

    BitgamesError (ValueError)
    ├── InvalidPositionError     a position string (FEN, board string, SGF setup) is malformed
    ├── InvalidMoveError         a move's text cannot be read at all ("z9", "e2e")
    ├── IllegalMoveError         a well-formed move the rules do not allow here
    │   └── AmbiguousMoveError   a short move text that fits more than one legal move
    ├── ProtocolError            a protocol line or an outside engine's reply is wrong
    └── EngineError              an outside engine crashed, timed out or broke the rules

A game adds a subclass only where it adds meaning, and always under one of these, so
``except IllegalMoveError`` works the same in every game:

>>> issubclass(AmbiguousMoveError, IllegalMoveError), issubclass(EngineError, ValueError)
(True, True)
"""

from __future__ import annotations


class BitgamesError(ValueError):
    """Base class of the errors raised for bad input (positions, moves, files, options).

    The command line catches it and prints its message on one line, without a traceback.
    """


class InvalidPositionError(BitgamesError):
    """A position string could not be read; the message names what is wrong and where."""


class InvalidMoveError(BitgamesError):
    """A move's text is not a move of this game at all (bad syntax, unknown square)."""


class IllegalMoveError(BitgamesError):
    """A well-formed move that the rules do not allow in this position."""


class AmbiguousMoveError(IllegalMoveError):
    """A move text that matches more than one legal move (give the full path)."""


class ProtocolError(BitgamesError):
    """A protocol line, sent to us or received from an outside engine, is malformed."""


class EngineError(BitgamesError):
    """An outside engine crashed, did not answer in time, or sent an illegal move."""
