"""kotlinc 2 compiles a lambda to a private static method of the enclosing class, `foo$lambda$0` (nested ones
`foo$lambda$0$lambda$1`), handed over by invokedynamic as javac's `lambda$foo$0` is, but not marked synthetic: its
sites are `foo`'s, in lambda (docs/relationships.md). The fixture reproduces that shape with javac (a method
reference to a private static method named as kotlinc names lambda bodies compiles to the same invokedynamic
handle; `javap -c` is the oracle for the handle)."""

from __future__ import annotations


import pytest

from tests.fixtures.javac import javac_jar
from tests.service import JdxService, Options
from tests.fixtures import jdktool

SOURCE = """package kl;

import java.util.function.ToIntFunction;

public class K {
    private static int lint$lambda$1(String s) {
        return target(s);
    }

    private static int lint$lambda$1$lambda$2(String s) {
        return target(s) + 1;
    }

    static int target(String s) {
        return s.length();
    }

    public ToIntFunction<String> lint() {
        ToIntFunction<String> inner = K::lint$lambda$1$lambda$2;
        return K::lint$lambda$1;
    }

    public int lint$lambda$named() {
        return target("x");
    }
}
"""


def _line(needle: str) -> int:
    (n,) = [i for i, line in enumerate(SOURCE.splitlines(), 1) if needle in line]
    return n


@pytest.fixture(scope="module")
def service(tmp_path_factory, jdx_home):
    jar, classes = javac_jar(tmp_path_factory.mktemp("kl"), {"kl/K.java": SOURCE}, "kl", "kl.jar")
    javap = jdktool.run(["javap", "-c", "-p", "-v", "-cp", str(jar), "kl.K"], capture_output=True, text=True,
                           check=True).stdout
    assert "REF_invokeStatic kl/K.lint$lambda$1:" in javap  # the handle kotlinc 2 writes
    svc = JdxService(Options(jars=[str(jar)], jdk=False, cache_dir=str(jdx_home / "cache")))
    yield svc
    svc.close()


def test_sites_in_a_kotlin2_lambda_body_are_the_writer_s_in_lambda(service):
    from jdx.engine.rel_usages import UsageOptions

    got = service.usages("kl.K#target", UsageOptions())
    sites = {(s["caller"], s["line"], s["in_lambda"]) for g in got.result["groups"] for c in g["callers"]
             for s in c["sites"]}
    assert sites == {("kl.K#lint()", _line("return target(s);"), True),
                     ("kl.K#lint()", _line("return target(s) + 1;"), True),
                     # a public method that only looks like a body: its own caller
                     ("kl.K#lint$lambda$named()", _line('return target("x");'), False)}


def test_callers_attribute_the_same(service):
    from jdx.engine.rel_calls import CallOptions

    tree = service.callers("kl.K#target", CallOptions(depth=1)).result["roots"][0]["tree"]
    assert sorted((e["method"], e.get("in_lambda", False)) for e in tree) == [
        ("kl.K#lint$lambda$named()", False), ("kl.K#lint()", True)]


@pytest.mark.parametrize("mid, access, expected", [
    ("a/B#lambda$run$0()V", 0x1000 | 0x8 | 0x2, True),  # javac
    ("a/B#lambda$run$0()V", 0x2, False),  # not synthetic: not javac's
    ("a/B#run$lambda$0(I)V", 0x2 | 0x8 | 0x10, True),  # kotlinc 2: private static final
    ("a/B#run$lambda$0$lambda$1(I)V", 0x2 | 0x8, True),
    ("a/B#run$lambda$0(I)V", 0x1, False),  # public: a declaration
    ("a/B#run$lambda$x(I)V", 0x2, False),
])
def test_is_lambda(mid, access, expected):
    from jdx.engine.relations import is_lambda

    assert is_lambda({"id": mid, "access": access}) is expected
