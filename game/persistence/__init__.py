"""What Trick Table keeps on disk: hand histories, the autosave, statistics and replays."""

# The problem codes this layer raises are registered before any of its modules can raise one.
from game.persistence import problem_texts  # noqa: F401  (imported for that registration alone)
