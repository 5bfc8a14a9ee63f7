"""Every numeric option and argument of every command, fed values a user or a script could
type by mistake: each is refused when parsed, with one line naming the option, exit
status 2 and no traceback.

The table is read from the parser itself (every subcommand, every option with a number
type), so a new option joins it without being listed here; an option that takes numbers
with Python's bare ``int``/``float`` fails the first test.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from bitgames.cli import build_parser, main
from bitgames.core.cli import Integer, Number


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
              ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path, parser
    for action in subs:
        for name, sub in dict(action.choices).items():
            yield from _commands(sub, (*path, name))


def _numeric(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    for action in parser._actions:
        if action.type in (int, float) or isinstance(action.type, Integer | Number) or (
                action.type is None and type(action.default) in (int, float)):
            yield action


CASES = [(path, action) for path, parser in _commands(build_parser())
         for action in _numeric(parser)]

#: what no number option takes
BAD = ["²", "٣", "nan", "inf", "-inf", "1e999", "", " ", "0x10", "1_000", "ten", "+-1"]


def _bad_values(kind: Integer | Number) -> list[str]:
    values = list(BAD)
    if isinstance(kind, Integer):
        values += ["1.5", "1e3", str(2**64)]
    if kind.minimum is not None:
        values.append(str(kind.minimum - 1))
    if kind.maximum is not None:
        values.append(str(kind.maximum * 10 + 1))
    return values


def _name(path: tuple[str, ...], action: argparse.Action) -> str:
    return " ".join(path) + " " + (action.option_strings[0] if action.option_strings
                                   else action.dest)


def test_the_table_covers_every_command_with_numbers() -> None:
    assert len(CASES) >= 80
    plain = [_name(p, a) for p, a in CASES if not isinstance(a.type, Integer | Number)]
    assert plain == [], "options that take numbers unchecked"
    unbounded = [_name(p, a) for p, a in CASES if isinstance(a.type, Integer)
                 and a.type.maximum is None]
    assert unbounded == [], "whole-number options without a largest value"


@pytest.mark.parametrize("path, action", CASES, ids=[_name(p, a) for p, a in CASES])
def test_bad_numbers_are_refused_when_parsed(path: tuple[str, ...], action: argparse.Action,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert isinstance(action.type, Integer | Number)
    for value in _bad_values(action.type):
        if action.option_strings:
            argv = [*path, f"{action.option_strings[0]}={value}"]
        else:  # a positional argument: the first one of these commands
            argv = [*path, "--", value]
        assert main(argv) == 2, (argv, capsys.readouterr())
        err = capsys.readouterr().err.strip()
        name = action.option_strings[0] if action.option_strings else action.dest
        assert "Traceback" not in err
        assert f"error: argument {name}" in err.splitlines()[-1], (argv, err)
