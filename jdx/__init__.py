"""jdx: an IDE for AI agents over JVM code.

    >>> import jdx
    >>> ws = jdx.open(jars=["gson.jar"])
    >>> ws.cypher("MATCH (t:Type) RETURN t.fqn LIMIT 3").to_pandas()
"""

import os as _os
import sys as _sys

__version__ = "0.1.0"

# Arrow's allocator for every jdx process (and the children it starts), unless the user chose one: jemalloc, in
# pyarrow's Linux wheels, hands freed pages back across threads, where mimalloc (the default) keeps them in the heap
# of each thread that allocated them (the Parquet reader's, the spool thread's). Measured side by side
# (docs/PERFORMANCE.md): the JDK's graph build 8.8 s and 0.99-1.02 GB instead of 9.2 s and 1.18-1.21 GB, a whole
# Maven repository's 2.9 GB instead of 3.4-3.6 GB. Only where pyarrow is not loaded yet (it reads the variable once).
if _sys.platform.startswith("linux") and "pyarrow" not in _sys.modules:
    _os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "jemalloc")


def open(workspace=None, jars=(), jdk=True, cache_dir=None, coords=(), project=None, tests=False):  # noqa: A001
    """Opens a workspace graph (named, ad hoc from jars or Maven coordinates, or the project around the current
    directory or `project`) for Cypher queries."""
    from jdx.commands.api import open_workspace

    return open_workspace(workspace=workspace, jars=jars, jdk=jdk, cache_dir=cache_dir, coords=coords,
                          project=project, tests=tests)
