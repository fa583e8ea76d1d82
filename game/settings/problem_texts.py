"""The problems the settings layer raises (YAML files, house-rule files, settings), in English."""

from __future__ import annotations

from game.rules.problems import Problem, register_problems

# Every problem this layer raises (reading a YAML file, a house-rule file or
# preset, the settings file), with its English template; the window words
# each from the catalogue key "problem.<code>" (``game.rules.problems``).
PROBLEM_TEXTS: dict[str, str] = {
    # Where in a file (``line_problem``).
    "at_line": "line {line}",
    "at_unknown_line": "an unknown line",
    # Reading a file at all.
    "file.unreadable": "cannot read the file: {reason}",
    "file.not_utf8": "cannot read the file: it is not UTF-8 text",
    "file.not_utf8_kept": "line {line} holds bytes that are not UTF-8 text; what could be read is kept",
    "file.too_big": "the file is larger than {limit} KB ({size} bytes); it cannot be a Trick Table file",
    "file.too_big_unmeasured": "the file is larger than {limit} KB; it cannot be a Trick Table file",
    # YAML the guarded reader refuses or cannot parse ({detail} is the parser's own English words).
    "yaml.alias": "alias *{name} at {where}: anchors and aliases (&name, *name) are not allowed in Trick Table files",
    "yaml.anchor": "anchor &{name} at {where}: anchors and aliases (&name, *name) are not allowed in Trick Table files",
    "yaml.too_deep": "nesting deeper than {levels} levels at {where}",
    "yaml.duplicate_key": "duplicate key {entry} at line {line} (already given at line {first})",
    "yaml.syntax": "YAML syntax error: {detail}",
    "yaml.syntax_at": "YAML syntax error at line {line}, column {column}: {detail}",
    "yaml.unsupported": "unsupported YAML value: {detail}",
    "yaml.unsupported_at": "unsupported YAML value at line {line}, column {column}: {detail}",
    "yaml.error": "YAML error: {detail}",
    "yaml.bad_value": "YAML value that cannot be read: {detail}",
    "yaml.long_number": "a number of about {digits} digits at {where}; no Trick Table value is that long",
    # The same sentences without the parser's English words (see ``WITHOUT_DETAIL``).
    "yaml.syntax.no_detail": "YAML syntax error",
    "yaml.syntax_at.no_detail": "YAML syntax error at line {line}, column {column}",
    "yaml.unsupported.no_detail": "unsupported YAML value",
    "yaml.unsupported_at.no_detail": "unsupported YAML value at line {line}, column {column}",
    "yaml.error.no_detail": "YAML error",
    "yaml.bad_value.no_detail": "YAML value that cannot be read",
    # What a value is, inside "must be ..., not {actual}".
    "value.empty": "empty",
    "value.mapping": "a mapping",
    "value.list": "a list",
    "value.quoted": "{value}",
    # A value too long to show whole: its start and its size.
    "value.cut": "{start}... ({length} characters)",
    "value.long_number": "a number of about {digits} digits",
    "value.long_list": "a list of {entries} entries",
    "value.long_mapping": "a mapping of {entries} entries",
    # What a value must be, inside "must be {expected}".
    "expect.rule_mapping": "a mapping of rule keys to values",
    "expect.rule_file": "a mapping of rule keys to values, or with the keys game, rules and presets",
    "expect.preset_mapping": "a mapping of preset names to presets",
    "expect.preset": "a mapping with description and rules",
    "expect.settings": "a mapping of setting names to values",
    "expect.text": "text",
    "must_be": "must be {expected}, not {actual}",
    # Keys that are not allowed where they are.
    "unknown_key": "unknown key; Allowed keys: {allowed}",
    "unknown_key_guess": "unknown key; did you mean {guess}? Allowed keys: {allowed}",
    "rule_key_at_top": "a rule key belongs under rules: in a file that has rules: or presets: "
    "(allowed keys here: {allowed})",
    # The game a rule file is for, and its presets.
    "game.missing": "missing; must be one of {allowed}",
    "game.unknown": "must be one of {allowed}, not {value}",
    "game.missing_in_file": "missing; name the game in the file (game: one of {allowed}) or with --game",
    "game.other_file": "this file is for {game}, but the game being set up is {wanted}",
    "file.empty_rules": "the file is empty; expected rule keys with their values (such as target_score: 5) "
    "or the keys game, rules and presets",
    "preset.unnamed": "a preset name must be a non-empty word",
    "preset.unknown": "no preset named {name}; available presets: {available}",
    "preset.unknown_guess": "no preset named {name} (did you mean {guess}?); available presets: {available}",
    "preset.none": "no preset named {name}; available presets: (this file has none)",
    # A setting's value that is not one of those allowed.
    "value.not_seconds": "must be a number of seconds from {low} to {high}, not {value}",
    "value.not_think_seconds": "must be null (automatic) or a number of seconds from {low} to {high}, not {value}",
    "value.not_percent": "must be a whole number of percent from {low} to {high}, not {value}",
    "value.not_window_size": "must be [width, height] in whole pixels, at least [{width}, {height}] "
    "and at most {high} each, not {value}",
    # A house rule that clashes with another one a file gives.
    "rules.clash": "clashes with {entry}: it {reason}",
    # What the program did about it.
    "rules.defaults_used": "{error}. Playing with the default {game_title} rules instead.",
    "settings.built_in_used": "{error}. Using the built-in default settings.",
    "settings.setting": "{entry}: {reason}",
    "settings.some_defaults": "{source}: {problems}. Using the default {keys} and keeping your other settings; "
    "your file was left unchanged.",
    "settings.others_kept": "{source}: {problems}. Keeping your other settings; your file was left unchanged.",
    "settings.all_defaults": "{source}: {problems}. Using the default settings; your file was left unchanged.",
    "two_notices": "{first}\n{second}",
    # A message only the command line was meant to meet (a malformed --set), shown as written.
    "untranslated": "{text}",
}

register_problems(PROBLEM_TEXTS)


def line_problem(line: int | None) -> Problem:
    """Where in a file: "line 12" (``line`` counted from 1), or an unknown line."""
    return Problem("at_line", {"line": line}) if line is not None else Problem("at_unknown_line")
