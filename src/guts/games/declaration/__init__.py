"""What the families that declare share: the declaration round (choosing in turn or all at
once, :mod:`~guts.games.declaration.round`) and the events of a deal that every such family
records (:mod:`~guts.games.declaration.events`). Guts, Three Five Seven and Bourré import
them from here."""
