"""The screens of the terminal game: menu, table, forms, dialogs, statistics, settings, training."""
