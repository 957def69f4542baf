import CRenderLibraries

/// The one place where Cairo status codes become Swift errors. Cairo never returns NULL for a
/// failed surface or context: it returns an object in an error state, so every creation and every
/// frame is checked here.
@inline(__always)
func checkCairo(_ status: cairo_status_t, _ operation: @autoclosure () -> String) throws(RenderError) {
    guard status == CAIRO_STATUS_SUCCESS else {
        throw RenderError.cairo(operation: operation(), status: String(cString: cairo_status_to_string(status)))
    }
}

/// An image surface with exactly one owner.
final class CairoSurface {
    let pointer: OpaquePointer

    init(format: cairo_format_t, width: Int, height: Int) throws(RenderError) {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw RenderError.cairo(operation: "create a \(width) x \(height) surface", status: "invalid size")
        }
        let surface = cairo_image_surface_create(format, Int32(width), Int32(height))!
        do {
            try checkCairo(cairo_surface_status(surface), "create a \(width) x \(height) surface")
        } catch {
            cairo_surface_destroy(surface)
            throw error
        }
        pointer = surface
    }

    deinit { cairo_surface_destroy(pointer) }

    var width: Int { Int(cairo_image_surface_get_width(pointer)) }
    var height: Int { Int(cairo_image_surface_get_height(pointer)) }
    var stride: Int { Int(cairo_image_surface_get_stride(pointer)) }
    var data: UnsafeMutablePointer<UInt8> { cairo_image_surface_get_data(pointer) }
}

/// A drawing context with exactly one owner.
final class CairoContext {
    let pointer: OpaquePointer

    init(_ surface: CairoSurface) throws(RenderError) {
        let cr = cairo_create(surface.pointer)!
        do {
            try checkCairo(cairo_status(cr), "create a drawing context")
        } catch {
            cairo_destroy(cr)
            throw error
        }
        pointer = cr
    }

    deinit { cairo_destroy(pointer) }

    func check(_ operation: @autoclosure () -> String) throws(RenderError) {
        try checkCairo(cairo_status(pointer), operation())
    }
}
