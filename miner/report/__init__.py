"""Audit in a browser: one static HTML page per mined library, with each entry's call graph, verdicts and code."""
