"""``python -m cardcore``: the ``cardcore`` command (``cardcore.cli``)."""

from cardcore.cli import main

if __name__ == "__main__":
    main(prog_name="cardcore")
