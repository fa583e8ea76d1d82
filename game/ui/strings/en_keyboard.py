"""English text for playing by keyboard alone (the table's prompt while the keys are in use)."""

STRINGS: dict[str, str] = {
    "table.your_turn_keys": "Your turn: Left and Right choose a card, Enter plays it",
}
