"""The entry point of the ``snakecube`` command (``[project.scripts]``) and of
``python -m snakecube``.

The stop signals are taken first (``snakecube.stop``), and the command line is imported only
then, so Ctrl-C at any moment from here on exits with 130 and no traceback.
"""

import sys

from snakecube import stop


def run() -> None:
    """Run the tool with the process's arguments and exit with its code."""
    stop.starting()
    code = stop.EXIT_INTERRUPTED
    try:
        from snakecube.cli import main  # after the handlers: its imports can be interrupted

        stop.working()
        code = main(started=stop.STARTED)
    except Exception:
        # A stop signal's KeyboardInterrupt can come out as another exception (raised while
        # a class of the command's module is being made, Python 3.11 reports a RuntimeError).
        # After a signal, whatever broke is the stop.
        if not stop.signalled:
            raise
        _interrupted()
    except KeyboardInterrupt:  # after the handlers' install, before the command's own
        _interrupted()
    stop.exit(code)


def _interrupted() -> None:
    """Say the command was stopped before it could; with --json, still one document."""
    stop.ending()
    if "--json" in sys.argv[1:]:
        print('{"complete": false, "stop_reason": "interrupted"}')
    print("snakecube: interrupted", file=sys.stderr)


if __name__ == "__main__":
    run()
