"""The benchmark's local site: a static page, a single-page app, and a heavy page, served on 127.0.0.1.

/static  20 items in the HTML
/spa     <div id="app">; 300 ms after load its script fetches /items.json and renders 20 items
/heavy   the same app, plus 30 large images, three 10 MB autoplay videos and three fonts; images, videos
         and fonts are sent at 2 MiB/s per connection, as over a modest line
/static?coop, /spa?coop   the same pages with `Cross-Origin-Opener-Policy: same-origin`, as Django sends it
/chain/static/N, /chain/spa/N   the static or SPA page with links to /chain/…/4N+1 to 4N+4: a site to crawl, one
         page after another in the same tab (Scripts/bench/page_profile.py)
/later/timer, /later/worker, /later/frame, /later/animation   a list of 8 items whose first item is there at once
         and the rest comes later without a request: from a 600 ms timer after the data arrived, from a worker
         after 500 ms of work, from a same-origin frame's 500 ms timer, on the end of a 500 ms CSS animation
"""
import functools
import http.server
import json
import os
import socket
import socketserver
import sys
import threading
import time

ITEMS = [f"Item {n}" for n in range(1, 21)]
# The Dash app's list (Scripts/bench/dash_app.py renders it from a server callback) and the script that reads it.
DASH_CHAPTERS = [f"Chapter {n}" for n in range(1, 21)]
DASH_SCRIPT = ("(() => { const items = [...document.querySelectorAll('#chapters li')].map(li => li.textContent);"
               " return items.length ? items : null; })()")
# The Django admin's user, its changelist (Scripts/bench/django_site.py) and the scripts that read it.
DJANGO_USER, DJANGO_PASSWORD = "admin", "bench-password"
DJANGO_GROUPS = [f"Chapter {n:02}" for n in range(1, 61)]
DJANGO_PER_PAGE = 10
DJANGO_LOGIN = "/admin/login/?next=/admin/auth/group/"
DJANGO_NAMES = "[...document.querySelectorAll('#result_list tbody th a')].map(a => a.textContent)"
DJANGO_NEXT = ("(() => { const here = document.querySelector('.paginator .this-page'); const next = here && here.nextElementSibling;"
               " return next && next.matches('a:not(.showall)') ? next.href : null; })()")
MEDIA_RATE = 2 * 1024 * 1024  # bytes per second, per connection

APP = """<div id="app">Loading…</div>
<script>
setTimeout(async () => {
  const items = await (await fetch("/items.json")).json();
  document.getElementById("app").innerHTML = "<ul>" + items.map(t => `<li class="item">${t}</li>`).join("") + "</ul>";
}, 300);
</script>"""

PAGES = {
    "/static": "<!doctype html><title>static</title><ul>" + "".join(f'<li class="item">{t}</li>' for t in ITEMS) + "</ul>",
    "/spa": "<!doctype html><title>spa</title>" + APP,
    "/heavy": "<!doctype html><title>heavy</title><style>"
    + "".join(f"@font-face {{ font-family: F{n}; src: url(/font/{n}.woff2); }} .f{n} {{ font-family: F{n}; }}" for n in range(3))
    + "</style>"
    + "".join(f'<p class="f{n}">text in font {n}</p>' for n in range(3))
    + APP
    + "".join(f'<img src="/img/{n}.jpg" width="300" height="200">' for n in range(30))
    + "".join(f'<video src="/video/{n}.mp4" autoplay muted playsinline></video>' for n in range(3)),
}

SIZES = {"/img/": 500 * 1024, "/video/": 10 * 1024 * 1024, "/font/": 200 * 1024}
BLOBS = {prefix: os.urandom(size) for prefix, size in SIZES.items()}
TYPES = {"/img/": "image/jpeg", "/video/": "video/mp4", "/font/": "font/woff2"}

# The pages that render the rest of their list later without a request, and the script that counts their items.
ADD = ("const add = (from, to) => { for (let n = from; n <= to; n++) { const item = document.createElement('li');"
       " item.textContent = 'item ' + n; list.appendChild(item); } };")
LATER = {
    "/later/timer": "<!doctype html><ul id=list></ul><script>" + ADD
    + "fetch('/items.json').then(r => r.json()).then(() => { add(1, 1); setTimeout(() => add(2, 8), 600); });</script>",
    "/later/worker": "<!doctype html><ul id=list></ul><script>" + ADD
    + "add(1, 1); new Worker('/later/work.js').onmessage = (event) => add(2, event.data);</script>",
    "/later/frame": "<!doctype html><ul id=list></ul><script>" + ADD
    + "window.add = add; add(1, 1);</script><iframe src='/later/inner'></iframe>",
    "/later/inner": "<!doctype html><script>setTimeout(() => parent.add(2, 8), 500);</script>",
    "/later/animation": "<!doctype html><style>.loading { animation: fade 500ms; } @keyframes fade { from { opacity: 0; } to { opacity: 1; } }</style>"
    + "<ul id=list class=loading></ul><script>" + ADD + "add(1, 1); list.addEventListener('animationend', () => add(2, 8));</script>",
}
LATER_WORKER = b"const end = Date.now() + 500; while (Date.now() < end) {} postMessage(8);"
LATER_PAGES = ["/later/timer", "/later/worker", "/later/frame", "/later/animation"]
COUNT_SCRIPT = "document.querySelectorAll('#list li').length || null"
PAGES.update(LATER)

# The script every tool evaluates: the items once there are 20 of them.
SCRIPT = "document.querySelectorAll('.item').length === 20 ? Array.from(document.querySelectorAll('.item'), e => e.textContent) : null"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        # Headers and body go in separate writes: without this, Nagle's algorithm and the client's delayed ACK
        # add 40 ms to every request on a kept-alive connection, for every tool alike.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def send(self, status, content_type, body, rate=None, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if rate is None:
            self.wfile.write(body)
            return
        chunk = 64 * 1024
        start = time.monotonic()
        for offset in range(0, len(body), chunk):
            try:
                self.wfile.write(body[offset:offset + chunk])
            except (BrokenPipeError, ConnectionResetError):
                return
            due = start + (offset + chunk) / rate
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path in PAGES:
            coop = [("Cross-Origin-Opener-Policy", "same-origin")] if self.path.endswith("?coop") else []
            return self.send(200, "text/html; charset=utf-8", PAGES[path].encode(), headers=coop)
        if path.startswith("/chain/"):
            _, _, kind, number = path.split("/")
            links = "".join(f'<a href="/chain/{kind}/{4 * int(number) + n}">more</a>' for n in range(1, 5))
            return self.send(200, "text/html; charset=utf-8", (PAGES["/" + kind] + links).encode())
        if path == "/items.json":
            return self.send(200, "application/json", json.dumps(ITEMS).encode())
        if path == "/later/work.js":
            return self.send(200, "application/javascript", LATER_WORKER)
        for prefix, blob in BLOBS.items():
            if path.startswith(prefix):
                return self.send(200, TYPES[prefix], blob, rate=MEDIA_RATE)
        self.send(404, "text/plain", b"not found")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # socketserver's backlog of 5 overflowed when a browser opened several connections at once while the
    # accepting thread waited for a core: the kernel dropped the connection and the client retried after 1 s.
    request_queue_size = 128

    def handle_error(self, request, client_address):
        """Stays quiet when a client closed its connection early (a browser shutting down); reports the rest."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class FolderHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder's files, as a static site is served (the crawl section's), quietly and without Nagle's wait."""

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def start(root=None):
    """Starts the site, or with `root` that folder's files, on a free port; returns (server, base URL)."""
    handler = Handler if root is None else functools.partial(FolderHandler, directory=root)
    server = Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"
