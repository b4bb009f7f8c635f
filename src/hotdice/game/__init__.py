"""The game: the rules (knobs, presets, scoring), the dice, the engine that enforces them and the records of
games."""
