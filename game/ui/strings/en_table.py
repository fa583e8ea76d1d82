"""English text of the table, its animations, the hot-seat cover and the end of a hand."""

STRINGS: dict[str, str] = {}
