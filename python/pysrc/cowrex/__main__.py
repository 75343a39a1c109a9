"""``python -m cowrex``: the ``cowrex`` command line (``cowrex._cli``)."""

import sys

from ._cli import main

sys.exit(main())
