// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "layoutsnap",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "layoutsnap", targets: ["layoutsnap"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // C modules: one small shim header each; only the targets named below import them.
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CXXHash", pkgConfig: "libxxhash", providers: [.apt(["libxxhash-dev"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),

        // Pure Swift: fixture model and decoding, rules, animation timing, layout tree, layout JSON.
        // Text is measured through the TextMeasuring protocol, so all of it is testable without Pango.
        .target(name: "LayoutSnapCore"),
        // Pixels as data: PNG encode/decode (zlib) and pixel hashes (xxHash). No Cairo.
        .target(name: "LayoutSnapImaging", dependencies: ["CZlib", "CXXHash", "CDeflate"]),
        // The only target that imports Cairo and Pango: private fonts, text engine, frame renderer.
        .target(name: "LayoutSnapRender",
                dependencies: ["LayoutSnapCore", "LayoutSnapImaging", "CCairo", "CPangoCairo"],
                resources: [.copy("Resources/Fonts")]),
        // The run's one verdict (RunResults) and what is drawn from it: the terminal text,
        // results.json, JUnit XML and the self-contained HTML report. Pure Swift; the pages'
        // CSS and JavaScript are files in Resources/, inlined into each page.
        .target(name: "LayoutSnapReport", dependencies: ["LayoutSnapCore"], resources: [.copy("Resources")]),
        // Batches: fixture discovery, worker pool, frame handlers (verify, record, render), goldens.
        .target(name: "LayoutSnapRunner", dependencies: ["LayoutSnapCore", "LayoutSnapImaging", "LayoutSnapRender", "LayoutSnapReport", "CZlib"]),
        // The thin command line: one file per subcommand.
        .executableTarget(name: "layoutsnap", dependencies: [
            "LayoutSnapCore", "LayoutSnapRunner", "LayoutSnapRender", "LayoutSnapImaging", "LayoutSnapReport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "LayoutSnapCoreTests", dependencies: ["LayoutSnapCore"]),
        .testTarget(name: "LayoutSnapImagingTests", dependencies: ["LayoutSnapImaging", "CZlib"]),
        .testTarget(name: "LayoutSnapReportTests", dependencies: ["LayoutSnapReport", "LayoutSnapCore"]),
        // The runner library without the command line: outcomes, golden locks, record modes, orphans, sharding.
        .testTarget(name: "LayoutSnapRunnerTests", dependencies: ["LayoutSnapRunner", "LayoutSnapReport", "LayoutSnapCore", "LayoutSnapImaging"]),
        .testTarget(name: "LayoutSnapRenderTests", dependencies: ["LayoutSnapCore", "LayoutSnapRender", "LayoutSnapRunner", "LayoutSnapImaging"]),
        // End to end: runs the built binary and checks stdout, stderr, exit codes and files.
        .testTarget(name: "LayoutSnapCLITests", dependencies: ["layoutsnap", "LayoutSnapImaging"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (`.ci/libfuzzer`), only when asked for: they have no `main` of their own
// (libFuzzer's is linked in by `-sanitize=fuzzer`), so an ordinary build could not link them.
if Context.environment["LAYOUTSNAP_FUZZ_TARGETS"] == "1" {
    package.targets += [
        .target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"),
        .executableTarget(name: "FuzzJSONParser", dependencies: ["FuzzSupport", "LayoutSnapCore"], path: "Fuzz/FuzzJSONParser"),
        .executableTarget(name: "FuzzFixtureDecoder", dependencies: ["FuzzSupport", "LayoutSnapCore"], path: "Fuzz/FuzzFixtureDecoder"),
        .executableTarget(name: "FuzzPNGDecoder", dependencies: ["FuzzSupport", "LayoutSnapImaging"], path: "Fuzz/FuzzPNGDecoder"),
        .executableTarget(name: "FuzzAPNGReader", dependencies: ["FuzzSupport", "LayoutSnapImaging"], path: "Fuzz/FuzzAPNGReader"),
    ]
}
