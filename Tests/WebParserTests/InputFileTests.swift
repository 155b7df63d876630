import Foundation
import Testing
import WebParser

/// What webparse reads from files.
@Suite struct InputFileTests {
    /// A file of the kernel's is read to its end: `/proc` files say their size is 0, and a reader that trusts it
    /// (`String(contentsOfFile:)`) stops after 4 KiB, before the stack's line of a process's memory map.
    @Test func aKernelFileIsReadToItsEnd() throws {
        let maps = try #require(InputFile.kernelText("/proc/self/maps"))
        #expect(maps.utf8.count > 4096, "\(maps.utf8.count) bytes")
        #expect(maps.contains("[stack]") && maps.hasSuffix("\n"))
        #expect(InputFile.kernelText("/proc/self/no-such-file") == nil)
    }
}
