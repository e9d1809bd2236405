"""Where ``search``'s guesses lose: its logged decisions replayed on sampled layouts.

:mod:`.decisions` reads a guess log and says what kind of decision each is,
:mod:`.rollouts` plays a position on from one layout, :mod:`.estimate` estimates
every candidate's win probability on common layouts, :mod:`.report` turns the
results into tables. ``benchmarks/guess_regret.py`` runs them.
"""
