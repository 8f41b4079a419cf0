from miner.liveness.domain.evaluate import interval, params_of


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
    from miner.liveness.domain.evaluate import interval, truthiness

    i32 = (-(2**31), 2**31 - 1)
    dims_32bit = b("&&", b("<=", p("m"), c(2**31 - 1)), b("<=", p("n"), c(2**31 - 1)))
    assert truthiness(interval(dims_32bit, {"m": i32, "n": i32})) is True
    assert truthiness(interval(dims_32bit, {"m": (0, 2**40), "n": i32})) is None


def test_locals_are_read_through_their_initializers():
    from miner.liveness.domain.evaluate import interval, truthiness

    locals_ = {"small": b("<", p("n"), c(32))}
    assert truthiness(interval(("local", "small"), {"n": (1, 1)}, locals_)) is True
    assert interval(("local", "unknown"), {}, locals_) is None
    assert params_of(("local", "small"), locals_) == {"n"}


def test_std_min_and_max_and_counted_loop_variables():
    chunk = 1 << 15
    # for (int64_t b = 0; b < batch_count; b += chunk) { int64_t n = std::min(batch_count - b, chunk); ... }
    locals_ = {
        "b": ("between", c(0), b("-", p("batch_count"), c(1))),
        "n": ("min", b("-", p("batch_count"), ("local", "b")), c(chunk)),
    }
    env = {"batch_count": (1, 1)}
    assert interval(("local", "b"), env, locals_) == (0, 0)
    assert interval(("local", "n"), env, locals_) == (1, 1)  # the non-batched API: one launch of one batch
    assert interval(b(">", ("local", "n"), c(1)), env, locals_) == (0, 0)
    assert interval(("max", c(3), p("k")), {"k": (1, 9)}) == (3, 9)
    assert interval(("local", "b"), {"batch_count": (0, 0)}, locals_) is None  # a loop that never runs
    assert params_of(("local", "n"), locals_) == {"batch_count"}


def test_a_local_assigned_in_a_loop_is_bounded_by_every_value_it_is_given():
    # I jb; while (j < n - 64) { jb = std::min(n - j, nb); potf2(jb) } with nb = 64 and j loop-carried (unknown)
    locals_ = {"jb": ("min", b("-", p("n"), UNKNOWN), c(64))}
    jb = interval(("local", "jb"), {"n": (0, 2**31 - 1)}, locals_)
    assert jb is not None and jb[1] == 64  # whatever n - j is, jb is at most nb
    assert interval(b("<=", ("local", "jb"), c(64)), {}, locals_) == (1, 1)
    assert interval(("hull", c(3), c(9)), {}) == (3, 9)
    assert interval(("hull", c(3), p("unknown")), {}) is None


class _Results:
    """A call's value: ``twice`` returns twice its argument; ``log`` returns nothing we read."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def returns(self, usr: str) -> bool:
        return usr == "twice"

    def __call__(self, usr, args):
        self.asked.append(usr)
        return None if args[0] is None else (2 * args[0][0], 2 * args[0][1])


def test_a_call_is_evaluated_only_when_its_callee_returns_something():
    results = _Results()
    twice = ("call", "twice", (p("n"),))
    log = ("call", "log", (p("n"),))
    assert interval(twice, {"n": (3, 3)}, calls=results) == (6, 6)
    assert interval(log, {"n": (3, 3)}, calls=results) is None
    assert results.asked == ["twice"]
    assert interval(twice, {"n": (3, 3)}, calls=lambda usr, args: (1, 1)) == (1, 1)  # a plain function: always asked
