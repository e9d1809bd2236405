"""Built-in rule sets; importing this package registers them."""
from . import complete  # noqa: F401
