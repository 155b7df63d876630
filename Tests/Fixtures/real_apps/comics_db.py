"""Makes the comics database Datasette serves in the tests: a table of 47 chapters (id, title, series, published,
pages), titles with the characters real ones have (an ampersand, quotes, accents, an emoji).

Usage: comics_db.py PATH (an existing file is replaced).
"""
import os
import sqlite3
import sys

THEMES = ["Storm", "Tower & Bell", "Río “Grande”", "Fox's Den", "Lantern 🏮"]

if __name__ == "__main__":
    path = sys.argv[1]
    if os.path.exists(path):
        os.remove(path)
    with sqlite3.connect(path) as database:
        database.execute("create table chapters (id integer primary key, title text, series text, published text, pages integer)")
        database.executemany(
            "insert into chapters values (?, ?, ?, ?, ?)",
            [(n, f"Chapter {n}: The {THEMES[n % 5]}", ["Moonlit", "Harbor"][n % 2], f"2026-{1 + n % 12:02}-{1 + n % 28:02}", 10 + n % 17)
             for n in range(1, 48)])
