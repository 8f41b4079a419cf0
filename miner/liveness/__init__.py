"""Per-entry liveness: which reached regions can run for each entry point, and why the rest cannot."""
