"""The cardroom's rules: pure Python, no Django, no I/O, no clock, no randomness of its own.

Each game is a state machine (docs/architecture.md, "The layers"): an immutable, JSON-serialisable
state and ``apply(state, action) -> (state, events)``. Actions carry the time; a deal carries
its deck. See :mod:`games.engine` for the shape every game shares.
"""

__all__: list[str] = []
