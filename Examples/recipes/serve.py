#!/usr/bin/env python3
"""A small comic site for webparse's recipes, written the way such sites are: a login form with a CSRF token
and a session cookie, a list paged by a jQuery "Next" button, a feed that loads more on scroll, an ASP.NET-style
search that posts the page back to itself, an archive of numbered pages whose chapters have pages of their own, and a
shop whose page its script fills from an API; the shop's back office, /shop/admin?sku=w-100&price=279&stock=In+stock or
/shop/admin?down=1 (and down=0), changes a product or takes the API down, to watch a price check at work.

Usage: python3 Examples/recipes/serve.py [PORT]   (default 8731, 0 for a free one; serves on 127.0.0.1 only, and says
where on its first line)
"""
import html
import json
import secrets
import signal
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

SITE = Path(__file__).resolve().parent / "site"
JQUERY = Path("/usr/share/javascript/jquery/jquery.min.js")
USERS = {"ann": "correct horse"}
SESSIONS = set()
COMICS = [f"Comic {n}" for n in range(1, 8)]
CATEGORIES = {"manga": ["shonen", "seinen"], "western": ["superhero", "indie"]}
SHOP = {"down": False, "products": [
    {"sku": "w-100", "name": "Widget", "price": 349, "stock": "In stock"},
    {"sku": "g-200", "name": "Gadget", "price": 529, "stock": "In stock"},
    {"sku": "d-300", "name": "Doohickey", "price": 289, "stock": "Sold out"},
]}
SHOP_PAGE = """<div id="app">Loading…</div>
<script>
fetch("/api/products").then(r => { if (!r.ok) throw new Error("the shop answered " + r.status); return r.json(); })
  .then(products => {
    document.getElementById("app").innerHTML = products.map(p => `<div class="product" data-sku="${p.sku}">
      <h2 class="name">${p.name}</h2><span class="price">$${p.price.toFixed(2)}</span> <span class="stock">${p.stock}</span></div>`).join("");
  })
  .catch(e => { document.getElementById("app").innerHTML = `<p class="error">Sorry, ${e.message}</p>`; });
</script>"""
TITLES = {("manga", "shonen"): ["One Piece", "Naruto"], ("manga", "seinen"): ["Berserk"],
          ("western", "superhero"): ["Saga of the Bat"], ("western", "indie"): ["Bone"]}


def page(body, title="Comics"):
    return f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title>" \
           f"<script src='/jquery.js'></script></head><body>{body}</body></html>"


class Site(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, body, status=200, content_type="text/html; charset=utf-8", headers=()):
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def session(self):
        for part in self.headers.get("Cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == "session" and value in SESSIONS:
                return value
        return None

    def form(self):
        length = int(self.headers.get("Content-Length", 0))
        return {k: v[0] for k, v in urllib.parse.parse_qs(self.rfile.read(length).decode()).items()}

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/jquery.js":
            return self.send(JQUERY.read_bytes(), content_type="application/javascript")
        if url.path == "/login":
            # As Django, Rails and most sites do: a user who is logged in is sent on to the members' pages.
            if self.session():
                return self.send("", status=302, headers=[("Location", "/members/updates")])
            token = secrets.token_hex(8)
            return self.send(page((SITE / "login.html").read_text().replace("{csrf}", token)),
                             headers=[("Set-Cookie", f"csrf={token}; Path=/; HttpOnly")])
        if url.path == "/members/updates":
            if not self.session():
                return self.send("", status=302, headers=[("Location", "/login")])
            return self.send(page("<ul>" + "".join(f"<li class='chapter'>{c}</li>" for c in COMICS[:3]) + "</ul>"))
        if url.path == "/api/comics":
            number = int(query.get("page", ["1"])[0])
            items = COMICS[(number - 1) * 3:number * 3]
            return self.send(json.dumps({"items": items, "more": number * 3 < len(COMICS)}), content_type="application/json")
        if url.path == "/api/feed":
            number = int(query.get("page", ["1"])[0])
            items = [f"Post {n}" for n in range((number - 1) * 5 + 1, number * 5 + 1)] if number <= 4 else []
            return self.send(json.dumps(items), content_type="application/json")
        if url.path.startswith("/archive/"):
            number = int(url.path.rsplit("/", 1)[1])
            chapters = [f"Chapter {n}" for n in range(30 - (number - 1) * 5, 30 - number * 5, -1)]
            link = f"<a class='next' href='/archive/{number + 1}'>Older</a>" if number < 6 else ""
            return self.send(page("<ul>" + "".join(f"<li><a href='/chapter/{c.split()[1]}'>{c}</a></li>" for c in chapters)
                                  + "</ul>" + link))
        if url.path.startswith("/chapter/"):
            # A chapter's own page: its date in the HTML, its summary written by its script once it has loaded it.
            number = int(url.path.rsplit("/", 1)[1])
            return self.send(page(f"<time datetime='2026-11-{number:02}'>November {number}</time><p class='summary'></p>"
                                  f"<script>setTimeout(() => {{ document.querySelector('.summary').textContent ="
                                  f" 'The keeper climbs the stairs for the {number}th time.'; }}, 200);</script>"))
        if url.path == "/search.aspx":
            return self.send(page(search_form({})))
        if url.path == "/shop":
            return self.send(page(SHOP_PAGE, title="Shop"))
        if url.path == "/api/products":
            if SHOP["down"]:
                return self.send("down for maintenance", status=503, content_type="text/plain")
            return self.send(json.dumps(SHOP["products"]), content_type="application/json")
        if url.path == "/shop/admin":
            if "down" in query:
                SHOP["down"] = query["down"][0] == "1"
            for product in SHOP["products"]:
                if product["sku"] == query.get("sku", [""])[0]:
                    product["price"] = int(query.get("price", [product["price"]])[0])
                    product["stock"] = query.get("stock", [product["stock"]])[0]
            return self.send(json.dumps(SHOP), content_type="application/json")
        path = (SITE / url.path.lstrip("/")).resolve()
        if url.path.endswith(".html") and path.is_file() and SITE in path.parents:
            return self.send(page(path.read_text()))
        self.send("<p>not found</p>", status=404)

    def do_POST(self):
        url = urllib.parse.urlparse(self.path)
        fields = self.form()
        if url.path == "/login":
            cookie = dict(p.strip().partition("=")[::2] for p in self.headers.get("Cookie", "").split(";") if p.strip())
            if fields.get("csrf") != cookie.get("csrf") or USERS.get(fields.get("user")) != fields.get("password"):
                return self.send(page("<p class='error'>Wrong user or password</p>"), status=403)
            session = secrets.token_hex(16)
            SESSIONS.add(session)
            return self.send("", status=303, headers=[("Set-Cookie", f"session={session}; Path=/; HttpOnly"),
                                                     ("Location", "/members/updates")])
        if url.path == "/search.aspx":
            return self.send(page(search_form(fields)))
        self.send("<p>not found</p>", status=404)


def search_form(fields):
    """The search page as an ASP.NET WebForms page renders it: choosing a category posts the page back, and the
    server answers with the subcategories; Search posts it back again and the results come with the page."""
    category = fields.get("category", "")
    subcategory = fields.get("subcategory", "")
    state = html.escape(json.dumps({"category": category}))
    options = "".join(f"<option value='{c}'{' selected' if c == category else ''}>{c.title()}</option>" for c in CATEGORIES)
    subs = "".join(f"<option value='{s}'>{s.title()}</option>" for s in CATEGORIES.get(category, []))
    results = ""
    if fields.get("__EVENTTARGET") == "search":
        found = TITLES.get((category, subcategory), [])
        results = "<table id='results'>" + "".join(f"<tr><td>{t}</td></tr>" for t in found) + "</table>"
    return f"""
      <form method="post" action="/search.aspx" id="form1">
        <input type="hidden" name="__VIEWSTATE" value="{state}">
        <input type="hidden" name="__EVENTTARGET" id="__EVENTTARGET" value="">
        <select name="category" id="category" onchange="__doPostBack('category')">
          <option value="">Choose…</option>{options}</select>
        <select name="subcategory" id="subcategory">{subs}</select>
        <a id="search" href="javascript:__doPostBack('search')">Search</a>
      </form>
      <script>function __doPostBack(target) {{ document.getElementById("__EVENTTARGET").value = target; document.getElementById("form1").submit(); }}</script>
      {results}"""


if __name__ == "__main__":
    # A parent that blocks signals passes its mask on; Ctrl-C and kill must still stop the site.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8731
    server = ThreadingHTTPServer(("127.0.0.1", port), Site)
    print(f"recipes site on http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()
