"""A game in progress, as a table sees it: the match and the ``TableSession`` seam.

``match`` is the game (engine state, seats, action log) and ``names`` who may sit
at it; ``session`` is the interface a table reaches the game through (what it may
ask and do), ``local`` plays a match in this process (computers, undo, hints,
autosave, the hand history), ``computers`` and ``ai_worker`` think for the
computer seats off the frame loop, ``hints`` computes a hint the same way, and
``scores`` is the score history the pad and the end screen read.
"""
