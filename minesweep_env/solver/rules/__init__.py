"""Built-in rule sets; importing this package registers them."""
from . import (
    complete,  # noqa: F401
    endoh,  # noqa: F401
    groups,  # noqa: F401
    mysweeper,  # noqa: F401
    substitution,  # noqa: F401
)
