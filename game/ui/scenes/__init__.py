"""Full-window scenes away from the table: start screen, settings, house-rule editor."""
