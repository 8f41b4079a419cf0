"""Stage `traverse`: depth-first from each entry point under the library's allow/deny rules."""
