"""The cache every run of one user shares: where it lives, which runs used what, and pruning it."""
