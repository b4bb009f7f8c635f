"""What the rules imply, exactly: the odds of a roll, the solo expectation, the two-player and race solver, the
coach and its charts."""
