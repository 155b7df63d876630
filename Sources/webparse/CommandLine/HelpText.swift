/// The text of `webparse --help` and `webparse help run`.
enum HelpText {
    static let version = "webparse 0.1.0"

    static func text(for command: String?) -> String? {
        switch command {
        case nil: general
        case "run": run
        default: nil
        }
    }

    static let general = """
        webparse: load JavaScript-rendered pages in WebKitGTK and print the data a script extracts, as JSON.

        Usage:
          webparse run CONFIG [-q | -v]   run the jobs in CONFIG and print their results on stdout
          webparse help [COMMAND]         show help, for one command if named
          webparse --version              print the version

        A config is a JSON file holding one job or a list of them:
          {"url": "https://example.com/updates", "script": "document.title"}
          {"jobs": [{"name": "comics", "url": "…", "script": "…"}, …]}

        \(exitCodes)
        """

    static let run = """
        Usage: webparse run CONFIG [-q | -v]

        Loads each job's page in an offscreen WebKit view, evaluates the job's script until it returns
        something other than null, undefined, "", [] or {}, and prints the result as JSON on stdout. One job:
        its result alone. A "jobs" list: one object with each job's result under its name (failed jobs are
        left out and explained on stderr). Only results go to stdout; progress and errors go to stderr.

        Job fields:
          url           the page: an http(s) or file URL, a path relative to the config, or a host name
                        such as example.com/updates (loaded over https)
          script        a JavaScript expression, an IIFE, or a function webparse calls; Promises are awaited
          name          the key of the job's result when the config has a "jobs" list
          timeout       seconds one attempt may take, loading and waiting together (default 30)
          retries       extra attempts after a transient failure, 0 to 10 (default 2)
          retryDelay    seconds before the first retry, doubling for each next one (default 1)
          pollInterval  seconds between evaluations of the script while its result is empty (default 0.1)
          userAgent     the user agent the page sees (default: WebKit's)
          viewport      {"width": 1280, "height": 800} (the default)

        Options:
          -q, --quiet    print nothing on stderr except errors
          -v, --verbose  print each job's progress on stderr even when it is not a terminal
          -h, --help     show this help

        \(exitCodes)
        """

    static let exitCodes = """
        Exit codes:
          0    every job succeeded
          1    a job failed (the other results are still printed)
          2    usage or config error (nothing was loaded)
          3    WebKit cannot run here: no display and no Xvfb, or WebKit failed to start
          130  interrupted by SIGINT (Ctrl-C)
          143  stopped by SIGTERM
        """
}
