"""jdx: an IDE for AI agents over JVM code.

    >>> import jdx
    >>> ws = jdx.open(jars=["gson.jar"])
    >>> ws.cypher("MATCH (t:Type) RETURN t.fqn LIMIT 3").to_pandas()
"""

__version__ = "0.1.0"


def open(workspace=None, jars=(), jdk=True, cache_dir=None, coords=(), project=None, tests=False):  # noqa: A001
    """Opens a workspace graph (named, ad hoc from jars or Maven coordinates, or the project around the current
    directory or `project`) for Cypher queries."""
    from jdx.commands.api import open_workspace

    return open_workspace(workspace=workspace, jars=jars, jdk=jdk, cache_dir=cache_dir, coords=coords,
                          project=project, tests=tests)
