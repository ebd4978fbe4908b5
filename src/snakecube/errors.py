"""The one exception type for bad input from a person."""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: the message names what is wrong, where, and what was expected.

    The command-line tool prints the message on one line and exits with code 2.
    """
