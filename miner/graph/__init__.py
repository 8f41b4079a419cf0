"""Stage `graph`: one networkx call graph from the facts of every TU."""
