"""``congo serve``: play, analyse and watch Congo in the browser (``pip install 'congo-chess[serve]'``).

:func:`congo.serve.app.create_app` makes the Starlette application; ``congo serve`` runs it with
uvicorn. See ``docs/serve.md``. Importing :mod:`congo` never imports this package.
"""
