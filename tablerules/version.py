"""The version of tablerules, written in one place: pyproject.toml reads it from here, the tool
reports it (``tablerules --version``, the ``tablerules`` field of every JSON document).

``tablerules`` itself is a namespace package (no ``__init__.py``): see the README's design section.
"""

__version__ = "0.1.0"
