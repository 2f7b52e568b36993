"""The server extension's endpoints, under ``<base_url>canasta-tutor/api/``: thin tornado
handlers over :mod:`.panel`, :mod:`.placement` and the rule book.

- ``GET course``: the course (its lessons, their notebooks' paths, the other pages) and
  whether it is in the Jupyter root yet;
- ``POST course``: place (or bring up to date) the course in the Jupyter root
  (:func:`~.placement.place_course`: a file the learner changed is never overwritten);
- ``GET progress``: the learner's stars and puzzle rating, read from the progress store
  (read-only; an ``ETag`` lets the panel poll for a new star cheaply).  A missing store
  answers 404 and a damaged one 500, each with ``{"error": CODE, "message": TEXT}``;
- ``GET rules``: the rule book's Markdown and its rule numbers.

Every handler is a Jupyter ``APIHandler``: a request without the user's token or
cookie is refused (403), as on every Jupyter endpoint, and answers are JSON.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

from jupyter_server.auth.decorator import authorized
from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado import web

from ..engine.rulebook import book_path, rules
from ..tutor.progress import ProgressStoreError, default_path
from .panel import LEARNER, NoStoreYet, course_listing, progress_report, store_fingerprint
from .placement import COURSE_FOLDER, MANIFEST, PlacementError, place_course

NAMESPACE = "canasta-tutor"
#: the progress endpoint's ETag while the learner has no store
NO_STORE_TAG = '"no-store"'


class _Handler(APIHandler):
    auth_resource = NAMESPACE

    def _root(self) -> Path:
        return Path(self.settings["server_root_dir"]).expanduser()

    def _folder(self) -> str:
        return str(self.settings.get("canasta_tutor_folder", COURSE_FOLDER))

    def _error(self, status: int, code: str, message: str) -> None:
        self.set_status(status)
        self.finish(json.dumps({"error": code, "message": message}))

    def _course(self) -> dict[str, Any]:
        data = course_listing(self._folder())
        data["placed"] = (self._root() / self._folder() / MANIFEST).is_file()
        return data


class CourseHandler(_Handler):
    @web.authenticated
    @authorized
    async def get(self) -> None:
        self.finish(json.dumps(self._course()))

    @web.authenticated
    @authorized
    async def post(self) -> None:
        try:
            done = await asyncio.to_thread(place_course, self._root() / self._folder())
        except PlacementError as e:
            self._error(500, "cannot-place", str(e))
            return
        if done.written:
            self.log.info("canasta-tutor: placed %d course files in %s/", len(done.written), self._folder())
        self.finish(json.dumps({**self._course(), "placement": done.to_dict()}))


class ProgressHandler(_Handler):
    @web.authenticated
    @authorized
    async def get(self) -> None:
        path = Path(self.settings.get("canasta_tutor_store") or default_path())
        # while there is no store, the panel's polls are answered 304 too (not a 404 logged every time)
        tag = store_fingerprint(path) or NO_STORE_TAG
        if self.request.headers.get("If-None-Match") == tag:
            self.set_status(304)
            self.finish()
            return
        try:
            data = await asyncio.to_thread(progress_report, path, LEARNER)
        except NoStoreYet as e:
            self.set_header("ETag", NO_STORE_TAG)
            self._error(404, "no-store", str(e))
            return
        except ProgressStoreError as e:
            if e.cause in ("locked", "io"):  # a sound store that is busy or unreadable for a moment
                self._error(503, "store-busy", f"Your progress cannot be read just now ({e}); it is tried again.")
            else:
                self._error(500, "damaged-store", f"Your progress cannot be read: {e}")
            return
        except sqlite3.Error as e:  # a sound store that is busy or unreadable for a moment
            self._error(503, "store-busy", f"Your progress cannot be read just now ({e}); it is tried again.")
            return
        self.set_header("ETag", tag)
        self.set_header("Cache-Control", "no-cache")
        self.finish(json.dumps(data))


class RulesHandler(_Handler):
    @web.authenticated
    @authorized
    async def get(self) -> None:
        text = book_path().read_text(encoding="utf-8")
        self.finish(json.dumps({"markdown": text, "rules": sorted(rules())}))


def setup_handlers(web_app: Any) -> None:
    """Add the endpoints to the Jupyter server's tornado application."""
    base = url_path_join(web_app.settings["base_url"], NAMESPACE, "api")
    web_app.add_handlers(".*$", [
        (url_path_join(base, "course"), CourseHandler),
        (url_path_join(base, "progress"), ProgressHandler),
        (url_path_join(base, "rules"), RulesHandler),
    ])


__all__ = ["NAMESPACE", "CourseHandler", "ProgressHandler", "RulesHandler", "setup_handlers"]
