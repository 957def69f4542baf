import CRenderLibraries

/// A GObject reference (a Pango font map, context or layout) owned by exactly one Swift object,
/// which drops it once, in deinit: no error path can forget it or drop it twice.
final class GObjectReference<Handle> {
    let handle: Handle
    private let object: UnsafeMutableRawPointer

    private init(_ handle: Handle, object: UnsafeMutableRawPointer) {
        self.handle = handle
        self.object = object
    }

    deinit { layoutsnap_g_object_unref(object) }
}

extension GObjectReference where Handle == OpaquePointer {
    /// Takes over a reference the caller owns (a `_new` or `_create` result).
    convenience init(taking handle: OpaquePointer) { self.init(handle, object: UnsafeMutableRawPointer(handle)) }
}

extension GObjectReference where Handle == UnsafeMutablePointer<PangoFontMap> {
    convenience init(taking handle: UnsafeMutablePointer<PangoFontMap>) {
        self.init(handle, object: UnsafeMutableRawPointer(handle))
    }
}

/// A fontconfig configuration owned by one Swift object, released in deinit (fontconfig keeps
/// its own reference while the configuration is current).
final class FontConfigReference {
    let pointer: OpaquePointer

    /// A new, empty configuration, or nil when fontconfig cannot make one.
    init?() {
        guard let config = FcConfigCreate() else { return nil }
        pointer = config
    }

    deinit { FcConfigDestroy(pointer) }
}
