"""A static site of 60 pages that link each other, each loading what real pages load: a 100 KB stylesheet, a logo (an
image, which webparse blocks by default) and a favicon; every other page a script too (async, as analytics and widgets
are), and the rest are plain articles. Served by Python's own http.server from a temporary folder. A plain page's
answer is final at once (nothing on it can change), as its stylesheet comes in, and its tab goes on to the next page
while WebKit is ending that load.

Usage: static_site.py PORT (0 picks a free port); prints the port on its first line once it listens.
"""
import functools
import http.server
import os
import signal
import sys
import tempfile

PAGES = 60


def write_site(folder):
    rules = "".join(f".c{n} {{ color: #{n % 256:02x}{n * 7 % 256:02x}{n * 13 % 256:02x}; padding: {n % 9}px; }}\n" for n in range(3000))
    with open(os.path.join(folder, "style.css"), "w") as style:
        style.write(rules[:100_000])
    with open(os.path.join(folder, "app.js"), "w") as script:
        script.write('document.documentElement.dataset.app = "ready";\n')
    for name in ("logo.png", "favicon.ico"):
        with open(os.path.join(folder, name), "wb") as image:
            image.write(b"\x89PNG\r\n\x1a\n" + bytes(64))
    for page in range(PAGES):
        script = '<script async src="app.js"></script>' if page % 2 else ""
        links = "".join(f'<li><a href="p{other}.html">Page {other}</a></li>' for other in range(PAGES) if (other - page) % 7 in (1, 2, 3))
        with open(os.path.join(folder, f"p{page}.html"), "w") as html:
            html.write(f"""<!doctype html><html><head><meta charset="utf-8"><title>Page {page}</title>
<link rel="icon" href="favicon.ico"><link rel="stylesheet" href="style.css">{script}</head>
<body><header><img src="logo.png" alt="" width="16" height="16"> <a href="p0.html">Home</a></header>
<h1>Page {page}</h1><ul>{links}</ul></body></html>""")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


if __name__ == "__main__":
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    folder = tempfile.mkdtemp(prefix="webparse-static-site-")
    write_site(folder)
    handler = functools.partial(QuietHandler, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
