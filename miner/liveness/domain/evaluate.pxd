# Cython's declarations for the compiled evaluate.py (setup.py): the evaluator as a C type, so that its recursion
# over an expression is a C call. The pure-Python module ignores this file.
cdef class _Interval:
    cdef public object env, locals_, calls, memo, relate, same, over
    cpdef value(self, expr, int depth, scope)
    cpdef raw(self, expr, int depth, scope)
