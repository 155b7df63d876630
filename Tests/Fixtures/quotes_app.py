"""A quotes site written the way Flask apps are, for the tests of crawl and follow on a real framework.

Routes end with a slash (Flask's strict_slashes: /author/NAME answers 308 to /author/NAME/); the pages' own links
come from url_for, but the quotes' author links are written by hand without the slash, as on quotes.toscrape.com, so
each one is a redirect. The list of quotes is written by the page's script from a JSON API; the author pages are
rendered by the server. Beside them: a login-protected part (302 to the login form, a CSRF token, a session
cookie), a page that is missing (404), a slow page, pages that move (301 to another path, 302 to the same page on
another host name, 303, 307), and pages that move by script and by <meta refresh>. Debian's python3-flask, run by
Werkzeug's own server.
Every page loads what a real site's do, from the app's static folder: Bootstrap's stylesheet (Debian's libjs-bootstrap,
linked), a stylesheet of its own, a favicon and a logo (an image, which webparse blocks by default); the list of
quotes is written by jQuery (Debian's libjs-jquery, linked), loaded at the end of its page.

Usage: quotes_app.py PORT [--close] (0 picks a free port); prints the port on its first line once it listens.
With --close, the server closes each connection after its response (HTTP/1.0, as some servers and proxies do).
"""
import secrets
import signal
import sys
import time

from flask import Flask, abort, jsonify, redirect, render_template_string, request, session, url_for
from werkzeug.serving import WSGIRequestHandler, make_server

QUOTES = [
    ("The world as we have created it is a process of our thinking.", "Albert Einstein", ["change", "thinking"]),
    ("It is our choices that show what we truly are.", "J.K. Rowling", ["choices"]),
    ("There are only two ways to live your life.", "Albert Einstein", ["inspirational", "life"]),
    ("The person who doesn't read has nothing on the one who can't.", "Mark Twain", ["books"]),
    ("Imperfection is beauty, madness is genius.", "Marilyn Monroe", ["inspirational"]),
    ("Try not to become a man of success.", "Albert Einstein", ["success"]),
    ("It is better to be hated for what you are.", "Andre Gide", ["life"]),
    ("I have not failed. I've just found 10,000 ways that won't work.", "Thomas A. Edison", ["failure"]),
    ("A woman is like a tea bag.", "Eleanor Roosevelt", ["misattributed"]),
    ("A day without sunshine is like, you know, night.", "Steve Martin", ["humor"]),
    ("This life is what you make it.", "Marilyn Monroe", ["life"]),
    ("It takes a great deal of bravery to stand up to our enemies.", "J.K. Rowling", ["courage"]),
    ("If you can't explain it to a six year old, you don't understand it yourself.", "Albert Einstein", ["simplicity"]),
    ("You may not be able to change a situation.", "Jane Austen", ["change"]),
    ("Good friends, good books, and a sleepy conscience.", "Mark Twain", ["books", "life"]),
    ("The truth is, everyone is going to hurt you.", "Bob Marley", ["friendship"]),
    ("Not all of us can do great things.", "Mother Teresa", ["kindness"]),
    ("To the well-organized mind, death is but the next great adventure.", "J.K. Rowling", ["death"]),
    ("All you need is love. But a little chocolate now and then doesn't hurt.", "Charles M. Schulz", ["humor"]),
    ("We read to know we're not alone.", "William Nicholson", ["books"]),
]
PER_PAGE = 10
PAGES = (len(QUOTES) + PER_PAGE - 1) // PER_PAGE


def slug(name):
    return "-".join(name.replace(".", " ").split())


AUTHORS = {slug(author): author for _, author, _ in QUOTES}

app = Flask(__name__, static_folder="quotes_static", static_url_path="/static")
app.secret_key = secrets.token_hex(16)

LAYOUT = """<!doctype html><html><head><meta charset="utf-8"><title>{{ title }}</title>
<link rel="icon" href="{{ url_for('static', filename='favicon.ico') }}">
<link rel="stylesheet" href="{{ url_for('static', filename='bootstrap.min.css') }}">
<link rel="stylesheet" href="{{ url_for('static', filename='main.css') }}"></head><body><div class="container">
<header class="header-box"><img src="{{ url_for('static', filename='logo.png') }}" alt="" width="16" height="16">
<a href="{{ url_for('index') }}">Quotes to Scrape</a> <a href="{{ url_for('members') }}">Members</a>
<a href="{{ url_for('about') }}">About</a></header>
{{ body | safe }}
<footer>Quotes by GoodReads.com</footer></div>
</body></html>"""


def page(title, body):
    return render_template_string(LAYOUT, title=title, body=body)


@app.route("/")
def index():
    return quotes_page(1)


@app.route("/page/<int:number>/")
def quotes_page(number):
    if not 1 <= number <= PAGES:
        abort(404)
    next_link = f'<li class="next"><a href="{url_for("quotes_page", number=number + 1)}">Next</a></li>' if number < PAGES else ""
    body = f"""<div id="quotes">Loading…</div><ul class="pager">{next_link}</ul>
<script src="{url_for('static', filename='jquery.min.js')}"></script>
<script>
$.getJSON("{url_for('api_quotes', number=number)}", (data) => {{
  $("#quotes").html(data.quotes.map((quote) =>
    `<div class="quote"><span class="text">${{quote.text}}</span> by <small class="author">${{quote.author}}</small>
     <a class="about" href="/author/${{quote.slug}}">(about)</a>
     ${{quote.tags.map((tag) => `<a class="tag" href="/tag/${{tag}}/">${{tag}}</a>`).join(" ")}}</div>`).join(""));
}});
</script>"""
    return page(f"Quotes, page {number}", body)


@app.route("/api/quotes/<int:number>")
def api_quotes(number):
    chosen = QUOTES[(number - 1) * PER_PAGE:number * PER_PAGE]
    return jsonify(quotes=[{"text": text, "author": author, "slug": slug(author), "tags": tags} for text, author, tags in chosen])


@app.route("/author/<name>/")
def author(name):
    if name not in AUTHORS:
        abort(404)
    quotes = "".join(f"<li>{text}</li>" for text, who, _ in QUOTES if slug(who) == name)
    body = f"""<div class="author-details"><h3 class="author-title">{AUTHORS[name]}</h3>
<span class="author-born-date">born {len(name)} March</span><ul class="author-quotes">{quotes}</ul></div>"""
    return page(AUTHORS[name], body)


@app.route("/tag/<tag>/")
def tag(tag):
    quotes = [(text, who) for text, who, tags in QUOTES if tag in tags]
    if not quotes:
        abort(404)
    items = "".join(f'<li><span class="text">{text}</span> <a href="{url_for("author", name=slug(who))}">{who}</a></li>' for text, who in quotes)
    return page(f"Tag {tag}", f'<h3 class="tag-title">{tag}</h3><ul class="quotes">{items}</ul>')


@app.route("/about/")
def about():
    links = [
        ("Old authors page", url_for("old_authors")),
        ("Einstein, by another name", url_for("by_name", name="einstein")),
        ("Feedback", url_for("feedback")),
        ("Archive", url_for("archive")),
        ("Moved by script", url_for("moved_by_script")),
        ("Moved by meta refresh", url_for("moved_by_meta")),
        ("Slow", url_for("slow")),
        ("Press", "/press/"),
    ]
    items = "".join(f'<li><a href="{href}">{text}</a></li>' for text, href in links)
    return page("About", f'<h3 class="about-title">About</h3><ul class="links">{items}</ul>')


@app.route("/authors-old/")
def old_authors():
    return redirect(url_for("authors"), code=301)


@app.route("/authors/")
def authors():
    items = "".join(f'<li><a href="{url_for("author", name=key)}">{name}</a></li>' for key, name in sorted(AUTHORS.items()))
    return page("Authors", f'<h3 class="authors-title">Authors</h3><ul class="authors">{items}</ul>')


@app.route("/by-name/<name>/")
def by_name(name):
    # Another host name for the same server, as a site that moved to its canonical host does.
    host = "localhost" if request.host.startswith("127.0.0.1") else "127.0.0.1"
    return redirect(f"http://{host}:{request.host.split(':')[1]}{url_for('author', name='Albert-Einstein')}", code=302)


@app.route("/feedback/")
def feedback():
    return redirect(url_for("thanks"), code=303)


@app.route("/thanks/")
def thanks():
    return page("Thanks", '<h3 class="thanks-title">Thanks</h3>')


@app.route("/archive/")
def archive():
    return redirect(url_for("archive_2026"), code=307)


@app.route("/archive/2026/")
def archive_2026():
    return page("Archive 2026", '<h3 class="archive-title">Archive 2026</h3>')


@app.route("/moved-by-script/")
def moved_by_script():
    return page("Moving", f'<script>location.replace("{url_for("new_home")}")</script>')


@app.route("/moved-by-meta/")
def moved_by_meta():
    return render_template_string(f'<!doctype html><meta http-equiv="refresh" content="0; url={url_for("new_home")}"><title>Moving</title>')


@app.route("/new-home/")
def new_home():
    return page("New home", '<h3 class="new-home-title">New home</h3>')


@app.route("/slow/")
def slow():
    time.sleep(1.5)
    return page("Slow", '<h3 class="slow-title">Slow</h3>')


@app.route("/login/", methods=["GET", "POST"])
def login():
    if request.method == "POST":
        if request.form.get("csrf_token") != session.get("csrf_token"):
            abort(400)
        session["user"] = request.form.get("username")
        return redirect(request.args.get("next") or url_for("members"))
    session["csrf_token"] = secrets.token_hex(8)
    body = f"""<form method="post"><input type="hidden" name="csrf_token" value="{session['csrf_token']}">
<input name="username"><input name="password" type="password"><button type="submit">Login</button></form>"""
    return page("Login", body)


@app.route("/members/")
def members():
    if "user" not in session:
        return redirect(url_for("login", next=request.path))
    return page("Members", f'<h3 class="members-title">Members</h3><p>Hello {session["user"]}</p>')


class ClosingHandler(WSGIRequestHandler):
    protocol_version = "HTTP/1.0"


if __name__ == "__main__":
    # A parent that blocks signals passes its mask on; the tests' kill must still stop the app.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    closing = "--close" in sys.argv[2:]
    server = make_server("127.0.0.1", int(sys.argv[1]), app, threaded=True, request_handler=ClosingHandler if closing else None)
    print(server.port, flush=True)
    server.serve_forever()
