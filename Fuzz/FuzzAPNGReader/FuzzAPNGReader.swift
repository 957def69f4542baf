// libFuzzer target (`.ci/libfuzzer`): the APNG reader that checks preview's animations. Any input
// must be read or rejected as a PNGError, within its pixel budget.
import FuzzSupport
import LayoutSnapTestSupport

@_cdecl("FuzzAPNGReader_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzzerMain(argc, argv) { data, size in data.map { fuzzAPNGReader($0, size) } ?? 0 }
}

func fuzzAPNGReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let apng = try? APNGReader(Array(UnsafeBufferPointer(start: data, count: size)), maxPixels: 4 << 20) else {
        return 0
    }
    precondition(
        apng.images.count == apng.frames.count && apng.frames.count == apng.frameCount, "frames and images disagree")
    for image in apng.images {
        precondition(image.width == apng.width && image.height == apng.height, "a frame is not the canvas's size")
    }
    return 0
}
