"""The pygame-ce interface: app loop, scenes, table, panels and dialogs."""

# The problem codes the interface raises are registered before any of its modules can raise one.
from game.ui import problem_texts  # noqa: F401  (imported for that registration alone)
