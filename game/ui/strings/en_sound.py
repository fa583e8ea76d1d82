"""English text of the sound settings (the volume and mute rows of the settings dialog).

The percentage is a template of its own because languages write it
differently (Turkish puts the sign first: "%70").
"""

STRINGS: dict[str, str] = {
    "settings.volume": "Sound volume",
    "settings.volume.help": "How loud the sounds of the cards and the table are.",
    "settings.volume.percent": "{value}%",
    "settings.mute": "Mute",
    "settings.mute.help": "Turn every sound off.",
}
