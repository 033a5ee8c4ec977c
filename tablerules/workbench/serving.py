"""The workbench served by uvicorn: the socket it listens on, and a server in a background thread
(for the browser tests and the docs' screenshots; the command serves in its main thread)."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

START_SECONDS = 60.0
"""How long :func:`in_thread` waits for the server to take requests before it gives up."""


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` (port 0: any free one); OSError if it cannot be had."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    family = infos[0][0] if infos else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)
    except OSError:
        sock.close()
        raise
    return sock


def address(sock: socket.socket) -> str:
    """`http://127.0.0.1:8150/`: the page's address for a listening socket."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def server(app: Any) -> Any:
    """A uvicorn server for ``app``: quiet (warnings only, no access log), no lifespan events."""
    import uvicorn

    return uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off"))


@contextmanager
def in_thread(app: Any, host: str = "127.0.0.1") -> Iterator[str]:
    """Serve ``app`` on a free port of ``host`` in a background thread while the block runs; yields the address."""
    sock = listen(host, 0)
    srv = server(app)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, name="tablerules-workbench", daemon=True)
    thread.start()
    deadline = time.monotonic() + START_SECONDS
    while not srv.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        if not srv.started:
            raise RuntimeError("the workbench server did not start")
        yield address(sock)
    finally:
        srv.should_exit = True
        thread.join(timeout=15)
        sock.close()
