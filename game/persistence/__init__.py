"""Hand histories, replays, saved games and statistics: what is kept in files."""

# The problem codes this layer raises are registered before any of its modules can raise one.
from game.persistence import problem_texts  # noqa: F401
