"""Units of the `samples` ranking: argument extraction from call text and test-code detection."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from jdx.engine.samples import call_arguments, is_test_code


def test_call_arguments_simple_and_nested():
    assert call_arguments(["x = api.greet(who, times);"], "greet") == ["who", "times"]
    assert call_arguments(["api.greet(f(a, b), new int[]{1, 2}, \"a,(b\")"], "greet") == \
        ["f(a, b)", "new int[]{1, 2}", '"a,(b"']
    assert call_arguments(["api.greet(", "  who,", "  times);"], "greet") == ["who", "times"]
    assert call_arguments(["api.size()"], "size") == []
    assert call_arguments(["api.regreet(x)"], "greet") is None  # a longer name is not the call
    assert call_arguments(["api.greet(x"], "greet") is None  # the call does not close in the window
    assert call_arguments(["api.greet('\\'', ')')"], "greet") == ["'\\''", "')'"]
    assert call_arguments(["x = 1;", "api.greet(a)"], "greet") is None  # the call starts on the site's line


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)  # regex generation is slow on a busy machine
@given(st.lists(st.from_regex(r"[a-z][a-z0-9]{0,6}", fullmatch=True), min_size=1, max_size=6))
def test_call_arguments_round_trip(args):
    assert call_arguments([f"obj.m({', '.join(args)});"], "m") == args


def test_test_code():
    assert is_test_code("com/x/test/Foo", "app.jar")
    assert is_test_code("com/x/FooTest", "app.jar")
    assert is_test_code("com/x/FooTests$Inner", "app.jar")
    assert is_test_code("com/x/TestFoo", "app.jar")
    assert is_test_code("com/x/Foo", "app-1.0-tests.jar")
    assert not is_test_code("com/x/Testament", "app.jar")
    assert not is_test_code("com/x/Contest", "app.jar")
    assert not is_test_code("java/util/HashMap", "java.base")
