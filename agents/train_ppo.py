"""``python -m semiautomines_agents.train_ppo``: train a MaskablePPO agent.

The script itself is :mod:`semiautomines_agents.training.train_ppo`; this
module keeps the short name that the README and the model notes use.
"""

from __future__ import annotations

import sys

from .training.args import Args
from .training.train_ppo import main, train

__all__ = ["Args", "main", "train"]

if __name__ == "__main__":
    sys.exit(main())
