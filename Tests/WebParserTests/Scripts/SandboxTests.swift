import Testing
import TestSupport

/// The sandbox the page's JavaScript files are tested in: Promise jobs run, the fake page's clock runs timers.
struct SandboxTests {
    @Test func aCallRunsItsAwaitsAndTimers() throws {
        let page = try ScriptPage()
        let value = try page.call("await null; await new Promise((resolve) => setTimeout(resolve, 250)); return page.now;")
        #expect(value == "250")
    }

    @Test func aRejectionIsThrown() throws {
        let page = try ScriptPage()
        #expect(throws: ScriptSandbox.Failure.self) { try page.call("throw new Error('no');") }
    }
}
