"""A Swiss round's pairing beside the engine: what the engine is given (``inputs``), the report any player
can check about how the round was paired (``report``, ``team_report`` for team rounds), its codes in words
(``words``) and the words of the pairing and pod engines' refusals (``refusals``)."""
