"""The workbench's routes (Starlette): the page, its files, and a JSON API the page calls.

Every request body is read within MAX_BODY_BYTES and parsed as JSON within MAX_NESTING levels;
every failure is answered as JSON ``{"error": one line}`` with a status the page shows as a
message (400 bad input, 404 a game no longer held, 413 over a bound, 500 an error nobody
expected, with no traceback).  Nothing a request holds is run, imported or opened as a file:
components are named by the catalog's choices only.  The model's work runs in worker threads,
each game under its own lock.

Routes::

    GET  /                          the page
    GET  /static/...                its script, style sheet (no build step, nothing from elsewhere)
    GET  /api/catalog               rule sets, rulings, options, decks, bounds
    GET  /api/witnesses/{ruleset}   the witness traces of its rulings
    POST /api/games                 a new game: choices, seed, and a line (a link reopened)
    POST /api/load                  a game from an ITF vector or a text log
    POST /api/witness               a game at a ruling's witness position
    GET  /api/games/{id}            the game at its cursor (?view=all or seat-N)
    POST /api/games/{id}/play       a move, or random draws / moves
    POST /api/games/{id}/goto       the cursor to a step of the line
    POST /api/games/{id}/ask        may this move be made here? (the judge's answer)
    POST /api/games/{id}/compare    a ruling's two alternatives side by side from here
    GET  /api/games/{id}/export     the line as an ITF vector
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from . import bounds
from .bounds import MAX_BODY_BYTES, MAX_RANDOM_STEPS, MAX_SEED, BadInput, Gone, TooLarge
from .catalog import Catalog
from .compare import compare
from .games import Game, from_log, from_vector, new_game
from .store import Store
from .views import ALL, answer_view, game_view, seat_of

STATIC = Path(str(resources.files("tablerules.workbench").joinpath("static")))
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
                               "script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message.splitlines()[0] if message else "error", **extra}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read within MAX_BODY_BYTES (TooLarge before reading more)."""
    length = request.headers.get("content-length", "")
    if length.isascii() and length.isdigit() and int(length) > MAX_BODY_BYTES:
        raise TooLarge(f"the request is larger than {MAX_BODY_BYTES // (1024 * 1024)} MiB")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise TooLarge(f"the request is larger than {MAX_BODY_BYTES // (1024 * 1024)} MiB")
        chunks.append(chunk)
    return bounds.read_json(b"".join(chunks))


def _view_of(request: Request) -> str:
    view = request.query_params.get("view", ALL)
    return view[:20] if view else ALL


class Workbench:
    """The routes over one catalog and one store of games."""

    def __init__(self, catalog: Catalog, store: Store[Game]) -> None:
        self.catalog, self.store = catalog, store

    # ----------------------------------------------------------------- plumbing

    async def _run(self, work: Callable[[], Any]) -> Response:
        """``work()`` in a worker thread; its result as JSON (or the response it made), or its failure as one line."""
        try:
            result = await run_in_threadpool(work)
        except Gone as e:
            return _error(404, str(e), gone=True)
        except TooLarge as e:
            return _error(413, str(e))
        except BadInput as e:
            return _error(400, str(e))
        except RecursionError:
            return _error(400, "the input is nested too deeply")
        except Exception as e:  # noqa: BLE001 - a page gets one line, never a traceback
            first = str(e).splitlines()[0] if str(e) else ""
            sys.stderr.write(f"tablerules workbench: unexpected {type(e).__name__}: {first[:200]}\n")
            return _error(500, f"the workbench met an error it did not expect ({type(e).__name__}: {first[:160]}); "
                               "please report it with the link of this position")
        return result if isinstance(result, Response) else JSONResponse(result)

    async def _with_body(self, request: Request, work: Callable[[dict[str, Any]], Any]) -> Response:
        try:
            data = await _body(request)
        except TooLarge as e:
            return _error(413, str(e))
        except BadInput as e:
            return _error(400, str(e))
        return await self._run(lambda: work(data))

    def _held(self, request: Request, change: Callable[[Game], str] | None = None) -> dict[str, Any]:
        """The game the path names, changed by ``change`` (which returns a notice) under its lock, as a view."""
        game_id = request.path_params["game_id"]
        game = self.store.get(game_id)
        view = _view_of(request)
        with game.lock:
            seat_of(game, view)  # a bad view is refused before anything changes
            notice = change(game) if change is not None else ""
            return game_view(game, game_id, view, notice)

    def _hold(self, made: tuple[Game, str], view: str = ALL) -> dict[str, Any]:
        game, notice = made
        seat_of(game, view)
        return game_view(game, self.store.add(game), view, notice)

    # ----------------------------------------------------------------- routes

    async def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)

    async def catalog_route(self, request: Request) -> Response:
        def work() -> dict[str, Any]:
            start = self.catalog.start_deck
            return {"rulesets": self.catalog.rulesets(), "start_deck": start.name if start else None,
                    "bounds": {"max_line": bounds.MAX_LINE, "max_games": bounds.MAX_GAMES,
                               "max_listed": bounds.MAX_LISTED, "max_body_bytes": MAX_BODY_BYTES,
                               "compare_pairs": bounds.COMPARE_PAIRS}}
        return await self._run(work)

    async def witnesses(self, request: Request) -> Response:
        def work() -> list[dict[str, Any]]:
            return [{"key": w.key, "ruling": w.ruling, "file": w.file, "label": w.label, "steps": w.steps,
                     "note": w.note, "readings": w.readings, "compare": list(w.compare) if w.compare else None}
                    for w in self.catalog.witnesses(request.path_params["ruleset"])]
        return await self._run(work)

    async def new(self, request: Request) -> Response:
        def work(data: dict[str, Any]) -> dict[str, Any]:
            seed = bounds.int_field(data, "seed", 0, MAX_SEED, default=1)
            moves = bounds.move_list(data, "moves")
            game, notice = new_game(self.catalog, data, seed, moves)
            at = data.get("at")
            if at is not None:
                game.goto(bounds.int_field(data, "at", 0, len(game.steps)))
            return self._hold((game, notice), bounds.text_field(data, "view", 20, ALL))
        return await self._with_body(request, work)

    async def load(self, request: Request) -> Response:
        def work(data: dict[str, Any]) -> dict[str, Any]:
            kind = bounds.text_field(data, "kind", 10)
            text = bounds.text_field(data, "text", MAX_BODY_BYTES)
            name = bounds.text_field(data, "name", 200, "the text pasted") or "the text pasted"
            seed = bounds.int_field(data, "seed", 0, MAX_SEED, default=1)
            if kind == "itf":
                return self._hold(from_vector(self.catalog, text, name, seed))
            if kind == "log":
                return self._hold(from_log(self.catalog, text, data, seed, name))
            raise BadInput("kind: 'itf' (an ITF vector) or 'log' (one move a line)")
        return await self._with_body(request, work)

    async def witness(self, request: Request) -> Response:
        def work(data: dict[str, Any]) -> dict[str, Any]:
            w = self.catalog.witness(bounds.text_field(data, "ruleset", 40), bounds.text_field(data, "key", 200))
            view = self._hold(from_vector(self.catalog, w.document, w.file, kind="witness"))
            view["witness"] = {"ruling": w.ruling, "file": w.file, "label": w.label, "note": w.note,
                               "readings": w.readings, "compare": list(w.compare) if w.compare else None}
            return view
        return await self._with_body(request, work)

    async def show(self, request: Request) -> Response:
        return await self._run(lambda: self._held(request))

    async def play(self, request: Request) -> Response:
        def work(data: dict[str, Any]) -> dict[str, Any]:
            def change(game: Game) -> str:
                if "random" in data:
                    count = bounds.int_field(data, "random", 1, MAX_RANDOM_STEPS)
                    return game.random(count, seats=bool(data.get("seats")))
                game.play(bounds.text_field(data, "move"))
                return ""
            return self._held(request, change)
        return await self._with_body(request, work)

    async def goto(self, request: Request) -> Response:
        def work(data: dict[str, Any]) -> dict[str, Any]:
            def change(game: Game) -> str:
                game.goto(bounds.int_field(data, "at", 0, bounds.MAX_LINE))
                return ""
            return self._held(request, change)
        return await self._with_body(request, work)

    async def ask(self, request: Request) -> Response:
        def work(data: dict[str, Any]) -> dict[str, Any]:
            game = self.store.get(request.path_params["game_id"])
            with game.lock:
                return answer_view(game, bounds.text_field(data, "move"))
        return await self._with_body(request, work)

    async def compare_route(self, request: Request) -> Response:
        def work(data: dict[str, Any]) -> dict[str, Any]:
            game = self.store.get(request.path_params["game_id"])
            ruling = bounds.text_field(data, "ruling", 120)
            a, b = bounds.text_field(data, "a", 60), bounds.text_field(data, "b", 60)
            onward = bounds.move_list(data, "onward")
            with game.lock:
                if len(onward) + game.at > bounds.MAX_LINE:
                    raise TooLarge(f"onward: the line would pass {bounds.MAX_LINE:,} moves")
                return compare(game, ruling, a, b, onward, search=bool(data.get("search")))
        return await self._with_body(request, work)

    async def export(self, request: Request) -> Response:
        def work() -> Response:
            game = self.store.get(request.path_params["game_id"])
            with game.lock:
                text = game.export()
                name = f"{game.rules.id}-{game.setup.players}p-{game.at}-moves.itf.json"
            return Response(text, media_type="application/json",
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})
        return await self._run(work)


def create_app(catalog: Catalog | None = None, store: Store[Game] | None = None,
               allowed_hosts: list[str] | None = None) -> Starlette:
    """The workbench application; ``allowed_hosts`` (the command passes the loopback names when it
    listens on 127.0.0.1) refuses requests addressed to any other host name (DNS rebinding)."""
    w = Workbench(catalog if catalog is not None else Catalog(), store if store is not None else Store())
    routes = [
        Route("/", w.page),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
        Route("/api/catalog", w.catalog_route),
        Route("/api/witnesses/{ruleset}", w.witnesses),
        Route("/api/games", w.new, methods=["POST"]),
        Route("/api/load", w.load, methods=["POST"]),
        Route("/api/witness", w.witness, methods=["POST"]),
        Route("/api/games/{game_id}", w.show),
        Route("/api/games/{game_id}/play", w.play, methods=["POST"]),
        Route("/api/games/{game_id}/goto", w.goto, methods=["POST"]),
        Route("/api/games/{game_id}/ask", w.ask, methods=["POST"]),
        Route("/api/games/{game_id}/compare", w.compare_route, methods=["POST"]),
        Route("/api/games/{game_id}/export", w.export),
    ]

    async def http_error(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 500)
        what = {404: f"no such page: {request.url.path[:80]}", 405: f"{request.method} is not taken here"}
        return _error(status, what.get(status, str(getattr(exc, "detail", "")) or "error"))

    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)] if allowed_hosts else []
    app = Starlette(routes=routes, middleware=middleware, exception_handlers={HTTPException: http_error})
    app.state.workbench = w
    return app
