"""A game as a table sees it: the ``TableSession`` seam and its local implementation.

``session`` is the interface (what a table may ask and do), ``local`` plays a
match in this process (computers, undo, hints, autosave, the hand history),
``computers`` and ``ai_worker`` think for the computer seats off the frame loop,
``hints`` computes a hint the same way, and ``scores`` is the score history
the pad and the end screen read.
"""
