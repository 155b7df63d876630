/// A command line webparse does not understand, with what is wrong.
struct UsageError: Error, Equatable {
    var message: String
}
