"""A value network: the chance that ``search`` wins from a position, learned from its games.

The look-ahead values a guess by the chance of surviving it and the next one; it
does not see what a position is worth beyond that. This network estimates that
worth, P(win | position, search plays on), from positions of ``search``'s own
games labelled with how each game ended (:mod:`.train`), so a tie-break can weigh
the positions a guess leads to (:mod:`.network` for the model and its files,
:mod:`.planes` for what it sees).
"""
