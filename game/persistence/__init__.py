"""What Trick Table keeps on disk: hand histories, the autosave, statistics and replays."""
