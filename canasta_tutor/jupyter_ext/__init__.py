"""canasta-tutor as a Jupyter extension: the server half.

The wheel ships two halves, both enabled by ``pip install`` alone:

- the **lab extension** (``labextension/`` here, built from the repository's
  ``labextension/`` folder when the wheel is built, installed as
  ``share/jupyter/labextensions/canasta-tutor``): the launcher's "Canasta Tutor"
  cards, the command palette's Canasta commands, the Help menu's rule book and the
  course side panel, in JupyterLab 4 and Notebook 7;
- this **server extension**, enabled by ``etc/jupyter/jupyter_server_config.d/canasta_tutor.json``:
  it places the course in the Jupyter root on first use (:mod:`.placement`) and answers
  the side panel from the learner's progress store (:mod:`.handlers`, :mod:`.panel`).

Without the server half (JupyterLite) the lab extension still lists the course from the
file system and says where the stars show.
"""

from __future__ import annotations

from typing import Any


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "canasta_tutor.jupyter_ext"}]


def _jupyter_labextension_paths() -> list[dict[str, str]]:
    return [{"src": "labextension", "dest": "canasta-tutor"}]


def _load_jupyter_server_extension(server_app: Any) -> None:
    from .handlers import setup_handlers

    setup_handlers(server_app.web_app)
    server_app.log.info("canasta-tutor: the course and progress endpoints are at %scanasta-tutor/api/",
                        server_app.web_app.settings["base_url"])


__all__: list[str] = []
