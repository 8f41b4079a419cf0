"""Grounded QA from context bundles: static kernel facts, an offline generator, a model agent, a grounding check."""
