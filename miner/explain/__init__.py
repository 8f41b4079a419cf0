"""Audit: why a function is, or is not, in an entry point's bundle, answered from an output folder alone."""
