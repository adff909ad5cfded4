"""`python -m pipeline.cli ARGS`: the `stockshot` command."""

import sys

from pipeline.cli import main

sys.exit(main())
