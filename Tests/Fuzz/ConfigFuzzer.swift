// libFuzzer entry point for the config loader; built and run by Scripts/fuzz-config.sh, not by SwiftPM.
import Foundation

private let directory = URL(fileURLWithPath: NSTemporaryDirectory())

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let config = try ConfigLoader.parse(bytes, name: "fuzz.json", directory: directory)
        precondition(!config.jobs.isEmpty && config.jobs.allSatisfy { !$0.name.isEmpty && !$0.job.evaluation.script.isEmpty })
    } catch {
        precondition(!error.problems.isEmpty && error.problems.allSatisfy { !$0.message.isEmpty })
    }
    return 0
}
