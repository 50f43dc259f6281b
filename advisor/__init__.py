"""The advisor: value objects, turn advice, guided play and strategy sheets, and the CLI."""
