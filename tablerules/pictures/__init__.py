"""Pictures of the rules, drawn from the project's own functions (for the documentation site).

* :mod:`~tablerules.pictures.svg`: a small SVG writer (no dependency);
* :mod:`~tablerules.pictures.positions`: a table position drawn from a state's
  ``state_vars`` (Dishes places and stacks; Just Desserts guests, tableaux, hand sizes);
* :mod:`~tablerules.pictures.figures`: the numbers behind the figures (states per level of a
  search, the state graph of a tiny configuration, game lengths under random play, what
  each ruling alternative changes), computed through the public rule set API;
* :mod:`~tablerules.pictures.plots`: those numbers as matplotlib figures (optional
  dependency: ``pip install '.[docs]'``);
* :mod:`~tablerules.pictures.witnesses`: a ruling's witness trace as table rows and the
  position where the readings part.

Everything here reads states only through ``RuleSet.state_vars`` and ``observation``, so a
picture changes when the rules do and never reaches into a model's internals.
"""
