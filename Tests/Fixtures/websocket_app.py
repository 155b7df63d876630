"""A small app whose data arrives over a websocket, as Streamlit's and many dashboards' do, for webparse's tests.

The page opens a websocket once it has loaded and renders the rows the server sends; a click on a filter button
sends the filter over the socket, and the server answers 400 ms later with the filtered rows (as a framework's
rerun does), so the list is re-rendered in place without any HTTP request. Standard library only.

Usage: websocket_app.py PORT (0 picks a free port); prints the port on its first line once it listens.
"""
import base64
import hashlib
import http.server
import json
import signal
import struct
import sys
import time

ROWS = [("One Piece", "manga"), ("Naruto", "manga"), ("Saga", "comic"), ("Monstress", "comic"), ("Berserk", "manga")]

PAGE = """<!doctype html><html><head><title>rows</title></head><body>
<div id="filters"><button id="all">All</button> <button id="manga">Manga</button></div>
<table><tbody id="rows"><tr><td class="empty">Loading…</td></tr></tbody></table>
<script>
window.addEventListener("load", () => {
  const socket = new WebSocket("ws://" + location.host + "/stream");
  const render = (rows) => {
    document.getElementById("rows").innerHTML = rows.map((row) => "<tr><td class='title'>" + row + "</td></tr>").join("");
  };
  socket.onmessage = (event) => render(JSON.parse(event.data).rows);
  for (const id of ["all", "manga"]) {
    document.getElementById(id).addEventListener("click", () => socket.send(JSON.stringify({ filter: id })));
  }
});
</script></body></html>
"""


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        if self.headers.get("Upgrade", "").lower() == "websocket":
            return self.stream()
        body = PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def stream(self):
        key = self.headers["Sec-WebSocket-Key"] + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
        self.send_response(101)
        self.send_header("Upgrade", "websocket")
        self.send_header("Connection", "Upgrade")
        self.send_header("Sec-WebSocket-Accept", base64.b64encode(hashlib.sha1(key.encode()).digest()).decode())
        self.end_headers()
        self.wfile.flush()
        self.send_rows("all")
        while True:
            message = self.receive()
            if message is None:
                return
            time.sleep(0.4)
            self.send_rows(json.loads(message).get("filter", "all"))

    def send_rows(self, kind):
        rows = [title for title, row_kind in ROWS if kind == "all" or row_kind == kind]
        payload = json.dumps({"rows": rows}).encode()
        header = bytes([0x81, len(payload)]) if len(payload) < 126 else bytes([0x81, 126]) + struct.pack(">H", len(payload))
        self.wfile.write(header + payload)
        self.wfile.flush()

    def receive(self):
        """The next text message's payload, or None once the client closes."""
        while True:
            head = self.rfile.read(2)
            if len(head) < 2:
                return None
            opcode, length = head[0] & 0x0F, head[1] & 0x7F
            if length == 126:
                length = struct.unpack(">H", self.rfile.read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self.rfile.read(8))[0]
            mask = self.rfile.read(4) if head[1] & 0x80 else b"\0\0\0\0"
            payload = bytes(byte ^ mask[index % 4] for index, byte in enumerate(self.rfile.read(length)))
            if opcode == 8:
                return None
            if opcode == 1:
                return payload.decode()

    def log_message(self, *arguments):
        pass


# A parent that blocks signals passes its mask on; the test's kill must still stop the app.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
