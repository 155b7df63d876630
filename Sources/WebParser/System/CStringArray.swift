import FoundationEssentials
import Glibc

/// Calls `body` with `strings` as a NULL-terminated array of C strings, or with NULL when `strings` is
/// empty: the form C APIs take lists of strings in (argv, language lists, header lists).
package func withCStringArray<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) throws -> Result)
    rethrows -> Result
{
    guard !strings.isEmpty else { return try body(nil) }
    let pointers = strings.map { UnsafePointer(strdup($0)) } + [nil]
    defer { pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
    return try pointers.withUnsafeBufferPointer { try body($0.baseAddress) }
}
