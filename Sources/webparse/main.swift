import Foundation
import WebParser

let args = CommandLine.arguments
let parser = WebParser()
let job = WebParserJob(url: URL(string: args[1])!, script: args[2], timeout: .seconds(5), retry: RetryPolicy(retries: 0))
let start = ContinuousClock.now
do {
    let data = try await parser.run(job) { state in FileHandle.standardError.write("state: \(state)\n".data(using: .utf8)!) }
    print(String(decoding: data, as: UTF8.self))
} catch {
    print("error: \(error)")
}
print(ContinuousClock.now - start)
