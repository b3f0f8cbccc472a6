"""`python -m ddz`: the `ddz` command line."""

import sys

from ddz.cli import main

sys.exit(main())
