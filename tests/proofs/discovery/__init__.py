"""Tests of the ruling-discovery engines (proofs/discovery/)."""
