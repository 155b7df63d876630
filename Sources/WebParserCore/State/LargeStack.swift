import FoundationEssentials
import WebParser

/// Runs work that recurses once per nesting level of a result on a thread of its own, with a stack sized for
/// the deepest result `ChangeTracker.rules` accept, whatever the stack of the caller's thread (`ulimit -s`,
/// a task's thread). The stack is address space: only the pages the recursion reaches are ever used.
package enum LargeStack {
    /// The thread's stack: 512 MiB, twice what `ChangeTracker.rules.maximumDepth` levels were measured to take in a
    /// debug build.
    static let size = 512 << 20

    /// `work`'s value, computed on a new thread with a `size` stack.
    package static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            SystemThread.start(stackSize: size) { continuation.resume(returning: work()) }
        }
    }
}
