"""The graph build needs pyarrow alone: numpy is no dependency of jdx (`pip install .` brings none), and a
`to_numpy()` in the search index's access-bridge pass failed the README's first command on a fresh machine
(ImportError: Cannot return a numpy.ndarray if NumPy is not present) while the test extras, which bring numpy, passed.
Oracle: a process in which `import numpy` fails."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys
sys.modules["numpy"] = None  # `import numpy` raises ImportError, as on a machine without it
import pyarrow as pa
from jdx.loaders.graph_build import ACC_BRIDGE, ACC_PUBLIC, ACC_SYNTHETIC, _bridged
bridge = ACC_PUBLIC | ACC_BRIDGE | ACC_SYNTHETIC
methods = pa.table({"owner": ["p/Base", "p/Base", "p/Pub"], "name": ["set", "hidden", "set"],
                    "descriptor": ["(I)V", "()V", "(I)V"], "access": pa.array([ACC_PUBLIC, 0, bridge], pa.int32())})
public_types = pa.array(["p/Pub"])
reached = pa.array([False, False, True])
print(_bridged(methods, reached, methods, public_types).to_pylist())
"""


def test_the_access_bridge_pass_runs_without_numpy():
    run = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[True, False, True]"
