"""A real single-page app for the benchmark: Plotly Dash (React, from PyPI), whose chapter list appears only after
its own server callback has run in the page. Serves on 127.0.0.1:PORT until killed.

    dash_app.py PORT
"""
import sys

from dash import Dash, Input, Output, dcc, html

from fixtures import DASH_CHAPTERS

app = Dash(__name__)
app.layout = html.Div([
    dcc.Location(id="url"),
    html.H1("Chapters"),
    dcc.Graph(id="graph", figure={"data": [{"x": list(range(20)), "y": list(range(20)), "type": "bar"}]}),
    html.Ul(id="chapters"),
])


@app.callback(Output("chapters", "children"), Input("url", "pathname"))
def chapters(_pathname):
    return [html.Li(chapter) for chapter in DASH_CHAPTERS]


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(sys.argv[1]), debug=False)
