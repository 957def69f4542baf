/// A frame in Cairo's `CAIRO_FORMAT_ARGB32` layout, copied into tightly packed rows.
///
/// Each element of `pixels` is one native-endian `UInt32` `0xAARRGGBB` with
/// **premultiplied** alpha (every colour channel ≤ alpha), rows laid out top to bottom
/// with no padding (`stride == width`). `pixels.count == width * height`.
public struct PixelImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Premultiplied ARGB32, tightly packed rows (stride = width).
    public var pixels: [UInt32]

    /// - Precondition: `width >= 0`, `height >= 0`, `pixels.count == width * height`.
    ///   A mismatch is a programming error in the caller, not bad input, so it traps.
    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(width >= 0 && height >= 0, "PixelImage: negative size \(width) x \(height)")
        precondition(
            pixels.count == width * height,
            "PixelImage: \(pixels.count) pixels for a \(width) x \(height) image")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Copies a Cairo ARGB32 surface's data (`cairo_image_surface_get_data`), whose rows are
    /// `bytesPerRow` apart (`cairo_image_surface_get_stride`, always a multiple of 4 for ARGB32).
    /// Call `cairo_surface_flush` first.
    ///
    /// - Precondition: `bytesPerRow >= width * 4` and `bytesPerRow` is a multiple of 4.
    public init(copyingARGB32 base: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        precondition(width >= 0 && height >= 0, "PixelImage: negative size \(width) x \(height)")
        precondition(
            bytesPerRow >= width * 4 && bytesPerRow % 4 == 0,
            "PixelImage: bad ARGB32 stride \(bytesPerRow) for width \(width)")
        let count = width * height
        let pixels = [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let dst = buffer.baseAddress else {
                initialized = 0
                return
            }
            for y in 0..<height {
                // A raw byte copy: no typed load from the caller's buffer, so its alignment
                // does not matter (Cairo's is 4-byte aligned anyway).
                UnsafeMutableRawPointer(dst + y * width)
                    .copyMemory(from: base + y * bytesPerRow, byteCount: width * 4)
            }
            initialized = count
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// XXH3-64 (seed 0) of the premultiplied ARGB32 words in native byte order; see `PixelHash`.
    public var hash: UInt64 {
        pixels.withUnsafeBufferPointer { PixelHash.of($0) }
    }

    /// `hash` as 16 lowercase hex digits.
    public var hashHex: String {
        PixelHash.hex(hash)
    }

    /// Encodes the image with `PNGEncoder` (colour type 2 if fully opaque, else 6).
    ///
    /// - Precondition: `width > 0`, `height > 0`, `pixels.count == width * height`
    ///   (`pixels` is a `var`, so the count is re-checked here).
    public func encodePNG() -> [UInt8] {
        precondition(
            pixels.count == width * height,
            "PixelImage: \(pixels.count) pixels for a \(width) x \(height) image")
        return pixels.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else {
                preconditionFailure("PixelImage.encodePNG: PNG cannot encode an empty image")
            }
            return PNGEncoder.encode(pixels: base, width: width, height: height, stride: width)
        }
    }
}
