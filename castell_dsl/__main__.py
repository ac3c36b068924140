"""`python -m castell_dsl` runs the `castell` command line."""

from .cli import run

if __name__ == "__main__":
    run()
