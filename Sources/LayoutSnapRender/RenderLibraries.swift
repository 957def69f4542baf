import CRenderLibraries
import Foundation

/// Versions of the libraries that turn layouts into pixels, as loaded at run time (what renders is
/// the shared library, not the header the build saw).
public enum RenderLibraries {
    /// Loads Cairo, Pango and the libraries beneath them (once per process; later calls give the
    /// first answer). They are not linked but loaded here, on first use, so that commands that
    /// never draw start without them. Everything that draws calls this first (FontSystem does),
    /// so a missing library is an error naming it, not a crash at the first drawing call.
    public static func load() throws(RenderError) {
        var message = [CChar](repeating: 0, count: 512)
        guard layoutsnap_render_libraries_load(&message, message.count) != 0 else { return }
        throw RenderError.libraries(
            String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Starts `load()` on a thread of its own and returns at once: a command that will draw or
    /// fingerprint the environment calls it first thing, so that the loading (some 4 ms of
    /// symbol binding) overlaps the parsing of its arguments. Call `FontSystem.pinLanguage()`
    /// before it: the libraries read the environment as they load.
    public static func startLoading() {
        Thread.detachNewThread { try? load() }
    }

    /// Empty when the libraries cannot be loaded (the error comes from `load()` when drawing).
    public static func versions() -> [String: String] {
        guard (try? load()) != nil else { return [:] }
        var major: Int32 = 0
        var minor: Int32 = 0
        var patch: Int32 = 0
        layoutsnap_freetype_version(&major, &minor, &patch)
        let fc = layoutsnap_fontconfig_version()
        return [
            "cairo": String(cString: layoutsnap_cairo_version()),
            "pixman": String(cString: layoutsnap_pixman_version()),
            "pango": String(cString: layoutsnap_pango_version()),
            "harfbuzz": String(cString: layoutsnap_harfbuzz_version()),
            "freetype": "\(major).\(minor).\(patch)",
            "fontconfig": "\(fc / 10000).\((fc / 100) % 100).\(fc % 100)",
        ]
    }

    public static var architecture: String {
        #if arch(x86_64)
            "x86_64"
        #elseif arch(arm64)
            "arm64"
        #else
            "unknown"
        #endif
    }
}
