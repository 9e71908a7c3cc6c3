"""A `$` in a top-level class's own name nests nothing (trial T65: Scala's `None$`, `$colon$colon`,
`$less$colon$less`): `imports` wrote `import scala.None.;` and `show` `class $less.colon.less<From, To>`. A `$` is
read as nesting only where the class is nested (its InnerClasses entry: the graph's `outer`). javac is the oracle: it
compiles a client importing the names as jdx writes them, and javap names the declarations."""

from __future__ import annotations

import json

import pytest

from tests.fixtures import jdktool
from tests.fixtures.javac import javac_jar

pytestmark = pytest.mark.soak  # a trial's regression family with its own graph builds: the soak runs it whole (.ci/run)

SOURCES = {
    "dl/None$.java": "package dl; public final class None$ { public static final None$ MODULE$ = new None$(); }",
    "dl/$less$colon$less.java": "package dl; public abstract class $less$colon$less<From, To> { }",
    "dl/Opt.java": """package dl;
public class Opt<A> {
    public static class Inner { }
    public <B> Opt<B> flatten($less$colon$less<A, Opt<B>> ev) { return null; }
}
""",
}


@pytest.fixture(scope="module")
def jar(tmp_path_factory):
    return javac_jar(tmp_path_factory.mktemp("dollar-names"), SOURCES, "dl", "dl.jar")[0]


def _statement(run_jdx, jar, ref: str) -> str:
    r = run_jdx("imports", ref, "--jars", str(jar), "--json")
    assert r.code == 0, r.out + r.err
    return json.loads(r.out)["result"]["imports"][0]["statement"]


def test_imports_write_what_javac_compiles(run_jdx, jar, tmp_path):
    statements = [_statement(run_jdx, jar, ref) for ref in ("dl.None$", "dl.$less$colon$less", "dl.Opt$Inner")]
    assert statements == ["import dl.None$;", "import dl.$less$colon$less;", "import dl.Opt.Inner;"]
    client = tmp_path / "c" / "Client.java"
    client.parent.mkdir()
    client.write_text("package c;\n" + "\n".join(statements) + "\npublic class Client {\n"
                      "  Object a = None$.MODULE$; $less$colon$less<String, String> b; Inner c;\n}\n")
    done = jdktool.run(["javac", "-d", str(tmp_path / "out"), "-cp", str(jar), str(client)],
                       capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_declarations_and_parameters_keep_the_literal_dollar(run_jdx, jar):
    card = run_jdx("show", "dl.$less$colon$less", "--jars", str(jar)).out
    assert "public abstract class $less$colon$less<From, To>" in card, card
    outline = run_jdx("outline", "dl.Opt", "--jars", str(jar)).out
    assert "flatten($less$colon$less<A, Opt<B>>" in outline, outline
    assert "class Opt.Inner" in run_jdx("show", "dl.Opt$Inner", "--jars", str(jar)).out
