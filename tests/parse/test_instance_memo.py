"""A worker walks each instantiated body once. A body walked where a callee had no body is reached again in a
later TU: that TU is only searched for the bodies it holds for the body's callees, and what the TU's parse returns
is what a fresh walk gives."""

from __future__ import annotations

from miner.parse import worker as worker_module
from miner.parse.instances import InstanceWalker

HEADER = """
int helper(int x);
template <typename T> int twice(T x) { if (x > 0) return helper(int(x)); return 0; }
"""
SOURCES = {
    "a.cpp": '#include "util.hpp"\nint entry_a(float x) { return twice<float>(x); }\n',
    "b.cpp": '#include "util.hpp"\nint helper(int x) { return x + x; }\nint entry_b(float x) { return twice<float>(x); }\n',
}


def _library(tmp_path):
    (tmp_path / "util.hpp").write_text(HEADER)
    for name, text in SOURCES.items():
        (tmp_path / name).write_text(text)
    config = worker_module.WorkerConfig(str(tmp_path), (), (), ())
    parser = worker_module.TUParser(config)

    def parse(rel: str):
        args = ("-x", "c++", "-std=c++17", f"-I{tmp_path}")
        return parser(worker_module.ParseJob(rel=rel, args=args, variant="lp64"))

    return parse


def _spy(monkeypatch, method: str, usr_of) -> list[str]:
    seen: list[str] = []
    original = getattr(InstanceWalker, method)

    def spy(self, *args):
        seen.append(usr_of(*args))
        return original(self, *args)

    monkeypatch.setattr(InstanceWalker, method, spy)
    return seen


def _usrs(parsed) -> list[str]:
    return sorted(i.usr for i in parsed.instances)


def test_a_body_reached_again_is_searched_for_its_callees_bodies_not_walked(tmp_path, monkeypatch):
    walked = _spy(monkeypatch, "_instance", lambda fn: fn.get_usr())
    searched = _spy(monkeypatch, "_callee_bodies", lambda fn, inst: inst.usr)
    parse = _library(tmp_path)
    first = parse("a.cpp")
    assert not any("helper" in usr for usr in _usrs(first))  # declared there, defined in b.cpp
    walked.clear()
    later = parse("b.cpp")
    twice = next(usr for usr in _usrs(first) if "twice" in usr)
    assert searched == [twice] and twice not in walked, "the template's body is searched again, not walked"
    assert any("helper" in usr for usr in walked), "the body b.cpp holds for its callee is walked"
    fresh = _library(tmp_path)("b.cpp")  # another worker, which has walked nothing yet
    assert sorted(later.instances, key=lambda i: i.usr) == sorted(fresh.instances, key=lambda i: i.usr)
