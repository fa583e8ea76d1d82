"""A game in progress: the match, who may sit at it, and the ``TableSession`` seam a table reaches it through."""

# ``session`` is the interface (what a table may ask and do); ``local`` plays a match
# in this process (computers, undo, hints, autosave, the hand history); ``computers``
# and ``ai_worker`` think for the computer seats off the frame loop, ``hints``
# computes a hint the same way, and ``scores`` is the score history the pad reads.

# The problem codes this layer raises are registered before any of its modules can raise one.
from game.session import problem_texts  # noqa: F401  (imported for that registration alone)
