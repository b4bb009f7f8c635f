"""Playing: the modes of play (daily seeds, challenge codes, ranking, training) and the computer players."""
