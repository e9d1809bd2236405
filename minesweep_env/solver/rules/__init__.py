"""The built-in rule sets, one module each; :mod:`minesweep_env.solver.registry` lists them."""
