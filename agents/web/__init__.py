"""The web app behind ``semiautomines serve``: play, analyse, watch and replay in a browser.

A Starlette app (:func:`.app.create_app`) serving the page in ``static/`` and a JSON
API under ``/api/`` that a script can call as the page does. Starlette and uvicorn
come with the ``web`` extra; nothing here imports them until the app is made.
"""
