// swift-tools-version:6.0
import PackageDescription
import Foundation

/// Header search paths of the rendering libraries, from pkg-config as a system-library target
/// would take them, but without their link flags: CRenderLibraries loads those libraries on first
/// use, so linking them (which the system-library targets did) would undo that. Without pkg-config
/// or the development headers the manifest still loads (so `swift package resolve` and the
/// like work); the build then stops in CRenderLibraries.h with the packages to install.
let renderIncludes: [String] = {
    let packages = ["pangocairo", "pangoft2", "cairo", "cairo-ft", "fontconfig", "freetype2", "harfbuzz", "pixman-1"]
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pkg-config", "--cflags-only-I"] + packages
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = Pipe()
    var output = Data()
    if (try? process.run()) != nil {
        output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
    }
    // (Empty first: a process that never started has no termination status to ask for.)
    guard !output.isEmpty, process.terminationStatus == 0 else { return [] }
    return String(decoding: output, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        .map(String.init).filter { $0.hasPrefix("-I") }
}()
/// The same paths for Swift targets that import CRenderLibraries (its header includes them).
let importsRenderLibraries: [SwiftSetting] = [.unsafeFlags(renderIncludes.flatMap { ["-Xcc", $0] })]

let package = Package(
    name: "layoutsnap",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "layoutsnap", targets: ["layoutsnap"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // C modules: one small shim header each; only the targets named below import them.
        // Cairo, Pango, fontconfig, FreeType, HarfBuzz, GLib: not linked but loaded on first use by
        // forwarding stubs generated from their headers (Tools/generate-render-stubs.py), so that
        // diff and --version start without loading ~40 shared objects (apt: libpango1.0-dev, libcairo2-dev).
        // Every executable that links it exports its g_thread_new and
        // cairo_ft_font_face_create_for_pattern, so that Pango's calls bind to them (PangoThreads.c,
        // DeferredFaces.c).
        .target(
            name: "CRenderLibraries", cSettings: [.unsafeFlags(renderIncludes)],
            linkerSettings: [
                .linkedLibrary("dl"),  // in libc since glibc 2.34; a stub before that
                .unsafeFlags([
                    "-Xlinker", "--export-dynamic-symbol=g_thread_new",
                    "-Xlinker", "--export-dynamic-symbol=cairo_ft_font_face_create_for_pattern",
                ]),
            ]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CXXHash", pkgConfig: "libxxhash", providers: [.apt(["libxxhash-dev"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),

        // Swift reading no files, and no C library (only CSHA256's intrinsics): fixture model and decoding (the files a fixture names come
        // through the InputFiles protocol), kinds and their rules, animation timing, layout tree,
        // lints, generation. Text is measured through the TextMeasuring protocol, so all of it is
        // testable without Pango.
        // JSON with positions: the parser (line, column, JSON path of every value), the writer
        // (canonical, rounded numbers) and ObjectReader (typed fields, did-you-mean on unknown keys).
        .target(name: "LayoutSnapJSON"),
        .target(name: "LayoutSnapCore", dependencies: ["LayoutSnapJSON", "CSHA256"]),
        // SHA-256 blocks with the CPU's SHA extensions, for Core's SHA256 (which falls back to its
        // own Swift): one C file of compiler intrinsics, no library.
        .target(name: "CSHA256"),
        // Comparison: the pixel diff (anti-aliasing, regions, tolerances) that returns a sealed
        // identical / similar / different, the layout and motion diffs, and attribution of
        // changed pixels to elements and of failing frames to causes.
        .target(name: "LayoutSnapDiff", dependencies: ["LayoutSnapCore", "LayoutSnapJSON"]),
        // The one OS boundary: named system calls (each deciding EINTR once) whose errno becomes a
        // typed SystemError at once, and the one atomic file writer (fsync, rename).
        .target(name: "LayoutSnapSystem"),
        // Pixels as data: PNG encode/decode (zlib) and pixel hashes (xxHash). No Cairo.
        .target(
            name: "LayoutSnapImaging", dependencies: ["CZlib", "CXXHash", "CXXH3", "CDeflate", "LayoutSnapSystem"]),
        // XXH3 with AVX2 where the CPU has it, for Imaging's pixel hashes (libxxhash, built for
        // SSE2, stays the fallback): one C file of xxhash.h's own code, no library.
        .target(name: "CXXH3"),
        // The only target that imports Cairo and Pango: private fonts, text engine, frame renderer.
        .target(
            name: "LayoutSnapRender",
            dependencies: ["LayoutSnapCore", "LayoutSnapImaging", "LayoutSnapSystem", "CRenderLibraries"],
            resources: [.copy("Resources/Fonts")], swiftSettings: importsRenderLibraries),
        // The run's one verdict (RunResults) and what is drawn from it: the terminal text,
        // results.json, JUnit XML and the self-contained HTML report. Pure Swift; the pages'
        // CSS and JavaScript are files in Resources/, inlined into each page.
        .target(
            name: "LayoutSnapReport",
            dependencies: ["LayoutSnapCore", "LayoutSnapDiff", "LayoutSnapJSON", "LayoutSnapSystem"],
            resources: [.copy("Resources")]),
        // Batches: fixture discovery, worker pool, frame handlers (verify, record, render), goldens.
        .target(
            name: "LayoutSnapRunner",
            dependencies: [
                "LayoutSnapCore", "LayoutSnapDiff", "LayoutSnapImaging", "LayoutSnapJSON", "LayoutSnapRender",
                "LayoutSnapReport", "LayoutSnapSystem",
            ]),
        // The thin command line: one file per subcommand.
        .executableTarget(
            name: "layoutsnap",
            dependencies: [
                "LayoutSnapCore", "LayoutSnapDiff", "LayoutSnapJSON", "LayoutSnapRunner", "LayoutSnapRender",
                "LayoutSnapImaging", "LayoutSnapReport", "LayoutSnapSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Release builds link with lld and pack the relative relocations (DT_RELR, read by
            // glibc 2.36's loader): the loader read 81,000 RELA entries (1.9 MB) before main. Each
            // start is 0.5 to 1.1 ms shorter, a tenth of `--version` (docs/decisions.md, "Packed
            // relocations"); gold lacks the option. `--no-export-dynamic` undoes the toolchain's
            // `-export-dynamic` (static-stdlib-args.lnk): 10,295 exported Swift symbols made the
            // runtime's `dladdr` at every start walk them all ("The release binary exports only
            // what the libraries must call"); CRenderLibraries still exports its two by name.
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-Xclang-linker", "-fuse-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                        "-Xlinker", "--no-export-dynamic",
                    ],
                    .when(platforms: [.linux], configuration: .release))
            ]),

        // Benchmarks, outside the product: `swift build -c release && .build/release/layoutsnap-bench`
        // prints the figures of docs/performance.md. The library holds the measurements (and the PNG encoder
        // alternatives they compare against); the executable is their command line.
        .target(
            name: "LayoutSnapBenchmarks",
            dependencies: [
                "LayoutSnapCore", "LayoutSnapDiff", "LayoutSnapImaging", "LayoutSnapRender", "LayoutSnapReport",
                "LayoutSnapRunner", "LayoutSnapSystem", "CZlib", "CRenderLibraries",
            ],
            path: "Benchmarks/LayoutSnapBenchmarks", swiftSettings: importsRenderLibraries),
        .executableTarget(
            name: "layoutsnap-bench",
            dependencies: [
                "LayoutSnapBenchmarks", "LayoutSnapCore", "LayoutSnapRunner",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], path: "Benchmarks/layoutsnap-bench"),
        .testTarget(
            name: "LayoutSnapBenchmarksTests",
            dependencies: [
                "LayoutSnapBenchmarks", "LayoutSnapImaging", "LayoutSnapRunner", "LayoutSnapTestSupport",
                "layoutsnap-bench", "layoutsnap",
            ],
            path: "Benchmarks/Tests"),

        .testTarget(name: "LayoutSnapSystemTests", dependencies: ["LayoutSnapSystem", "LayoutSnapTestSupport"]),
        // What the test targets share, outside the product: one process runner, temporary folders,
        // the package root, the seeded PRNG, PNG chunks for tests that write or damage them, the fake
        // text measurer the rules' tests use, and the APNG reader that checks preview's animations (fuzzed too: Fuzz/FuzzAPNGReader links this
        // target, so it imports no XCTest).
        .target(
            name: "LayoutSnapTestSupport",
            dependencies: ["LayoutSnapCore", "LayoutSnapImaging", "LayoutSnapSystem", "CZlib"],
            path: "Tests/LayoutSnapTestSupport"),
        .testTarget(name: "LayoutSnapJSONTests", dependencies: ["LayoutSnapJSON"]),
        .testTarget(
            name: "LayoutSnapDiffTests",
            dependencies: ["LayoutSnapDiff", "LayoutSnapCore", "LayoutSnapJSON", "LayoutSnapTestSupport"]),
        .testTarget(
            name: "LayoutSnapCoreTests", dependencies: ["LayoutSnapCore", "LayoutSnapJSON", "LayoutSnapTestSupport"]),
        .testTarget(
            name: "LayoutSnapImagingTests", dependencies: ["LayoutSnapImaging", "CZlib", "LayoutSnapTestSupport"]),
        .testTarget(
            name: "LayoutSnapReportTests",
            dependencies: ["LayoutSnapReport", "LayoutSnapCore", "LayoutSnapDiff", "LayoutSnapTestSupport"]),
        // The runner library without the command line: outcomes, golden locks, record modes, orphans, sharding.
        .testTarget(
            name: "LayoutSnapRunnerTests",
            dependencies: [
                "LayoutSnapRunner", "LayoutSnapReport", "LayoutSnapCore", "LayoutSnapImaging", "LayoutSnapJSON",
                "LayoutSnapTestSupport",
            ]),
        .testTarget(
            name: "LayoutSnapRenderTests",
            dependencies: [
                "LayoutSnapCore", "LayoutSnapDiff", "LayoutSnapRender", "LayoutSnapRunner", "LayoutSnapImaging",
                "LayoutSnapTestSupport",
                "CRenderLibraries",
            ],
            swiftSettings: importsRenderLibraries),
        // End to end: runs the built binary and checks stdout, stderr, exit codes and files.
        .testTarget(
            name: "LayoutSnapCLITests", dependencies: ["layoutsnap", "LayoutSnapImaging", "LayoutSnapTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (`.ci/libfuzzer`), only when asked for: they have no `main` of their own
// (libFuzzer's is linked in by `-sanitize=fuzzer`), so an ordinary build could not link them.
if Context.environment["LAYOUTSNAP_FUZZ_TARGETS"] == "1" {
    package.targets += [
        .target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"),
        .executableTarget(
            name: "FuzzJSONParser", dependencies: ["FuzzSupport", "LayoutSnapJSON"], path: "Fuzz/FuzzJSONParser"),
        .executableTarget(
            name: "FuzzFixtureDecoder", dependencies: ["FuzzSupport", "LayoutSnapCore"], path: "Fuzz/FuzzFixtureDecoder"
        ),
        .executableTarget(
            name: "FuzzPNGDecoder", dependencies: ["FuzzSupport", "LayoutSnapImaging"], path: "Fuzz/FuzzPNGDecoder"),
        .executableTarget(
            name: "FuzzAPNGReader", dependencies: ["FuzzSupport", "LayoutSnapTestSupport"], path: "Fuzz/FuzzAPNGReader"),
    ]
}

// Release builds reach each concrete generic type of this package's code through its metadata
// accessor, called directly, instead of looking the type up by its mangled name on first use. The
// lookup demangles the name and, for each generic requirement, scans every protocol conformance in
// the executable: about a tenth of a warm verify's CPU. Direct calls make the code slightly larger
// (0.2%) and the warm bundled verify 8% faster (docs/decisions.md, "Type metadata by accessor").
// A frontend option: a compiler that dropped it would stop the build here, not change its output.
let typeMetadataByAccessor = SwiftSetting.unsafeFlags(
    ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release))
for target in package.targets where [.regular, .executable].contains(target.type) && target.name != "CRenderLibraries" {
    target.swiftSettings = (target.swiftSettings ?? []) + [typeMetadataByAccessor]
}

// The AddressSanitizer step (`.ci/asan`) runs the unit-test targets alone: without the end-to-end
// tests and the benchmarks, which it would build with the sanitizer and never run.
if Context.environment["LAYOUTSNAP_UNIT_TESTS_ONLY"] == "1" {
    let unused: Set<String> = [
        "LayoutSnapCLITests", "LayoutSnapBenchmarksTests", "LayoutSnapBenchmarks", "layoutsnap-bench",
    ]
    package.targets.removeAll { unused.contains($0.name) }
}
