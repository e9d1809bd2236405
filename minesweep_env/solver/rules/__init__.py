"""Built-in rule sets; importing this package registers them."""
from . import complete  # noqa: F401
from . import groups  # noqa: F401
from . import mysweeper  # noqa: F401
from . import substitution  # noqa: F401
from . import endoh  # noqa: F401
