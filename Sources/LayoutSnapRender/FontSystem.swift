import CRenderLibraries
import Foundation
import LayoutSnapImaging
import LayoutSnapSystem

/// The process-wide private fontconfig: only the project's fonts, never the system's or the
/// user's configuration (pango-cairo-notes.md, "Deterministic text").
///
/// Built once, before any worker thread touches Pango, and never freed: every font map of every
/// worker points at it. `@unchecked Sendable` because it holds the FcConfig pointer, which is
/// only read once set-up is done (fontconfig's own locking covers its reads).
public final class FontSystem: @unchecked Sendable {
    /// A font file in use and the hash of its bytes (recorded in the golden manifest).
    public struct FontFile: Sendable, Hashable {
        public var name: String
        public var path: String
        public var hash: String
    }

    public let fonts: [FontFile]
    /// The FcConfig every font map uses. Owned by this object for the life of the process.
    private let configOwner: FontConfigReference
    var config: OpaquePointer { configOwner.pointer }

    /// Fonts too large to commit, loaded by exact path from Debian packages.
    static let packagedFonts: [(path: String, package: String)] = [
        ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "fonts-noto-cjk"),
        ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", "fonts-noto-cjk"),
        ("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf", "fonts-noto-color-emoji"),
    ]

    /// Built by the first caller, under the lock; a failure is kept and given to every caller.
    private static let sharedResult = LockedValue<Result<FontSystem, RenderError>?>(nil)

    /// The one font system of this process.
    public static func shared() throws(RenderError) -> FontSystem {
        let result = sharedResult.withLock { stored in
            if let stored { return stored }
            let made = Result<FontSystem, RenderError> { () throws(RenderError) in try FontSystem() }
            stored = made
            return made
        }
        return try result.get()
    }

    /// The font files this process renders with and their hashes, without fontconfig: what the
    /// environment fingerprint needs (the result cache asks for it before it knows whether
    /// anything will be rendered). Read once per process.
    public static func files() throws(RenderError) -> [FontFile] {
        let result = filesResult.withLock { stored in
            if let stored { return stored }
            let made = Result<[FontFile], RenderError> { () throws(RenderError) in try listFiles() }
            stored = made
            return made
        }
        return try result.get()
    }

    private static let filesResult = LockedValue<Result<[FontFile], RenderError>?>(nil)

    private static func listFiles() throws(RenderError) -> [FontFile] {
        let bundled = try Self.bundledFontDirectory()
        var files: [(name: String, path: String)] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: bundled)) ?? []
        for name in names.sorted() where name.hasSuffix(".otf") || name.hasSuffix(".ttf") {
            files.append((name, bundled + "/" + name))
        }
        if files.isEmpty {
            throw RenderError.fonts("no fonts found in \(bundled); the build's resources are missing")
        }
        for packaged in Self.packagedFonts {
            guard FileManager.default.isReadableFile(atPath: packaged.path) else {
                throw RenderError.fonts(
                    "\(packaged.path) is missing: install the Debian package \(packaged.package) (bash .ci/install does)"
                )
            }
            files.append(((packaged.path as NSString).lastPathComponent, packaged.path))
        }
        var hashed: [FontFile] = []
        for file in files {
            hashed.append(FontFile(name: file.name, path: file.path, hash: try Self.hashFile(file.path)))
        }
        return hashed
    }

    private init() throws(RenderError) {
        try RenderLibraries.load()
        Self.pinLanguage()
        let files = try Self.files()

        // Owned from here: a set-up that fails below releases it.
        guard let configOwner = FontConfigReference() else { throw RenderError.fonts("FcConfigCreate failed") }
        let config = configOwner.pointer
        let xml = Self.configXML
        let parsed = xml.withCString {
            FcConfigParseAndLoadFromMemory(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), 1)
        }
        guard parsed != 0 else { throw RenderError.fonts("the private fontconfig configuration did not parse") }
        for file in files {
            let added = file.path.withCString {
                FcConfigAppFontAddFile(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
            }
            guard added != 0 else { throw RenderError.fonts("fontconfig could not load \(file.path)") }
        }
        guard FcConfigBuildFonts(config) != 0 else { throw RenderError.fonts("FcConfigBuildFonts failed") }
        // Before any Pango font map exists: this also keeps Pango's background FcInit from reading
        // /etc/fonts and the user's configuration.
        guard FcConfigSetCurrent(config) != 0 else { throw RenderError.fonts("FcConfigSetCurrent failed") }
        try Self.pinFaces(config)
        self.configOwner = configOwner
        self.fonts = files
    }

    /// Opens every face of every font file once, through cairo, and keeps it locked for the life
    /// of the process.
    ///
    /// Cairo 1.16 keeps at most 10 FreeType faces open; to open another it closes one whose lock
    /// count is zero, reading that count without the face's own mutex. With more than 10 faces
    /// in use (8 Inter faces, 2 Arabic, the CJK collections, emoji), one worker could close a face
    /// while another was measuring glyphs with it: a SIGSEGV about one run in five over 1,000
    /// generated transcripts with two jobs. A face that is locked is never closed, and with every
    /// face locked from the start nothing is ever closed, so workers never race on a face. Cost:
    /// the faces stay open (memory-mapped files), a few MB.
    static func pinFaces(_ config: OpaquePointer) throws(RenderError) {
        guard let set = FcConfigGetFonts(config, FcSetApplication) else { return }
        for i in 0..<Int(set.pointee.nfont) {
            guard let pattern = set.pointee.fonts[i] else { continue }
            let failed = layoutsnap_pin_cairo_ft_face(pattern)
            if failed != 0 {
                var file: UnsafeMutablePointer<FcChar8>?
                FcPatternGetString(pattern, FC_FILE, 0, &file)
                let name = file.map { String(cString: $0) } ?? "font \(i)"
                throw RenderError.fonts("cairo could not open \(name) (step \(failed))")
            }
        }
    }

    /// CJK glyph shapes follow the language; the user's locale must not choose it.
    static func pinLanguage() {
        setenv("PANGO_LANGUAGE", "en", 1)
        unsetenv("LANGUAGE")
    }

    /// The bundled fonts, where `ResourceLocator` finds them (installed, beside the binary, or
    /// `$LAYOUTSNAP_RESOURCES/fonts`).
    static func bundledFontDirectory() throws(RenderError) -> String {
        do {
            return try ResourceLocator.locate(.fonts)
        } catch {
            throw RenderError.fonts(error.description)
        }
    }

    /// XXH3 of the file, read through a memory map: fonts are tens of megabytes, and mapped
    /// pages from the page cache are hashed without a copy.
    static func hashFile(_ path: String) throws(RenderError) -> String {
        do {
            return try SystemCall.withMappedFile(path) { String(format: "%016llx", PixelHash.ofBytes($0)) }
        } catch {
            throw RenderError.fonts("cannot read \(path): \(error.reason)")
        }
    }

    /// Only the rules rendering needs: scale colour-emoji bitmap strikes to the requested size
    /// (otherwise they draw at their 136 px strike), map the `emoji` family to Noto Color Emoji,
    /// prefer Noto Sans Arabic for Arabic text. No <dir>, no <include>: fonts come in one by one.
    static let configXML = """
        <?xml version="1.0"?>
        <!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
        <fontconfig>
          <match target="font">
            <test name="outline" compare="eq"><bool>false</bool></test>
            <edit name="pixelsizefixupfactor" mode="assign">
              <divide><name target="pattern">pixelsize</name><name target="font">pixelsize</name></divide>
            </edit>
          </match>
          <match target="font">
            <test name="outline" compare="eq"><bool>false</bool></test>
            <test name="pixelsizefixupfactor" compare="not_eq"><double>1.0</double></test>
            <edit name="matrix" mode="assign">
              <times><name>matrix</name>
                <matrix><name>pixelsizefixupfactor</name><double>0</double><double>0</double><name>pixelsizefixupfactor</name></matrix>
              </times>
            </edit>
            <edit name="size" mode="assign"><divide><name>size</name><name>pixelsizefixupfactor</name></divide></edit>
          </match>
          <alias binding="same"><family>emoji</family><prefer><family>Noto Color Emoji</family></prefer></alias>
          <match target="pattern">
            <test name="lang" compare="contains"><string>ar</string></test>
            <edit name="family" mode="prepend"><string>Noto Sans Arabic</string></edit>
          </match>
          <match target="pattern">
            <edit name="family" mode="append_last"><string>Inter</string></edit>
          </match>
        </fontconfig>
        """
}
