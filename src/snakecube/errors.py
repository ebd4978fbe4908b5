"""The exception and warning types for people."""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: the message names what is wrong, where, and what was expected.

    The command-line tool prints the message on one line and exits with code 2.
    """


class CubeCountError(InputError):
    """The snake's cube count does not fit the target (a common sign of a typo)."""


class SlowWarning(UserWarning):
    """A job will run much slower than usual, and why (the command-line tool prints it as
    one line on stderr)."""


class NoSolutionError(InputError):
    """The snake has no solution in the target (a complete search found none), so there is
    nothing to show, fold or pick (another common sign of a typo)."""
