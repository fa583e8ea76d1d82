"""Dialogs opened over the table: bidding, trump and contract, kitty discard,
score pad, menu, hand-over cover, end of game."""
