"""Tests of the exact engine (proofs/exact/)."""
