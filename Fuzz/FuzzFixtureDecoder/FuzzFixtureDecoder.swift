// libFuzzer target (`.ci/libfuzzer`): the fixture decoder over all kinds. Any input must decode,
// or be rejected with an error that names the file and says where (a JSON path, or line and
// column), as every fixture error must. Image paths resolve next to the bundled post fixtures.
import Foundation
import FuzzSupport
import LayoutSnapCore

/// The bundled posts' folder with its images read into memory once (Core's decoders read no files).
let folder: FixtureFolder = {
    let path = ProcessInfo.processInfo.environment["LAYOUTSNAP_FUZZ_IMAGES"] ?? "Fixtures/posts"
    var files: [String: [UInt8]] = [:]
    for name in (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? [] {
        let file = (path as NSString).appendingPathComponent(name)
        if let data = FileManager.default.contents(atPath: file) { files[file] = [UInt8](data) }
    }
    return FixtureFolder(path: path, files: InMemoryInputFiles(files))
}()

@_cdecl("FuzzFixtureDecoder_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzzerMain(argc, argv) { data, size in data.map { fuzzFixtureDecoder($0, size) } ?? 0 }
}

func fuzzFixtureDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let fixture = try FixtureDecoder.decode(bytes: bytes, id: "fuzz", file: "fuzz.json", folder: folder)
        precondition(
            fixture.canvas.pixelWidth > 0 && fixture.canvas.pixelHeight > 0, "a decoded fixture has an empty canvas")
    } catch {
        let d = error.diagnostic
        precondition(d.file == "fuzz.json" && d.isLocated, "an error that does not say where: \(d)")
    }
    return 0
}
