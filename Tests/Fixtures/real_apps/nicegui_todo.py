"""A to-do list on NiceGUI (from PyPI, as shipped): a single-page app whose page is drawn and changed by the server
over a websocket (Vue and Quasar in the browser, socket.io underneath). A field and an "Add" button append an entry;
"Load the archive" appends five archived entries one at a time, 80 ms apart, as a list that grows from a server's
messages. The entries live in the server's Python list, which /api/entries gives as JSON: the tests' ground truth.

Usage: nicegui_todo.py PORT: serves on 127.0.0.1:PORT until killed.
"""
import asyncio
import signal
import sys

from nicegui import app, ui

ENTRIES = ["Buy ink", "Scan chapter 12"]


@app.get("/api/entries")
def entries():
    return {"entries": ENTRIES}


@ui.page("/")
def index():
    ui.label("To do").classes("text-h5")

    @ui.refreshable
    def entry_list():
        with ui.column().classes("entries"):
            for entry in ENTRIES:
                ui.label(entry).classes("entry")

    def add():
        if field.value:
            ENTRIES.append(field.value)
            field.value = ""
            entry_list.refresh()

    async def load_archive():
        for number in range(1, 6):
            await asyncio.sleep(0.08)
            ENTRIES.append(f"Archived {len(ENTRIES) + 1}")
            entry_list.refresh()

    with ui.row():
        field = ui.input("New entry")
        ui.button("Add", on_click=add).props("id=add")
        ui.button("Load the archive", on_click=load_archive).props("id=archive")
    entry_list()


if __name__ in {"__main__", "__mp_main__"}:
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    ui.run(host="127.0.0.1", port=int(sys.argv[1]), reload=False, show=False, show_welcome_message=False)
