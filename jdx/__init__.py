"""jdx: an IDE for AI agents over JVM code.

    >>> import jdx
    >>> ws = jdx.open(jars=["gson.jar"])
    >>> ws.cypher("MATCH (t:Type) RETURN t.fqn LIMIT 3").to_pandas()
"""

__version__ = "0.1.0"


def open(workspace=None, jars=(), jdk=True, cache_dir=None):  # noqa: A001 - the API's verb
    """Opens a workspace graph (named, or ad hoc from jars) for Cypher queries."""
    from jdx.commands.api import open_workspace

    return open_workspace(workspace=workspace, jars=jars, jdk=jdk, cache_dir=cache_dir)
