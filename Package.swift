// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "webparse",
    products: [
        .library(name: "WebParser", targets: ["WebParser"]),
        .library(name: "WebParserCore", targets: ["WebParserCore"]),
        .library(name: "WebParserQueue", targets: ["WebParserQueue"]),
        .executable(name: "webparse", targets: ["webparse"]),
        // The web process extension that captures response bodies (libwebparse-extension.so).
        .library(name: "webparse-extension", type: .dynamic, targets: ["CWebParseExtension"])
    ],
    targets: [
        .systemLibrary(
            name: "WebKitGTKSystem",
            pkgConfig: "webkit2gtk-4.1",
            providers: [.apt(["libwebkit2gtk-4.1-dev", "libgtk-3-dev", "libglib2.0-dev"])]
        ),
        .systemLibrary(name: "WebKitWebExtensionSystem", pkgConfig: "webkit2gtk-web-extension-4.1"),
        // libxml2, which WebKitGTK uses too: XPath syntax checks for extract's selectors.
        .systemLibrary(name: "LibXML2System", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // What the UI process and the web process extension say to each other: headers only.
        .target(name: "WebParseProtocol"),
        .target(name: "CWebKitGTK", dependencies: ["WebKitGTKSystem", "LibXML2System", "WebParseProtocol"]),
        // The hook's JavaScript is compiled in (#embed), not shipped beside the library.
        .target(
            name: "CWebParseExtension", dependencies: ["WebKitWebExtensionSystem", "WebParseProtocol"],
            exclude: ["capture_hook.js", "pending_hook.js"]),
        // The JavaScript webparse runs in pages, one .js file per concern, compiled in (#embed).
        .target(name: "PageJavaScript", exclude: ["scripts"]),
        .target(name: "WebParser", dependencies: ["CWebKitGTK", "PageJavaScript"]),
        .target(name: "WebParserCore", dependencies: ["WebParser", "WebParserVersion"]),
        // hiredis, the Redis client a work queue's workers talk to the server with, through a shim of its own.
        .systemLibrary(name: "HiredisSystem", pkgConfig: "hiredis", providers: [.apt(["libhiredis-dev"])]),
        .target(name: "CRedis", dependencies: ["HiredisSystem"]),
        // Workers that share a queue on Redis (webparse work).
        .target(name: "WebParserQueue", dependencies: ["CRedis", "WebParserCore"]),
        // The version, compiled from the VERSION file.
        .target(name: "WebParserVersion"),
        // Hardened as Debian's packages are: every symbol bound at start and the relocations read-only after it.
        .executableTarget(
            name: "webparse", dependencies: ["WebParser", "WebParserCore", "WebParserQueue", "WebParserVersion"],
            linkerSettings: [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "now", "-Xlinker", "-z", "-Xlinker", "relro"])]),
        // A JavaScriptCore context without a page, in which the page's JavaScript files are tested.
        .target(name: "CScriptSandbox", dependencies: ["WebKitGTKSystem"], path: "Tests/CScriptSandbox"),
        .target(name: "TestSupport", dependencies: ["WebParser", "CScriptSandbox"], path: "Tests/TestSupport"),
        // Unit tests, one target per module: no WebKit page, no built binary.
        .testTarget(name: "WebParserTests", dependencies: ["WebParser", "TestSupport"]),
        // The bad-config corpus is read from the source tree by its tests, not bundled.
        .testTarget(name: "WebParserCoreTests", dependencies: ["WebParserCore", "WebParser"], exclude: ["BadConfigs"]),
        .testTarget(name: "webparseTests", dependencies: ["webparse", "WebParserCore"]),
        // Integration tests: the library on real WebKitGTK pages served by local HTTP servers, and the built
        // binary as a shell or cron runs it.
        .testTarget(name: "IntegrationTests", dependencies: ["WebParser", "WebParserCore", "WebParserQueue", "webparse", "TestSupport"])
    ]
)
