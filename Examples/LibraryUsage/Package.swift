// swift-tools-version:6.0
// A Swift program that uses webparse as a library: `swift run --package-path Examples/LibraryUsage`.
import PackageDescription

let package = Package(
    name: "LibraryUsage",
    dependencies: [.package(name: "webparse", path: "../..")],
    targets: [
        .executableTarget(
            name: "LibraryUsage",
            dependencies: [
                .product(name: "WebParser", package: "webparse"),
                .product(name: "WebParserCore", package: "webparse")
            ])
    ]
)
