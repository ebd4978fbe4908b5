"""The entry point of the ``snakecube`` command and of ``python -m snakecube``.

It does as little as it can before the stop signals are handled (``snakecube.stop``): the
package's ``__init__`` imports nothing heavy, and the command-line layer is imported only
after the handlers are in place, so Ctrl-C at any moment exits with 130 and no traceback.
"""

from snakecube import stop

stop.starting()


def run() -> None:
    """Run the tool with the process's arguments and exit with its code."""
    import sys

    code = stop.EXIT_INTERRUPTED
    try:
        from snakecube.cli import main

        stop.working()
        code = main(started=stop.STARTED)
    except KeyboardInterrupt:  # after the handlers' install, before the command's own
        stop.ending()
        if "--json" in sys.argv[1:]:
            print('{"complete": false, "stop_reason": "interrupted"}')
        print("snakecube: interrupted", file=sys.stderr)
    stop.exit(code)


if __name__ == "__main__":
    run()
