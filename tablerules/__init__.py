"""tablerules: executable, checkable specifications of tabletop game rules, and a verifier.

In an installed copy the layers live inside this package (``tablerules.spec``, ``.model``,
``.proofs``).  In a checkout they are the folders beside this one (``spec/``, ``model/``,
``proofs/``: the layout pyproject.toml maps), so Python started in the repository root, where
this folder comes first on ``sys.path``, finds them there instead of failing to import them.
Only those three names are served from the checkout: the package's own path stays this folder,
so nothing else in the repository root (``tests/``, ``docs/``, this folder itself) becomes a
submodule, and a walk over the package ends.
"""

import importlib.util as _util
import os as _os
import sys as _sys

__version__ = "0.1.0"

_here = _os.path.dirname(_os.path.abspath(__file__))
_checkout = _os.path.dirname(_here)
_LAYERS = {"tablerules.spec": "spec", "tablerules.model": "model", "tablerules.proofs": "proofs"}


class _CheckoutLayers:
    """A finder for the three layers in the checkout's folders, and for nothing else."""

    @staticmethod
    def find_spec(name, path=None, target=None):  # noqa: ARG004 - the finder protocol's signature
        folder = _LAYERS.get(name)
        if folder is None:
            return None
        where = _os.path.join(_checkout, folder)
        return _util.spec_from_file_location(name, _os.path.join(where, "__init__.py"),
                                             submodule_search_locations=[where])


_in_checkout = _os.path.isfile(_os.path.join(_checkout, "model", "__init__.py"))
if not _os.path.isdir(_os.path.join(_here, "model")) and _in_checkout:
    if not any(isinstance(f, type) and f.__name__ == "_CheckoutLayers" for f in _sys.meta_path):
        _sys.meta_path.append(_CheckoutLayers)
