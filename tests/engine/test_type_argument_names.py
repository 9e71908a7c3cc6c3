"""Names as agents write them: nested classes dotted as source and jdx's own output write them (`Map.Entry`,
`Thread.State`), Kotlin's names for type arguments (`ArrayDeque<Int>` is `ArrayDeque<Integer>`), and a short type
argument never resolved to a JDK class no code outside the JDK can use (`java.awt.TexturePaintContext$Int`, package
private). Oracle for the nested names: javac resolves `Map.Entry` (with `import java.util.*`) to java.util.Map$Entry."""

from __future__ import annotations

import re

import pytest

from jdx.engine.members import MemberOptions
from jdx.errors import AmbiguousError, UsageError
from tests.service import JdxService, Options


@pytest.fixture(scope="module")
def service(jdx_home):
    svc = JdxService(Options(cache_dir=str(jdx_home / "cache")))
    yield svc
    svc.close()


def _footer_type(service, text: str) -> str:
    r = service.members(text, MemberOptions()).result
    return r["type"] + "<" + ", ".join(r["type_arguments"].values()) + ">"


@pytest.mark.parametrize("written, resolved", [("Map.Entry", "java.util.Map$Entry"),
                                               ("Thread.State", "java.lang.Thread$State"),
                                               ("AbstractMap.SimpleEntry", "java.util.AbstractMap$SimpleEntry")])
def test_dotted_nested_short_names_resolve(service, written, resolved):
    assert service.members(written, MemberOptions()).result["type"] == resolved


def test_dotted_nested_names_in_type_arguments_and_member_refs(service, run_jdx):
    assert _footer_type(service, "java.util.EnumMap<Thread.State, String>") == \
        "java.util.EnumMap<java.lang.Thread$State, java.lang.String>"
    r = run_jdx("signature", "Map.Entry#getKey")
    assert r.code == 0 and "java.util.Map$Entry#getKey()" in r.out, r.out


@pytest.mark.parametrize("arg, jvm", [("Int", "java.lang.Integer"), ("Any", "java.lang.Object"),
                                      ("kotlin.Int", "java.lang.Integer"), ("kotlin.Long", "java.lang.Long"),
                                      ("Char", "java.lang.Character")])
def test_kotlin_names_of_type_arguments(service, arg, jvm):
    # `Int` is also the simple name of java.awt.TexturePaintContext$Int, which no code outside java.desktop can name
    assert _footer_type(service, f"java.util.ArrayList<{arg}>") == f"java.util.ArrayList<{jvm}>"


def test_a_short_type_argument_skips_jdk_internals_and_says_how_many(service):
    # Entry: three public nested classes (java.util.Map$Entry, java.security.KeyStore$Entry, ...): still ambiguous
    with pytest.raises(AmbiguousError, match=re.escape("type argument 'Entry' names ")) as exc:
        service.members("java.util.ArrayList<Entry>", MemberOptions())
    assert "java.util.Map$Entry" in [c["ref"] for c in exc.value.candidates] and "qualify it" in exc.value.message


def test_an_extra_closing_bracket_says_so(service):
    with pytest.raises(UsageError, match=re.escape("'java.util.HashMap<String,Integer>>': unbalanced '>'")):
        service.members("java.util.HashMap<String,Integer>>", MemberOptions())
