"""``python -m games``: the rules package's command line (see :mod:`games.cli`)."""

import sys

from games.cli import main

sys.exit(main())
