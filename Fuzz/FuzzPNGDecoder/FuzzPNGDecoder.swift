// libFuzzer target (`.ci/libfuzzer`): the PNG decoder that reads goldens and fixture images.
// Any input must decode or be rejected as a PNGError; an image that decodes must survive the
// encoder and decode to the same pixels.
import FuzzSupport
import LayoutSnapImaging

@_cdecl("FuzzPNGDecoder_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzzerMain(argc, argv) { data, size in data.map { fuzzPNGDecoder($0, size) } ?? 0 }
}

func fuzzPNGDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    // 4 M pixels: a larger header is refused before anything is allocated, as the 64 M limit is.
    guard let image = try? PNGDecoder.decode(bytes, maxPixels: 4 << 20), image.width > 0, image.height > 0 else {
        return 0
    }
    let png = image.pixels.withUnsafeBufferPointer {
        PNGEncoder.encode(pixels: $0.baseAddress!, width: image.width, height: image.height, stride: image.width)
    }
    guard let again = try? PNGDecoder.decode(png, maxPixels: 4 << 20) else {
        preconditionFailure("our own PNG did not decode")
    }
    precondition(again == image, "the pixels changed through encode and decode")
    return 0
}
