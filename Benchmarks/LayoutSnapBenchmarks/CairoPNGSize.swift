import CRenderLibraries
import LayoutSnapRender

/// The benchmark's yardstick for PNG size: what Cairo's own `cairo_surface_write_to_png` writes
/// for the same pixels (zlib level 6, adaptive filters, RGBA). Cairo is read here over the
/// frame's pixels; the product's Cairo stays in LayoutSnapRender.
enum CairoPNGSize {
    /// Bytes of the PNG, or nil if Cairo could not write it.
    static func of(_ frame: FramePixels) -> Int? {
        final class Counter { var bytes = 0 }
        let counter = Counter()
        let data = UnsafeMutableRawPointer(mutating: frame.pixels.baseAddress!).assumingMemoryBound(to: UInt8.self)
        guard
            let surface = cairo_image_surface_create_for_data(
                data, CAIRO_FORMAT_ARGB32, Int32(frame.width), Int32(frame.height),
                Int32(frame.width * 4))
        else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        let status = withExtendedLifetime(counter) {
            cairo_surface_write_to_png_stream(
                surface,
                { closure, _, length in
                    Unmanaged<Counter>.fromOpaque(closure!).takeUnretainedValue().bytes += Int(length)
                    return CAIRO_STATUS_SUCCESS
                }, Unmanaged.passUnretained(counter).toOpaque())
        }
        return status == CAIRO_STATUS_SUCCESS ? counter.bytes : nil
    }
}
