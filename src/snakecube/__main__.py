"""``python -m snakecube``: the command-line tool."""

from snakecube.cli import run

if __name__ == "__main__":
    run()
