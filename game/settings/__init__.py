"""What a player can configure: house-rule files, app settings, the last setup, and where files live."""

# The problem codes this layer raises are registered before any of its modules can raise one.
from game.settings import problem_texts  # noqa: F401  (imported for that registration alone)
