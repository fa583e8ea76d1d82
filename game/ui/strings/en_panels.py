"""English text of the start screen, rule editor, bidding panel, choosers, kitty dialog and score pad."""

STRINGS: dict[str, str] = {}
