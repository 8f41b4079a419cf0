"""Stage `parse`: libclang for semantics, tree-sitter for spans and as the fallback."""
