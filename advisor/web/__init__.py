"""The web page and HTTP API of ``yahtzee serve``.

:mod:`.queries` answers each API request from its parameters with the library calls the
CLI makes (framework-free); :mod:`.charts` computes score distributions off the event
loop; :mod:`.app` is the ASGI application (Starlette) with the static page in ``static/``.
"""
