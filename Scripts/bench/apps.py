"""Starting the benchmark's real apps (the Dash and Django sites), each a Python script serving on a port it is given."""
import os
import socket
import subprocess
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def start_app(python, script, path, name, attempts=300):
    """Starts Scripts/bench/`script` with `python` on a free port of 127.0.0.1; returns (its process, its base URL)
    once `path` answers there, trying every 0.1 s. Exits naming `name` when it ends or does not answer."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([python, os.path.join(HERE, script), str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(attempts):
        if process.poll() is not None:
            raise SystemExit(f"the {name} did not start")
        try:
            urllib.request.urlopen(base + path, timeout=1).read()
            return process, base
        except OSError:
            time.sleep(0.1)
    process.terminate()
    raise SystemExit(f"the {name} did not answer")


def start_dash(python):
    """Starts the Dash app (dash_app.py) with `python`; returns (its process, its base URL)."""
    return start_app(python, "dash_app.py", "/", "Dash app", attempts=200)
