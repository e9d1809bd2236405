"""Model files' former address: they live in :mod:`.ppo.model_files` (this name is
the very same module, so code that imports or patches it keeps working)."""

import sys

from .ppo import model_files

sys.modules[__name__] = model_files
