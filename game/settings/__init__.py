"""House-rule files, the app's settings, the last setup, YAML reading and the data folders."""

# The problem codes this layer raises are registered before any of its modules can raise one.
from game.settings import problem_texts  # noqa: F401
