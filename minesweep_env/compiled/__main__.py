"""``python -m minesweep_env.compiled``: the warm-up (see :mod:`.warm_up`)."""

from .warm_up import main

raise SystemExit(main())
