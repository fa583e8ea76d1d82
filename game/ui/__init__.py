"""The pygame-ce interface: app loop, scenes, table, panels and dialogs."""
