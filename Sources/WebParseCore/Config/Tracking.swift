import WebParser
/// How a job's items are told apart between runs, and how many are remembered.
package struct Tracking: Sendable, Equatable {
    /// A dot-separated path to the field that identifies an item of an array result (`id`, `link.href`); nil
    /// identifies an item by all of it.
    package var key: String?
    /// How many item identities a job remembers; the oldest are forgotten first.
    var remember = 5000
}
