"""A game in progress: the match (engine state, seats, action log) and who may sit at it."""

# The problem codes this layer raises are registered before any of its modules can raise one.
from game.session import problem_texts  # noqa: F401  (imported for that registration alone)
