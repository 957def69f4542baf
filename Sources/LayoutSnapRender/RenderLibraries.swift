import CCairo
import CPangoCairo

/// Versions of the libraries that turn layouts into pixels, as loaded at run time (what renders is
/// the shared library, not the header the build saw).
public enum RenderLibraries {
    public static func versions() -> [String: String] {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
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
