"""A game in progress: the match (engine state, seats, action log) and who may sit at it."""
