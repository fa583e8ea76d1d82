"""Player-facing text, one catalog module per screen group and language.

Drawing code never holds English sentences: it asks ``game.ui.text.t`` for a
key, so the Dutch and Turkish interfaces only need new catalog modules.
"""
