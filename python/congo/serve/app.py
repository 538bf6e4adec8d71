"""The web layer of ``congo serve``: a Starlette application with one page, its static files and a
WebSocket per browser tab. What a tab's messages do is the session's (:mod:`congo.serve.session`);
here are the guard, the routes and the socket's plumbing.

The server is authoritative: the page shows what the server sends (the board as ``congo.svg``
renders it, the legal moves, the chain continuations) and asks for everything else; every move is
checked here. Every request needs the access token (``?token=``), one ``Host`` header naming this
machine, and (when the browser sends one) an ``Origin`` of this server (scheme, host and port);
WebSocket messages are capped at :data:`MAX_MESSAGE` bytes.

Every per-connection resource is bounded, so that one tab cannot stall another: the messages
waiting to be sent to a tab (:data:`~congo.serve.session.MAX_QUEUE`; a tab that does not read
them is closed) and those waiting to be handled (:data:`MAX_INBOX`; those of a tab that has gone
are dropped), the sockets per game and in all (:class:`Settings`), the legal moves sent with a
position (:data:`~congo.serve.session.MAX_LEGAL_SENT`; beyond that they are asked for as they are
typed), and the time a request may take to arrive (:data:`REQUEST_TIMEOUT`). A message for every
tab of a game is serialised once.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import html
import ipaddress
import json
import re
import secrets
import threading
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any, Callable
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

import congo.svg
from congo.serve import session
from congo.serve.session import (
    DEFAULT_LIMIT,
    LOOPBACK_HOSTS,
    OVERFLOW,
    BoardSession,
    Busy,
    Hub,
    Settings,
    Subscriber,
    parse_limit,
)

__all__ = ["LOOPBACK_HOSTS", "MAX_MESSAGE", "Hub", "Settings", "create_app", "parse_limit", "server_config"]

MAX_MESSAGE = 1 << 20
"""The largest WebSocket message accepted, in bytes (a pasted record must fit)."""
MAX_INBOX = 64
"""Messages from one tab waiting to be handled: a tab that sends more at once is closed (1008)."""
REQUEST_TIMEOUT = 10.0
"""Seconds a connection may take to send a whole request (its headers) before it is closed."""
LEAVE_TIMEOUT = 10.0
"""Seconds a cancelled tab's socket waits for its leaving to end (the game's lock, held by a
message being handled, is let go well within it)."""
MAX_CONNECTIONS = 256
"""Connections and requests served at once; beyond that uvicorn answers 503."""
LIMIT_CHOICES = (
    ("nodes:2000", "2,000 nodes"),
    ("nodes:20000", "20,000 nodes"),
    ("depth:4", "depth 4"),
    ("depth:8", "depth 8"),
    ("time:1", "1 second"),
    ("time:5", "5 seconds"),
)

BOARD_GEOMETRY = {
    "square": congo.svg.SQUARE_SIZE,
    "margin": congo.svg.MARGIN,
    "board": 7 * congo.svg.SQUARE_SIZE + 2 * congo.svg.MARGIN,
}
"""The drawn board's geometry in its own units (``congo.svg``'s), given to the page, which lays
its square buttons over the picture by it."""

STATIC_FILES = {"app.js": "text/javascript", "style.css": "text/css"}


# -- HTTP and WebSocket -----------------------------------------------------------------------------


_HOST = re.compile(r"(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9._-]+))(?::(?P<port>[0-9]{1,5}))?")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def split_host(value: str) -> tuple[str, int | None] | None:
    """``host[:port]`` of a ``Host`` header (an IPv6 address in brackets) as (lower-case host,
    port or ``None``); ``None`` for anything else (``evil.com@127.0.0.1``, ``127.0.0.1#x``,
    ``127.0.0.1/x``, a port above 65535)."""
    found = _HOST.fullmatch(value)
    if found is None:
        return None
    port = None if found["port"] is None else int(found["port"])
    if port is not None and port > 65535:
        return None
    host = found["v6"] or found["name"]
    if found["v6"] is not None:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return None
    return host.lower(), port


def is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class Guard:
    """Refuses every request without the token, with a ``Host`` that is not this machine's (or
    more than one), or with an ``Origin`` other than this server's own (scheme, host and port, as
    the ``Host`` header names it). ``/favicon.ico`` alone needs no token (browsers ask for it
    without one): it is an empty answer (204)."""

    def __init__(self, app: ASGIApp, token: str, hosts: frozenset[str], *, any_address: bool = False) -> None:
        self.app = app
        self.token = token
        self.hosts = frozenset(host.lower().strip("[]") for host in hosts)
        self.any_address = any_address

    def _host(self, values: list[str]) -> tuple[str, int | None] | None:
        if len(values) != 1:  # none, or two (which one a proxy would read is anyone's guess)
            return None
        parsed = split_host(values[0])
        if parsed is None:
            return None
        host = parsed[0]
        if host in self.hosts or (self.any_address and is_address(host)):
            return parsed
        return None

    def _origin_ok(self, values: list[str], scheme: str, host: str, port: int) -> bool:
        if not values:
            return True  # not a browser's request from a page (curl, the page's own navigation)
        if len(values) != 1:
            return False
        found = re.fullmatch(r"(?P<scheme>https?)://(?P<host>[^/?#@]+)", values[0].lower())
        if found is None:
            return False
        parsed = split_host(found["host"])
        if parsed is None:
            return False
        origin_port = parsed[1] if parsed[1] is not None else _DEFAULT_PORTS[found["scheme"]]
        return (found["scheme"], parsed[0], origin_port) == (scheme, host, port)

    def refusal(self, scope: Scope) -> str | None:
        headers: dict[str, list[str]] = {}
        for key, value in scope.get("headers", []):
            headers.setdefault(key.decode("latin-1").lower(), []).append(value.decode("latin-1"))
        host = self._host(headers.get("host", []))
        if host is None:
            return "foreign Host header"
        given: str = scope.get("scheme") or "http"
        scheme = {"ws": "http", "wss": "https"}.get(given, given)
        port = host[1] if host[1] is not None else _DEFAULT_PORTS.get(scheme, 80)
        if not self._origin_ok(headers.get("origin", []), scheme, host[0], port):
            return "foreign Origin"
        if scope.get("path") == "/favicon.ico":
            return None
        query = scope.get("query_string", b"").decode("latin-1")
        given = parse_qs(query).get("token", [""])[0]
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return "missing or wrong token"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            why = self.refusal(scope)
            if why is not None:
                if scope["type"] == "http":
                    await PlainTextResponse(f"403 Forbidden: {why}\n", status_code=403)(scope, receive, send)
                else:
                    await send({"type": "websocket.close", "code": 1008, "reason": why})
                return
        await self.app(scope, receive, send)


def _static(name: str) -> str:
    return resources.files("congo.serve").joinpath("static", name).read_text(encoding="utf-8")


def create_app(
    settings: Settings | None = None, *, token: str | None = None, hub: Hub | None = None
) -> tuple[ASGIApp, Hub, str]:
    """The application, its state and its token (made up when not given)."""
    token = token or secrets.token_urlsafe(24)
    hub = hub or Hub(settings)
    page_template = _static("index.html")

    async def page(request: Request) -> Response:
        config = {"token": token, "match": hub.match is not None, **BOARD_GEOMETRY}
        board = await asyncio.to_thread(hub.first_board, request.query_params)
        text = (
            page_template.replace("{{TOKEN}}", html.escape(token, quote=True))
            .replace("{{CONFIG}}", html.escape(json.dumps(config), quote=True))
            .replace("{{LIMITS}}", _limit_options())
        )
        match_view = request.query_params.get("mode") == "match"
        text = text.replace("{{MATCHBOARD}}", board if match_view else "")
        text = text.replace("{{BOARD}}", "" if match_view else board)
        return HTMLResponse(
            text,
            headers={
                "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self';"
                " script-src 'self'; connect-src 'self'",
                "Cache-Control": "no-store",
                "Referrer-Policy": "no-referrer",
            },
        )

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC_FILES:
            return PlainTextResponse("not found\n", status_code=404)
        return Response(_static(name), media_type=STATIC_FILES[name], headers={"Cache-Control": "no-store"})

    async def favicon(request: Request) -> Response:
        return Response(status_code=204, headers={"Cache-Control": "max-age=86400"})

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        if hub.sockets >= hub.settings.max_sockets:
            await websocket.close(code=1013, reason="too many tabs open: close some")
            return
        hub.sockets += 1
        try:
            await _serve_socket(hub, websocket)
        finally:
            hub.sockets -= 1

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/favicon.ico", favicon),
            Route("/static/{name}", static),
            WebSocketRoute("/ws", socket),
        ],
        lifespan=_lifespan(hub),
    )
    guard = Guard(app, token, hub.settings.allowed_hosts, any_address=hub.settings.any_address)
    return guard, hub, token


def _limit_options() -> str:
    """The page's strength menu, the default chosen: the one list of them (:data:`LIMIT_CHOICES`)."""
    options = []
    for value, label in LIMIT_CHOICES:
        chosen = " selected" if value == DEFAULT_LIMIT else ""
        options.append(f'<option value="{value}"{chosen}>{html.escape(label)}</option>')
    return "".join(options)


async def _serve_socket(hub: Hub, websocket: WebSocket) -> None:
    """One tab: its messages are read as they come (into an inbox of at most :data:`MAX_INBOX`)
    and handled one at a time; those still waiting when the tab goes are dropped."""
    params = websocket.query_params
    view = params.get("view", "game")
    loop = asyncio.get_running_loop()
    # The side the tab shows the board from, as the page starts (it says so when it turns it).
    subscriber = Subscriber(loop, side="black" if params.get("side") == "black" else "white")
    game: BoardSession | None = None
    if view == "match":
        if hub.match is None:
            await websocket.send_json({"type": "error", "message": "no match is being played"})
            await websocket.close()
            return
        if len(hub.match.subscribers) >= hub.settings.max_sockets_per_game:
            await websocket.close(code=1013, reason="the match is open in too many tabs: close some")
            return
        hub.match.subscribe(subscriber)
    else:
        try:
            fresh = bool(params.get("fen")) or params.get("mode") == "play"
            game = await asyncio.to_thread(hub.game, params.get("game"), fresh, subscriber)
        except Busy as error:
            await websocket.close(code=1013, reason=str(error)[:120])
            return
        except ValueError as error:
            await websocket.send_json({"type": "error", "message": str(error)})
            await websocket.close()
            return
        mode = params.get("mode")
        if not params.get("game") and fresh:
            # A tab that asked for its own game sets it up.
            setup = {
                "type": "new",
                "mode": mode or "analyse",
                "side": params.get("side", "white"),
                "limit": params.get("limit", game.limit_text),
                "fen": params.get("fen"),
            }
            try:
                await asyncio.to_thread(session.handle, hub, game, setup)
            except ValueError as error:
                await websocket.send_json({"type": "error", "message": str(error)})
        else:
            await asyncio.to_thread(game.join, subscriber)

    closing: list[tuple[int, str]] = []  # why the server closes the socket, if it does

    async def sender() -> None:
        while True:
            text = await subscriber.get()
            if text is None:
                return
            if text is OVERFLOW:
                closing.append((1008, "the tab did not read its messages"))
                return
            await websocket.send_text(text)

    inbox: asyncio.Queue[str] = asyncio.Queue()
    gone = asyncio.Event()

    async def reader() -> None:
        try:
            while True:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    return
                text = received.get("text")
                if text is None and received.get("bytes") is not None:
                    text = received["bytes"].decode("utf-8", "replace")
                if text is None:
                    continue
                if len(text.encode("utf-8")) > MAX_MESSAGE:
                    closing.append((1009, "message too big"))
                    return
                if inbox.qsize() >= MAX_INBOX:
                    closing.append((1008, "too many messages waiting"))
                    return
                inbox.put_nowait(text)
        except (WebSocketDisconnect, RuntimeError):
            return
        finally:
            gone.set()
            while not inbox.empty():  # a tab that has gone: what it sent is not handled
                inbox.get_nowait()

    async def handler() -> None:
        while not gone.is_set():
            text = await inbox.get()
            if gone.is_set():
                return
            kind: object = None
            try:
                message = json.loads(text)
                if not isinstance(message, dict):
                    raise ValueError("a message is a JSON object")
                kind = message.get("type")
                if game is None:
                    raise ValueError("the match view only watches")
                # The reply is queued to the tab by the handler, in order with the game's states.
                await asyncio.to_thread(session.handle, hub, game, message, subscriber)
            except RecursionError:
                closing.append((1008, "message nested too deeply"))
                return
            except (ValueError, TypeError) as error:
                subscriber.send({"type": "error", "message": str(error), "request": str(kind)})

    tasks = [asyncio.create_task(job()) for job in (sender, reader, handler)]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        # The tab's leaving (which frees its place and, for the last tab, stops its game's engines)
        # is set going before anything here awaits, and ends before this task does even when the
        # task is cancelled (a server that stops, a test client that closes): cancelled, an awaited
        # to_thread call is dropped if its thread had not begun.
        left = threading.Event()

        def leave() -> None:
            try:
                if game is not None:
                    game.leave(subscriber)
            finally:
                left.set()

        if game is None and hub.match is not None:
            hub.match.unsubscribe(subscriber)
        leaving = loop.run_in_executor(None, leave)
        try:
            for task in tasks:
                await _cancel(task)
            if closing:
                with contextlib.suppress(Exception):
                    await websocket.close(code=closing[0][0], reason=closing[0][1])
            await asyncio.shield(leaving)
        except asyncio.CancelledError:
            left.wait(LEAVE_TIMEOUT)
            raise


class _TimedProtocol:
    """Mixed into uvicorn's HTTP protocol: a connection that has not sent a whole request within
    :data:`REQUEST_TIMEOUT` seconds of opening (or of its last response) is closed."""

    timeout_request_task: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def _arm(self) -> None:
        loop: asyncio.AbstractEventLoop = self.loop  # type: ignore[attr-defined]
        self.timeout_request_task = loop.call_later(REQUEST_TIMEOUT, self._request_timed_out)

    def _request_timed_out(self) -> None:
        transport = self.transport  # type: ignore[attr-defined]
        if transport.is_closing() or transport.get_protocol() is not self:
            return  # closed, or upgraded to a WebSocket
        cycle = getattr(self, "cycle", None)
        if cycle is not None and not cycle.response_complete:
            self._arm()  # a request being answered (the page, a static file): not slow to arrive
            return
        transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timeout_request_task is not None:
            self.timeout_request_task.cancel()
        super().connection_lost(exc)  # type: ignore[misc]


def server_config(app: ASGIApp, **options: Any) -> Any:
    """The ``uvicorn.Config`` of ``congo serve`` (and of the tests): the limits above, and a
    WebSocket ping that closes a tab whose browser has gone without a word."""
    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Protocol(_TimedProtocol, H11Protocol):
        pass

    settings: dict[str, Any] = {
        "log_level": "warning",
        "ws_max_size": MAX_MESSAGE + 4096,
        "lifespan": "on",
        "timeout_graceful_shutdown": 2,
        "timeout_keep_alive": 5,
        "limit_concurrency": MAX_CONNECTIONS,
        "h11_max_incomplete_event_size": 16 * 1024,
        "http": Protocol,
        **options,
    }
    return uvicorn.Config(app, **settings)


def _lifespan(hub: Hub) -> Callable[[Starlette], contextlib.AbstractAsyncContextManager[None]]:
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if hub.match is not None:
            hub.match.start()
        try:
            yield
        finally:
            await asyncio.to_thread(hub.close)

    return lifespan


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(BaseException):
        await task
