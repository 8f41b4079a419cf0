"""Release diff: per entry point, what changed between two revisions of a library, and why."""
