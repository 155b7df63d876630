/// Prometheus' text exposition format (version 0.0.4), as `/metrics` serves it and node_exporter's textfile
/// collector reads it: a `# HELP` and a `# TYPE` line for each metric, then its samples.
package struct PrometheusText {
    /// The text so far.
    package private(set) var text = ""

    /// An empty exposition.
    package init() {}

    /// Starts the metric `name` of `type` (`counter`, `gauge`, `histogram`), described by `help`.
    package mutating func metric(_ name: String, type: String, help: String) {
        text += "# HELP \(name) \(help.replacing("\\", with: "\\\\").replacing("\n", with: "\\n"))\n# TYPE \(name) \(type)\n"
    }

    /// A sample of `name` with `labels` (in order) and `value`.
    package mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escaped($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + Self.number(value) + "\n"
    }

    /// A label's value as the format writes it: backslash, double quote and line feed escaped.
    static func escaped(_ value: String) -> String {
        value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n")
    }

    /// A sample's value: whole numbers without a fraction, `+Inf` for infinity.
    static func number(_ value: Double) -> String {
        if value == .infinity { return "+Inf" }
        if value.rounded() == value && abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
