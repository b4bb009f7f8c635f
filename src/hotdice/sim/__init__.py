"""Many games at once, measured: simulations of computer players, their compiled path, the dice's fairness."""
