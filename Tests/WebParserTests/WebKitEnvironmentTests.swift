import Foundation
import Testing
@testable import WebParser

/// WebKit's settings in the environment: all of them at once, before any thread, and room kept for what is known only
/// later (the private display, the preloaded libraries), which is then only overwritten.
@Suite struct WebKitEnvironmentTests {
    func names(_ settings: [WebKitEnvironment.Setting]) -> [String] { settings.map(\.name) }

    /// Without a display, `DISPLAY` and `XAUTHORITY` are reserved for webparse's Xvfb, and `LD_PRELOAD` always is;
    /// a user's own values are kept (only the locale the C library lacks is replaced).
    @Test func whatIsSetLaterIsReservedFirst() {
        let bare = WebKitEnvironment.settings(for: ["PATH": "/usr/bin"], hasGPU: false, localeMissing: false, physicalMemory: 8 << 30)
        #expect(Set(["DISPLAY", "XAUTHORITY", "LD_PRELOAD", "NO_AT_BRIDGE", "WEBKIT_WEB_RENDER_DEVICE_FILE", "JSC_forceRAMSize"]).isSubset(of: names(bare)))
        #expect(bare.allSatisfy { !$0.replacing }, "a user's own values stay")
        let displayed = WebKitEnvironment.settings(for: ["DISPLAY": ":5"], hasGPU: true, localeMissing: true, physicalMemory: 128 << 20)
        #expect(!names(displayed).contains("DISPLAY") && !names(displayed).contains("XAUTHORITY"))
        #expect(names(displayed).contains("LD_PRELOAD"))
        #expect(!names(displayed).contains("WEBKIT_WEB_RENDER_DEVICE_FILE") && !names(displayed).contains("JSC_forceRAMSize"))
        #expect(displayed.first { $0.name == "LC_ALL" } == WebKitEnvironment.Setting(name: "LC_ALL", value: "C.UTF-8", replacing: true))
        let emptyDisplay = WebKitEnvironment.settings(for: ["DISPLAY": ""], hasGPU: false, localeMissing: false, physicalMemory: 8 << 30)
        #expect(names(emptyDisplay).contains("DISPLAY"), "an empty DISPLAY names no display")
    }

    /// A user who chose a JIT tier or threshold gets none of webparse's thresholds.
    @Test func aChosenJITIsLeftAlone() {
        for chosen in ["JSC_useJIT", "JSC_useDFGJIT", "JSC_thresholdForJITSoon"] {
            let settings = WebKitEnvironment.settings(for: [chosen: "0"], hasGPU: false, localeMissing: false, physicalMemory: 8 << 30)
            #expect(!names(settings).contains { $0.hasPrefix("JSC_threshold") }, "\(chosen)")
        }
        let settings = WebKitEnvironment.settings(for: [:], hasGPU: false, localeMissing: false, physicalMemory: 8 << 30)
        #expect(names(settings).filter { $0.hasPrefix("JSC_threshold") }.count == WebKitEnvironment.javaScriptJITThresholds.count)
    }

    /// Once prepared, every variable the runtime overwrites later is in the environment, and preparing again changes
    /// nothing. (The runtime asserts it overwrites only such variables: every test that starts WebKit in a debug
    /// build checks it.)
    @Test func preparedEnvironmentHasEveryVariableTheRuntimeOverwrites() {
        WebParserRunner.prepareEnvironment()
        let found = WebKitEnvironment.prepare()
        for name in ["LD_PRELOAD", "NO_AT_BRIDGE", "GDK_GL"] + (found.needsOwnDisplay ? ["DISPLAY", "XAUTHORITY"] : []) {
            #expect(getenv(name) != nil, "\(name)")
        }
        let before = ProcessInfo.processInfo.environment
        WebParserRunner.prepareEnvironment()
        #expect(ProcessInfo.processInfo.environment == before)
    }
}
