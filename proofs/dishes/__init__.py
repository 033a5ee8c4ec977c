"""The checks and proofs of Who Is Going to Do the Dishes? (spec/dishes.toml)."""
