"""tablerules: executable, checkable specifications of tabletop game rules, and a verifier.

In an installed copy the layers live inside this package (``tablerules.spec``, ``.model``,
``.proofs``).  In a checkout they are the folders beside this one (``spec/``, ``model/``,
``proofs/``: the layout pyproject.toml maps), so Python started in the repository root, where
this folder comes first on ``sys.path``, finds them there instead of failing to import them.
"""

import os as _os

__version__ = "0.1.0"

_here = _os.path.dirname(_os.path.abspath(__file__))
_checkout = _os.path.dirname(_here)
_installed = _os.path.isdir(_os.path.join(_here, "model"))
if not _installed and _os.path.isfile(_os.path.join(_checkout, "model", "__init__.py")):
    __path__.append(_checkout)  # the checkout's layers: tablerules.model is <checkout>/model
