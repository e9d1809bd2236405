"""The policy network's former address: it lives in :mod:`.ppo.policies`.

This name stays the very same module (not a copy), because stable-baselines3
zips saved before the move name ``semiautomines_agents.policies.CellPolicy``.
"""

import sys

from .ppo import policies

sys.modules[__name__] = policies
