from miner.liveness.evaluate import interval, params_of


def evaluate(expr, env):
    """The exact value of ``expr`` under constant parameters, None when it is not one value."""
    iv = interval(expr, {k: (v, v) for k, v in env.items()})
    return iv[0] if iv is not None and iv[0] == iv[1] else None


UNKNOWN = ("unknown",)


def p(name):
    return ("param", name)


def c(v):
    return ("const", v)


def b(op, x, y):
    return ("binary", op, x, y)


def test_a_fixed_parameter_decides_a_comparison():
    assert evaluate(b(">", p("batch_count"), c(1)), {"batch_count": 1}) == 0
    assert evaluate(b("==", p("incx"), c(1)), {"incx": 1}) == 1


def test_an_unbound_parameter_leaves_it_undecided():
    assert evaluate(b("==", p("incx"), c(1)), {}) is None
    assert evaluate(UNKNOWN, {"incx": 1}) is None


def test_logical_operators_short_circuit_over_unknowns_like_c():
    assert evaluate(b("&&", c(0), UNKNOWN), {}) == 0
    assert evaluate(b("&&", UNKNOWN, c(0)), {}) == 0
    assert evaluate(b("||", UNKNOWN, c(5)), {}) == 1
    assert evaluate(b("&&", UNKNOWN, c(1)), {}) is None
    assert evaluate(b("||", c(0), c(0)), {}) == 0


def test_division_truncates_toward_zero_and_never_divides_by_zero():
    assert evaluate(b("/", c(-7), c(2)), {}) == -3
    assert evaluate(b("%", c(-7), c(2)), {}) == -1
    assert evaluate(b("/", c(1), c(0)), {}) is None


def test_unary_operators():
    assert evaluate(("unary", "!", p("x")), {"x": 0}) == 1
    assert evaluate(("unary", "-", c(3)), {}) == -3


def test_params_of_lists_what_an_expression_reads():
    assert params_of(b("&&", b(">", p("n"), c(0)), ("unary", "!", p("batched")))) == {"n", "batched"}


def test_a_32_bit_range_decides_a_64_bit_overflow_check():
    from miner.liveness.evaluate import interval, truthiness

    i32 = (-(2**31), 2**31 - 1)
    dims_32bit = b("&&", b("<=", p("m"), c(2**31 - 1)), b("<=", p("n"), c(2**31 - 1)))
    assert truthiness(interval(dims_32bit, {"m": i32, "n": i32})) is True
    assert truthiness(interval(dims_32bit, {"m": (0, 2**40), "n": i32})) is None


def test_locals_are_read_through_their_initializers():
    from miner.liveness.evaluate import interval, truthiness

    locals_ = {"small": b("<", p("n"), c(32))}
    assert truthiness(interval(("local", "small"), {"n": (1, 1)}, locals_)) is True
    assert interval(("local", "unknown"), {}, locals_) is None
    assert params_of(("local", "small"), locals_) == {"n"}
