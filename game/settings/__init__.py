"""What a player can configure: house-rule files, app settings, the last setup, and where files live."""
