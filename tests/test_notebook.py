"""The notebook is executed by the suite, so it cannot rot."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "explore_graph.ipynb"


@pytest.mark.soak  # runs the whole notebook (~3 s); CI's soak runs it
def test_explore_graph_notebook_runs(jdx_env, monkeypatch):
    for key in ("JDX_CACHE_DIR", "JDX_CONFIG_DIR"):
        monkeypatch.setenv(key, jdx_env[key])
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3").execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = str(outputs)
    assert "java.io.Serializable" in text  # the most implemented interface of the JDK
