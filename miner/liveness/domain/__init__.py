"""The abstract domain of the liveness analysis, apart from the analysis that uses it: expressions reduced from
instantiated bodies evaluated to intervals (``evaluate``), the bindings of parameters to intervals and the guards
decided over them (``intervals``), and what guards and calls say about the variables they read
(``expressions``). Nothing here knows the call graph, the walk or the verdicts."""
