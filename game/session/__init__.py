"""A match being played: its seats, turns and computer players."""

# The problem codes this layer raises are registered before any of its modules can raise one.
from game.session import problem_texts  # noqa: F401
