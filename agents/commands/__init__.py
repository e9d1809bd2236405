"""``semiautomines`` subcommands that need the agents: ``evaluate``, ``guess`` and ``train``.

The library's command line (:mod:`minesweep_env.cli.main`) finds them through
the ``semiautomines.commands`` entry-point group declared in pyproject.toml,
so ``minesweep_env`` never imports the agents. Each module has the same
contract as the library's own subcommands: ``add_parser(subparsers)``.
"""
