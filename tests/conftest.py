"""Session set-up: the probability fast path is decided the same way in every test run.

Tests load (or, on a fresh checkout, compile) the compiled kernels in the test
process on first use rather than in a background warm-up, so no test run leaves
a detached process behind, and keep the warm-up's marker in a temporary folder
rather than the user's cache. Subprocesses started by tests inherit both.
"""

import os
import tempfile

os.environ.setdefault("SEMIAUTOMINES_JIT_SYNC", "1")
os.environ.setdefault("SEMIAUTOMINES_CACHE_DIR", tempfile.mkdtemp(prefix="semiautomines-jit-"))
