import WebParser
/// A command line webparse does not understand, with what is wrong.
package struct UsageError: Error, Equatable {
    package var message: String

    package init(message: String) {
        self.message = message
    }
}
