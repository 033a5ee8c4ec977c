"""What we establish about the rules: exploration, divergence, z3 proofs, metrics."""
