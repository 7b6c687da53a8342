"""The command of the reproduction: ``python -m repro.pipeline`` (see :mod:`repro.core.pipeline`)."""

import sys

from repro.core.pipeline import main

if __name__ == "__main__":
    sys.exit(main())
