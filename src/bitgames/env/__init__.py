"""Environments for learning agents: every game as a PettingZoo AEC environment.

``make(name, **options)`` builds one (``names()`` lists them): two agents named by their
colours, in the order they move; a discrete action space that covers every move of the
game, with the legal ones in the observation's ``action_mask``; observation planes in the
AlphaZero style (the mover's pieces, the opponent's, and what the game needs besides);
rewards +1 / -1 / 0 when the game ends; ``render()`` as text. :class:`SingleAgentEnv` is
the Gymnasium environment of one agent against a fixed opponent (random, or the built-in
engine at a level). Needs the ``env`` extra
(``pip install 'bitgames[env]'``: gymnasium and pettingzoo).

>>> env = make("othello")
>>> env.reset(seed=1)
>>> env.agent_selection, int(env.observe("black")["action_mask"].sum())
('black', 4)
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError("bitgames.env needs gymnasium and pettingzoo: "
                      "pip install 'bitgames[env]'") from exc

from bitgames.env.aec import GameEnv  # noqa: E402
from bitgames.env.codecs import CODECS, names  # noqa: E402
from bitgames.env.single import SingleAgentEnv  # noqa: E402

__all__ = ["GameEnv", "SingleAgentEnv", "make", "names"]


def make(name: str, **options: object) -> GameEnv:
    """The AEC environment of game ``name`` (see :func:`names`); ``options`` go to the
    game's board (Go: ``size``, ``komi``) and to the environment (``max_plies``: a game
    still going after that many plies is truncated; ``render_mode``: ``ansi``, ``human``
    or ``rgb_array``)."""
    from bitgames.core.errors import BitgamesError

    if name not in CODECS:
        raise BitgamesError(f"unknown environment {name!r}; known: {', '.join(names())}")
    max_plies = options.pop("max_plies", None)
    render_mode = options.pop("render_mode", None)
    codec = CODECS[name](**options)
    return GameEnv(codec, max_plies=None if max_plies is None else int(max_plies),  # type: ignore[call-overload]
                   render_mode=None if render_mode is None else str(render_mode))
