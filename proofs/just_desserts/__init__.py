"""The checks and proofs of Just Desserts: the current rulebook and rules version 2.3
(spec/just_desserts.toml, spec/just_desserts_v23.toml)."""
