"""What a real application holds, read from the application itself, never from webparse: the tests' ground truth.

    truth.py json URL          prints the JSON the application's own API answers at URL
    truth.py sql DATABASE SQL  prints the rows of SQL in the application's SQLite DATABASE, as a JSON array of arrays
    truth.py run DATABASE SQL  runs SQL (an insert, an update) in DATABASE, as the application's own writes would, and
                               prints how many rows it changed
"""
import json
import sqlite3
import sys
import urllib.request

if __name__ == "__main__":
    command = sys.argv[1]
    if command == "json":
        with urllib.request.urlopen(sys.argv[2], timeout=30) as response:
            print(json.dumps(json.load(response)))
    elif command == "sql":
        with sqlite3.connect(sys.argv[2]) as database:
            print(json.dumps(database.execute(sys.argv[3]).fetchall()))
    elif command == "run":
        with sqlite3.connect(sys.argv[2]) as database:
            print(database.execute(sys.argv[3]).rowcount)
    else:
        raise SystemExit(f"truth.py: unknown command {command}")
