"""``python -m semiautomines_agents.convert_model IN.zip OUT.pt``: the converter's
former address, kept for that command; it lives in :mod:`.ppo.convert_model`."""

import sys

from .ppo.convert_model import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
