"""Leiserchess notation: squares, moves and FEN (plain Python, no numba).

Squares are a file letter ``a``-``h`` and a rank digit ``0``-``7`` (ranks start at 0).
Moves are ``h4g5`` (a step or a swap), ``g3R`` / ``g3U`` / ``g3L`` (rotate clockwise,
180 degrees, counter-clockwise) and ``h0h0`` (the King's null move).

FEN lists ranks 7 down to 0, files a to h; every piece is two letters naming its
orientation (Kings ``NN EE SS WW``, Pawns ``NW NE SE SW``), uppercase for Tangerine
(White, moves first) and lowercase for Lavender (Black); a digit is a run of empty
squares; then ``W`` or ``B`` for the side to move. A finished game's FEN lacks the
zapped King.

>>> sq = parse_square("h4"); sq, square_name(sq)
(39, 'h4')
>>> bb = parse_fen(START_FEN); format_fen(*bb) == START_FEN
True
"""

from __future__ import annotations

from bitgames.core.errors import InvalidMoveError, InvalidPositionError

FILES = "abcdefgh"
KING_ORIENTATIONS = ("NN", "EE", "SS", "WW")
PAWN_ORIENTATIONS = ("NW", "NE", "SE", "SW")
ROTATIONS = "RUL"
_DIGITS = "0123456789"

#: The 2016 opening position, Tangerine to move.
START_FEN = "ss3nw3/3nw4/2nw1nw3/1nw3SE1SE/nw1nw3SE1/3SE1SE2/4SE3/3SE3NN W"

#: Bitboard tuple ``(w, b, k, o0, o1, side)`` as plain ints.
Position = tuple[int, int, int, int, int, int]


class FenError(InvalidPositionError):
    """A FEN string that cannot be read."""


class MoveError(InvalidMoveError):
    """A move string that cannot be read (an illegal move raises
    :class:`~bitgames.core.errors.IllegalMoveError`)."""


def parse_square(name: str) -> int:
    """Square index (``rank * 8 + file``) of a name like ``h4``.

    >>> parse_square("a0"), parse_square("h7")
    (0, 63)
    """
    if len(name) != 2 or name[0].lower() not in FILES or name[1] not in "01234567":
        raise MoveError(f"bad square {name!r}: expected a file a-h and a rank 0-7, like 'h4'")
    return int(name[1]) * 8 + FILES.index(name[0].lower())


def square_name(sq: int) -> str:
    """Name of square index ``sq``.

    >>> square_name(0)
    'a0'
    """
    return FILES[sq & 7] + str(sq >> 3)


def encode_move(from_sq: int, to_sq: int, rotation: int = 0) -> int:
    """The kernels' ``int64`` move code."""
    return from_sq | (to_sq << 6) | (rotation << 12)


def move_to_str(code: int) -> str:
    """Notation of a move code.

    >>> move_to_str(encode_move(39, 46)), move_to_str(encode_move(22, 22, 1))
    ('h4g5', 'g2R')
    """
    fr, to, rot = code & 63, (code >> 6) & 63, (code >> 12) & 3
    if rot:
        return square_name(fr) + ROTATIONS[rot - 1]
    return square_name(fr) + square_name(to)


def str_to_move(text: str) -> int:
    """Move code of a move string (case-insensitive input); checks only the syntax.

    >>> move_to_str(str_to_move("G3r"))
    'g3R'
    >>> str_to_move("h4h6")
    Traceback (most recent call last):
    ...
    bitgames.leiserchess.notation.MoveError: bad move 'h4h6': h6 is not next to h4
    """
    t = text.strip()
    if len(t) == 3 and t[2].upper() in ROTATIONS:
        sq = parse_square(t[:2])
        return encode_move(sq, sq, ROTATIONS.index(t[2].upper()) + 1)
    if len(t) != 4:
        raise MoveError(
            f"bad move {text!r}: expected a step/swap like 'h4g5', a rotation like 'g3R' "
            "or a null move like 'h0h0'"
        )
    fr, to = parse_square(t[:2]), parse_square(t[2:])
    if max(abs((fr & 7) - (to & 7)), abs((fr >> 3) - (to >> 3))) > 1:
        raise MoveError(f"bad move {text!r}: {square_name(to)} is not next to {square_name(fr)}")
    return encode_move(fr, to)


def parse_fen(fen: str) -> Position:
    """Read a FEN into ``(w, b, k, o0, o1, side)``.

    >>> parse_fen("ss7/8/8/8/8/8/8/7NN W")
    (128, 72057594037927936, 72057594037928064, 0, 72057594037927936, 0)
    >>> parse_fen("ss7/8/8/8/8/8/8/7NN X")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bitgames.leiserchess.notation.FenError: bad FEN ...: side to move must be W or B, got 'X'
    """
    fields = fen.split()
    if len(fields) != 2:
        raise FenError(f"bad FEN {fen!r}: expected '<ranks> <W|B>', got {len(fields)} fields")
    ranks = fields[0].split("/")
    if len(ranks) != 8:
        raise FenError(f"bad FEN {fen!r}: expected 8 ranks separated by '/', got {len(ranks)}")
    if fields[1].upper() not in ("W", "B"):
        raise FenError(f"bad FEN {fen!r}: side to move must be W or B, got {fields[1]!r}")
    side = 0 if fields[1].upper() == "W" else 1
    w = b = k = o0 = o1 = 0
    kings = [0, 0]
    pawns = [0, 0]
    for i, text in enumerate(ranks):
        rank = 7 - i
        f = 0
        j = 0
        while j < len(text):
            c = text[j]
            if c in _DIGITS:
                m = j
                while m < len(text) and text[m] in _DIGITS:
                    m += 1
                run = int(text[j:m])
                if run == 0:
                    raise FenError(f"bad FEN {fen!r}: empty run of 0 on rank {rank}")
                f += run
                j = m
                continue
            pair = text[j : j + 2]
            if len(pair) < 2 or not pair.isalpha() or not (pair.isupper() or pair.islower()):
                raise FenError(f"bad FEN {fen!r}: bad piece {pair!r} on rank {rank}")
            colour = 0 if pair.isupper() else 1
            up = pair.upper()
            if up in KING_ORIENTATIONS:
                ori, is_king = KING_ORIENTATIONS.index(up), True
            elif up in PAWN_ORIENTATIONS:
                ori, is_king = PAWN_ORIENTATIONS.index(up), False
            else:
                raise FenError(
                    f"bad FEN {fen!r}: unknown piece {pair!r} on rank {rank} "
                    "(Kings NN EE SS WW, Pawns NW NE SE SW)"
                )
            if f > 7:
                raise FenError(f"bad FEN {fen!r}: rank {rank} has more than 8 squares")
            bit = 1 << (rank * 8 + f)
            if colour == 0:
                w |= bit
            else:
                b |= bit
            if is_king:
                k |= bit
                kings[colour] += 1
            else:
                pawns[colour] += 1
            if ori & 1:
                o0 |= bit
            if ori & 2:
                o1 |= bit
            f += 1
            j += 2
        if f != 8:
            raise FenError(f"bad FEN {fen!r}: rank {rank} has {f} squares, expected 8")
    for colour, name in ((0, "Tangerine (uppercase)"), (1, "Lavender (lowercase)")):
        if kings[colour] > 1 or kings == [0, 0]:
            raise FenError(
                f"bad FEN {fen!r}: {name} must have exactly one King (or none once it was "
                f"zapped), has {kings[colour]}"
            )
        if pawns[colour] > 7:
            raise FenError(f"bad FEN {fen!r}: {name} has {pawns[colour]} Pawns, at most 7 allowed")
    return w, b, k, o0, o1, side


def piece_code(w: int, b: int, k: int, o0: int, o1: int, sq: int) -> str:
    """Two-letter FEN code of the piece on ``sq``, or ``""`` for an empty square."""
    bit = 1 << sq
    if not (w | b) & bit:
        return ""
    ori = (1 if o0 & bit else 0) | (2 if o1 & bit else 0)
    code = KING_ORIENTATIONS[ori] if k & bit else PAWN_ORIENTATIONS[ori]
    return code if w & bit else code.lower()


def format_fen(w: int, b: int, k: int, o0: int, o1: int, side: int) -> str:
    """Write ``(w, b, k, o0, o1, side)`` as FEN."""
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        run = 0
        for f in range(8):
            code = piece_code(w, b, k, o0, o1, rank * 8 + f)
            if code:
                if run:
                    row += str(run)
                    run = 0
                row += code
            else:
                run += 1
        if run:
            row += str(run)
        rows.append(row)
    return "/".join(rows) + (" W" if side == 0 else " B")
