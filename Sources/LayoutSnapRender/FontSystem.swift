import CRenderLibraries
import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapSystem

/// The process-wide private fontconfig: only the project's fonts, never the system's or the
/// user's configuration (pango-cairo-notes.md, "Deterministic text").
///
/// Built once, before any worker thread touches Pango, and never freed: every font map of every
/// worker points at its config, or, with brand fonts, at one of its two (`bundledConfig` for the
/// texts that name no brand family). `@unchecked Sendable` because it holds the FcConfig
/// pointers, which are only read once set-up is done (fontconfig's own locking covers its reads).
public final class FontSystem: @unchecked Sendable {
    /// A font file in use and the hash of its bytes (recorded in the golden manifest).
    public struct FontFile: Sendable, Hashable {
        public var name: String
        public var path: String
        public var hash: String
        /// The brand family it is loaded under (layoutsnap.json's `fonts`); nil for a bundled font,
        /// which keeps its own family names.
        public var family: String?
    }

    /// The project's brand families (layoutsnap.json's `fonts`), in the order written: names a
    /// text's `FontSpec.family` may give.
    public let brandFamilies: [String]
    /// The FcConfig of every font: the bundled and packaged ones and the brand fonts. Owned by
    /// this object for the life of the process.
    private let configOwner: FontConfigReference
    var config: OpaquePointer { configOwner.pointer }
    /// The FcConfig without the brand fonts, for texts that name no brand family; nil when the
    /// project has none (`config` is then the same fonts). A brand font is reached only by its
    /// family, never as another text's fallback, so its bytes change only the renderings that
    /// name it, and the result cache keys every other rendering without them (docs/cache.md).
    private let bundledConfigOwner: FontConfigReference?
    var bundledConfig: OpaquePointer { bundledConfigOwner?.pointer ?? config }

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
            let made = Result<FontSystem, RenderError> { () throws(RenderError) in
                try FontSystem(projectFonts: projectFonts())
            }
            stored = made
            return made
        }
        return try result.get()
    }

    private static let buildStarted = LockedValue(false)

    /// Starts building the shared font system on a thread of its own, once per process, and
    /// returns at once: a batch calls it when it knows it will render (its first cache miss, or
    /// a run without a cache), so that the font set-up (loading the libraries, reading the
    /// fonts' faces on every core, or their patterns from the memo) overlaps the weighing of the
    /// other fixtures instead of coming after it. `shared()` waits for that build, or makes it
    /// itself when it comes first. A run of cache hits never calls it and never pays for fonts.
    public static func startBuilding() {
        let first = buildStarted.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        // Here rather than on the new thread: without a cache this is the calling thread, before
        // the weighing's threads exist (setenv is not safe against another thread's getenv).
        // From a worker (a cache's first miss, or a fixture without a remembered key) it writes
        // nothing: verify, record and review pin the language before they start threads.
        pinLanguage()
        // A failure is kept by `shared()` for the caller that needs the fonts.
        Thread.detachNewThread { _ = try? shared() }
    }

    /// The project's font files (layoutsnap.json's `fonts`, paths resolved) and the config file
    /// that names them: set before the first `files()` or `shared()`, which read it once.
    public struct ProjectFonts: Sendable, Equatable {
        public var fonts: [BrandFont]
        /// layoutsnap.json as messages show it.
        public var configFile: String

        public init(fonts: [BrandFont], configFile: String) {
            self.fonts = fonts
            self.configFile = configFile
        }

        /// `layoutsnap.json:4:17: $.fonts["Brand Sans"]: ` followed by `message`: the place that
        /// names the file, as every other mistake in the file is reported.
        func error(_ font: BrandFont, _ message: String) -> RenderError {
            .fonts("\(configFile):\(font.position.line):\(font.position.column): \(font.key): \(message)")
        }
    }

    private static let project = LockedValue<(fonts: ProjectFonts?, read: Bool)>((nil, false))

    /// Adds the project's fonts to this process's. Only before fonts are in use: the font system
    /// and the environment fingerprint are both built once per process.
    public static func useProjectFonts(_ fonts: ProjectFonts) throws(RenderError) {
        let refused = project.withLock { state -> Bool in
            if state.read { return state.fonts != fonts }
            state.fonts = fonts
            return false
        }
        if refused { throw RenderError.fonts("the project's fonts were set after fonts were in use") }
    }

    /// Whether the project gave fonts of its own (not fixing them: they may still be set).
    public static var hasProjectFonts: Bool { project.withLock { $0.fonts?.fonts.isEmpty == false } }

    /// The project's fonts, now fixed for the life of the process.
    static func projectFonts() -> ProjectFonts? {
        project.withLock { state in
            state.read = true
            return state.fonts
        }
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

    /// The bundled and packaged font files, in the order fontconfig is given them: names and
    /// paths only (their hashes are `files()`'s).
    static func bundledFiles() throws(RenderError) -> [(name: String, path: String)] {
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
        return files
    }

    private static func listFiles() throws(RenderError) -> [FontFile] {
        let files = try bundledFiles()
        let paths = files.map(\.path)
        // The remembered hashes first, here: a warm run knows every file, and handing its stats
        // to the thread pool cost more than the stats (a fifth of opening the cache).
        let memo = hashMemo.withLock { $0 }
        let known = paths.map { path in memo?.remembered(path).map { Result<String, RenderError>.success($0) } }
        let hashes = LockedValue(known)
        // The rest on every core: 67 MB of fonts, and the first thing a cold run waits for.
        let missing = known.indices.filter { known[$0] == nil }
        if !missing.isEmpty {
            DispatchQueue.concurrentPerform(iterations: missing.count) { k in
                let i = missing[k]
                let hash = Result { () throws(RenderError) in try Self.hashFile(paths[i]) }
                hashes.withLock { $0[i] = hash }
            }
        }
        var hashed: [FontFile] = []
        for (file, hash) in zip(files, hashes.withLock { $0 }) {
            hashed.append(FontFile(name: file.name, path: file.path, hash: try hash!.get()))
        }
        if let project = projectFonts() {
            for font in project.fonts {
                let path = font.resolved ?? font.file
                let hash: String
                do {
                    hash = try Self.hashFile(path)
                } catch {
                    // Checked when layoutsnap.json was read; this is a file changed since.
                    throw project.error(font, "\(font.file): cannot be read")
                }
                hashed.append(FontFile(name: brandFileName(font), path: path, hash: hash, family: font.family))
            }
        }
        hashMemo.withLock { $0 }?.save()
        return hashed
    }

    /// The fingerprint's name for a brand file: its family, file name and face, not its folder
    /// (the same project checked out elsewhere has the same environment).
    static func brandFileName(_ font: BrandFont) -> String {
        "\(font.family): \((font.file as NSString).lastPathComponent)" + (font.face.map { " (\($0))" } ?? "")
    }

    /// The shared system's set-up, with the project's fonts; the tests also make systems of their
    /// own with other brand fonts (each makes its config fontconfig's current one).
    init(projectFonts project: ProjectFonts?) throws(RenderError) {
        try RenderLibraries.load()
        Self.pinLanguage()
        // The files' hashes (the environment's) on a thread of their own: fontconfig needs only
        // their paths, and reading them was the set-up's longest serial part after the faces.
        let hashing = Background { Result { () throws(RenderError) in try Self.files() } }
        let configOwner: FontConfigReference
        var bundledConfigOwner: FontConfigReference?
        do throws(RenderError) {
            // The bundled config first: the last made is fontconfig's current one.
            if project?.fonts.isEmpty == false { bundledConfigOwner = try Self.makeConfig(nil) }
            configOwner = try Self.makeConfig(project)
        } catch {
            // A font file that cannot be read is named as reading it for its hash names it.
            if case .failure(let unreadable) = hashing.value { throw unreadable }
            throw error
        }
        self.configOwner = configOwner
        self.bundledConfigOwner = bundledConfigOwner
        // A system exists only when the environment it renders in can be fingerprinted; the
        // files and hashes themselves are `files()`'s, read once per process.
        _ = try hashing.value.get()
        var families: [String] = []
        for font in project?.fonts ?? [] where !families.contains(font.family) { families.append(font.family) }
        self.brandFamilies = families
        self.brandFamilyKeys = Set(families.map(BrandFont.familyKey))
    }

    private let brandFamilyKeys: Set<String>

    /// Whether `family` names a brand family as fontconfig compares family names (ignoring case
    /// and blanks): such a text is laid out over `config`, any other over `bundledConfig`.
    public func isBrandFamily(_ family: String?) -> Bool {
        guard let family, !brandFamilyKeys.isEmpty else { return false }
        return brandFamilyKeys.contains(BrandFont.familyKey(family))
    }

    /// The private config: the bundled and packaged files, then the brand files, every face
    /// either layoutsnap's own or pinned in cairo, made fontconfig's current config.
    private static func makeConfig(_ project: ProjectFonts?) throws(RenderError) -> FontConfigReference {
        // The brand files are added below under their brand family, never under their own.
        let files = try Self.bundledFiles()
        // Owned from here: a set-up that fails below releases it.
        guard let configOwner = FontConfigReference() else { throw RenderError.fonts("FcConfigCreate failed") }
        let config = configOwner.pointer
        let xml = Self.configXML
        let parsed = xml.withCString {
            FcConfigParseAndLoadFromMemory(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), 1)
        }
        guard parsed != 0 else { throw RenderError.fonts("the private fontconfig configuration did not parse") }
        try Self.addFiles(files.map(\.path), to: config)
        if let project { try Self.addBrandFonts(project, to: config) }
        guard FcConfigBuildFonts(config) != 0 else { throw RenderError.fonts("FcConfigBuildFonts failed") }
        // Before any Pango font map exists: this also keeps Pango's background FcInit from reading
        // /etc/fonts and the user's configuration.
        guard FcConfigSetCurrent(config) != 0 else { throw RenderError.fonts("FcConfigSetCurrent failed") }
        // The faces cairo opens from their files: the first file's, a variable font's and the brand
        // fonts'.
        try Self.pinFaces(config)
        return configOwner
    }

    /// Adds every face of `paths` to the config's application fonts, in order, as
    /// `FcConfigAppFontAddFile` would one file after another (the private config has no scan
    /// rules, so its patterns are FreeType's query as it is). A pattern carries the face
    /// layoutsnap opened (`FC_FT_FACE`), but for the first file's and a variable font's: those
    /// are cairo's to open, and `pinFaces` pins them. A face whose pattern comes from the
    /// per-user memo (`FaceMemo`) carries none: it is opened by layoutsnap when cairo first
    /// makes a font of it (DeferredFaces.c), and given to cairo the same way.
    ///
    /// layoutsnap opens each face itself, on every core (`FaceOpening`), and gives cairo the
    /// face in the pattern (`FC_FT_FACE`). Cairo never closes a face it was given, so these need
    /// no pinning (`pinFaces` says why faces cairo opens from a file do), and cairo opens
    /// nothing of them itself: it makes its font of a face at the first text that uses it.
    /// Before, cairo opened and pinned every face at the set-up, one at a time (its faces share
    /// one FreeType library), with the other core reading what it had opened. A variable font's
    /// file (named instances are patterns of their own) is read by fontconfig from the file.
    /// A file's faces are opened once per process: a later font system of the process (the
    /// tests make several) takes the same faces and patterns while the file is unchanged.
    static func addFiles(
        _ paths: [String], to config: OpaquePointer, faceMemo memoFolder: String? = FaceMemo.folder(),
        settle: Int64 = FaceMemo.settle
    ) throws(RenderError) {
        guard let first = paths.first else { return }
        // The first file through fontconfig itself: it makes the application set.
        let added = first.withCString {
            FcConfigAppFontAddFile(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
        }
        guard added != 0, let target = FcConfigGetFonts(config, FcSetApplication) else {
            throw RenderError.fonts("fontconfig could not load \(first)")
        }
        let rest = Array(paths.dropFirst())
        // Before the files' `stat`: a memo is written only for a file that had settled by then.
        let started = Int64(Date().timeIntervalSince1970 * 1e9)
        var identities: [OpenedFile] = []
        var sizes: [Int64] = []
        for path in rest {
            guard let signature = FileHashMemo.signature(path) else {
                throw RenderError.fonts("fontconfig could not load \(path)")
            }
            identities.append(OpenedFile(path: path, signature: signature))
            sizes.append(signature.size)
        }
        // A file whose faces wait for their first font is not taken by a set-up without the memo
        // (the tests'): its faces are opened now, as that set-up's reading expects.
        let known = Self.openedFiles.withLock { opened in
            identities.map { identity in opened[identity].flatMap { memoFolder == nil && $0.deferred ? nil : $0 } }
        }
        let toOpen = rest.indices.filter { known[$0] == nil }
            .sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
        // The faces' patterns from the per-user memo where it holds (`FaceMemo`).
        let libraries = memoFolder == nil ? "" : FaceMemo.libraries()
        let memoIdentities = identities.map {
            FaceMemo.identity(path: $0.path, signature: $0.signature, libraries: libraries)
        }
        let opening = FaceOpening(paths: rest, order: toOpen, memo: memoFolder.map { ($0, memoIdentities) })
        if !toOpen.isEmpty {
            let helpers = max(0, min(ProcessInfo.processInfo.activeProcessorCount, 4) - 1)
            let threads = (0..<helpers).map { _ in
                let thread = Thread { opening.openUntilDone() }
                // fontconfig's and FreeType's reading want more than a secondary thread's default.
                thread.stackSize = 8 << 20
                return thread
            }
            for thread in threads { thread.start() }
            opening.openUntilDone()
            opening.waitForHelpers()
        }
        if let failure = opening.failure {
            opening.discard()
            throw failure
        }
        if let memoFolder {
            for i in toOpen
            where started - max(identities[i].signature.modified, identities[i].signature.changed) > settle
                // Unchanged while it was read.
                && FileHashMemo.signature(identities[i].path) == identities[i].signature
            {
                if let encoded = opening.toRemember(i) {
                    FaceMemo.save(encoded, identity: memoIdentities[i], in: memoFolder)
                }
            }
        }
        for (i, path) in rest.enumerated() {
            let patterns: [OpaquePointer]
            if let remembered = known[i] {
                patterns = remembered.patterns
            } else if let whole = opening.wholeFile(i) {
                // A variable font: cairo opens it from the file, and `pinFaces` pins it.
                for face in opening.faces(i) { FcPatternDestroy(face) }
                patterns = whole
                Self.openedFiles.withLock { $0[identities[i]] = RememberedFile(patterns: whole) }
            } else {
                patterns = opening.faces(i)
                let deferred = opening.deferred(i)
                Self.openedFiles.withLock { $0[identities[i]] = RememberedFile(patterns: patterns, deferred: deferred) }
            }
            for pattern in patterns {
                // The process keeps its reference (openedFiles); the config takes one of its own.
                FcPatternReference(pattern)
                guard FcFontSetAdd(target, pattern) != 0 else {
                    FcPatternDestroy(pattern)
                    throw RenderError.fonts("fontconfig could not add \(path)")
                }
            }
        }
    }

    /// A font file as it was when its faces were opened: a file changed since is opened anew.
    struct OpenedFile: Hashable {
        var path: String
        var signature: FileHashMemo.Signature
    }

    /// A file's patterns in face order, each with the face layoutsnap opened (or, `deferred`, the
    /// memo's patterns, whose faces are opened at their first font), or fontconfig's reading of
    /// a variable font's file.
    struct RememberedFile: @unchecked Sendable {
        var patterns: [OpaquePointer]
        var deferred = false
    }

    /// Every font file this process opened, with its patterns; the faces and patterns are kept
    /// for the life of the process (a worker of any font system may be using a face).
    private static let openedFiles = LockedValue<[OpenedFile: RememberedFile]>([:])

    /// Adds each brand file's faces under the family the config gives them, in place of their
    /// own: the faces fontconfig reads from the file (every face of a collection, every named
    /// instance of a variable font, or those `face` names), each with its family replaced, so
    /// that "Brand Sans" matches them and nothing else, and their weight and slant still choose
    /// among them. Renaming the scanned patterns, rather than a <match> that rewrites a family
    /// in the private config, keeps the file's own family name (which may be "Inter") from
    /// mixing its faces with the bundled ones.
    static func addBrandFonts(_ project: ProjectFonts, to config: OpaquePointer) throws(RenderError) {
        guard let target = FcConfigGetFonts(config, FcSetApplication) else {
            throw RenderError.fonts("fontconfig has no application font set")
        }
        let bundledFamilies = Set(familyNames(in: target).map(BrandFont.familyKey))
        for font in project.fonts {
            if bundledFamilies.contains(BrandFont.familyKey(font.family)) {
                throw project.error(
                    font, "\"\(font.family)\" is a bundled family; give the brand font a name of its own")
            }
            guard let scanned = FcFontSetCreate() else { throw RenderError.fonts("FcFontSetCreate failed") }
            defer { FcFontSetDestroy(scanned) }
            var count: Int32 = 0
            let path = font.resolved ?? font.file
            // All faces and named instances (id -1); fontconfig's own blanks are unused since 2.13.
            let faces = path.withCString {
                FcFreeTypeQueryAll(
                    UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), UInt32.max, nil, &count, scanned)
            }
            let patterns = (0..<Int(scanned.pointee.nfont)).compactMap { scanned.pointee.fonts[$0] }
            guard faces > 0, !patterns.isEmpty else {
                throw project.error(font, "\(font.file) is not a font file FreeType can read")
            }
            let chosen = try choose(patterns, of: font, project)
            for pattern in chosen {
                guard let copy = FcPatternDuplicate(pattern) else {
                    throw RenderError.fonts("FcPatternDuplicate failed")
                }
                FcPatternDel(copy, FC_FAMILY)
                FcPatternDel(copy, FC_FAMILYLANG)
                let added = font.family.withCString {
                    FcPatternAddString(copy, FC_FAMILY, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
                }
                // The set owns the pattern once added.
                guard added != 0, FcFontSetAdd(target, copy) != 0 else {
                    FcPatternDestroy(copy)
                    throw RenderError.fonts("fontconfig could not add \(font.file)")
                }
            }
        }
    }

    /// The faces of one file a brand family takes: those `face` names, or every face when the
    /// file's faces are of one family. A collection of several families without `face` is an
    /// error: fontconfig would pick among same-weight faces of different designs by their order.
    private static func choose(_ patterns: [OpaquePointer], of font: BrandFont, _ project: ProjectFonts)
        throws(RenderError) -> [OpaquePointer]
    {
        let ownFamilies = familyNames(in: patterns)
        guard let face = font.face else {
            if ownFamilies.count > 1 {
                throw project.error(
                    font,
                    "\(font.file) holds faces of \(ownFamilies.count) families (\(ownFamilies.joined(separator: ", "))): choose one with {\"file\": ..., \"face\": ...}"
                )
            }
            return patterns
        }
        let wanted = face.lowercased()
        let chosen = patterns.filter { pattern in
            [FC_FAMILY, FC_FULLNAME, FC_STYLE].contains { object in
                strings(pattern, object).contains { $0.lowercased() == wanted }
            }
        }
        if chosen.isEmpty {
            let styles = patterns.flatMap { strings($0, FC_STYLE).prefix(1) }
            var names = ownFamilies
            for style in styles where !names.contains(style) { names.append(style) }
            throw project.error(
                font, "\(font.file) has no face \"\(face)\"; its families and styles: \(names.joined(separator: ", "))")
        }
        return chosen
    }

    /// Every value of a string property of a pattern (a face has its family in several languages).
    static func strings(_ pattern: OpaquePointer, _ object: String) -> [String] {
        var values: [String] = []
        var n: Int32 = 0
        while true {
            var value: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(pattern, object, n, &value) == FcResultMatch, let value else { break }
            values.append(String(cString: value))
            n += 1
        }
        return values
    }

    /// The first family name of each pattern, each once, in order.
    static func familyNames(in patterns: [OpaquePointer]) -> [String] {
        var names: [String] = []
        for pattern in patterns {
            if let name = strings(pattern, FC_FAMILY).first, !names.contains(name) { names.append(name) }
        }
        return names
    }

    static func familyNames(in set: UnsafeMutablePointer<FcFontSet>) -> [String] {
        familyNames(in: (0..<Int(set.pointee.nfont)).compactMap { set.pointee.fonts[$0] })
    }

    /// Opens every face of the config's fonts that cairo opens from its file (those without a
    /// face of layoutsnap's, `addFiles`) through cairo, and keeps it locked for the life of the
    /// process.
    ///
    /// Cairo 1.16 keeps at most 10 FreeType faces open; to open another it closes one whose lock
    /// count is zero, reading that count without the face's own mutex. With more than 10 faces
    /// in use (8 Inter faces, 2 Arabic, the CJK collections, emoji), one worker could close a face
    /// while another was measuring glyphs with it: a SIGSEGV about one run in five over 1,000
    /// generated transcripts with two jobs. A face that is locked is never closed, and with every
    /// face locked from the start nothing is ever closed, so workers never race on a face. Cost:
    /// the faces stay open (memory-mapped files), a few MB. A face given to cairo in its pattern
    /// is never closed by cairo at all.
    static func pinFaces(_ config: OpaquePointer) throws(RenderError) {
        guard let set = FcConfigGetFonts(config, FcSetApplication) else { return }
        for i in 0..<Int(set.pointee.nfont) {
            guard let pattern = set.pointee.fonts[i] else { continue }
            var given: FT_Face?
            if FcPatternGetFTFace(pattern, FC_FT_FACE, 0, &given) == FcResultMatch { continue }
            // Opened, and its font held, when cairo first makes a font of it (DeferredFaces.c).
            if layoutsnap_face_is_deferred(pattern) != 0 { continue }
            let failed = layoutsnap_pin_cairo_ft_face(pattern)
            if failed != 0 {
                var file: UnsafeMutablePointer<FcChar8>?
                let name =
                    FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch
                    ? file.map { String(cString: $0) } ?? "font \(i)" : "font \(i)"
                throw RenderError.fonts("cairo could not open \(name) (step \(failed))")
            }
        }
    }

    /// CJK glyph shapes follow the language; the user's locale must not choose it.
    /// Writes the environment only when it differs: a second call writes nothing, so one made
    /// while other threads run is safe once the first was made before them. A run that starts
    /// threads before the fonts are built (to load the libraries early) calls it first.
    public static func pinLanguage() {
        if getenv("PANGO_LANGUAGE").map({ String(cString: $0) }) != "en" { setenv("PANGO_LANGUAGE", "en", 1) }
        if getenv("LANGUAGE") != nil { unsetenv("LANGUAGE") }
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
        func read(_ path: String) throws(SystemError) -> String {
            try SystemCall.withMappedFile(path) { String(format: "%016llx", PixelHash.ofBytes($0)) }
        }
        do {
            guard let memo = hashMemo.withLock({ $0 }) else { return try read(path) }
            return try memo.hash(path, read)
        } catch {
            throw RenderError.fonts("cannot read \(path): \(error.reason)")
        }
    }

    /// Where font hashes are remembered: hashing 67 MB of fonts was a fifth of a warm run, and
    /// the same files' hashes were worked out again in every project, every new result cache
    /// folder and every run without one. In the user's cache (`UserCache`), as fontconfig keeps
    /// its reading of the fonts; else in the result cache's folder (`rememberHashes`).
    private static let hashMemo = LockedValue<FileHashMemo?>(userHashMemo)
    /// nil when there is no user cache, or its folder cannot be made or written (a container's
    /// `HOME=/`, a run as another user): the result cache's folder keeps the hashes then.
    private static let userHashMemo = UserCache.fontHashes().flatMap { path in
        UserCache.writable((path as NSString).deletingLastPathComponent) ? FileHashMemo(path: path) : nil
    }

    /// Font hashes are remembered in the memo at `path` (the result cache's folder's) from now
    /// on, unless the user's cache has them. Call before the environment is first read. A memo
    /// of the same file already set is kept, with what it has learnt.
    public static func rememberHashes(at path: String) {
        guard userHashMemo == nil else { return }
        hashMemo.withLock { if $0?.path != path { $0 = FileHashMemo(path: path) } }
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

/// The faces of the font files `FontSystem.addFiles` opens itself, shared by the threads that
/// open them: each thread takes a face, opens it in a FreeType library of its own and has
/// fontconfig read its pattern, until none is left; a face whose pattern the memo holds is
/// registered instead, to be opened at its first font (DeferredFaces.c). A file's first face (or
/// its memo) says how many it has; its others are taken then.
private final class FaceOpening: @unchecked Sendable {
    private let condition = NSCondition()
    private let paths: [String]
    /// Faces not yet taken: (file, index).
    private var waiting: [(file: Int, index: Int)]
    private var taken = 0
    /// Threads inside `openUntilDone`.
    private var running = 0
    /// Per file: each face's pattern (with its face, or the memo's, whose face waits for its
    /// first font), once read.
    private var patterns: [[OpaquePointer?]]
    /// Per file: fontconfig's reading of a variable font's file.
    private var wholeFiles: [[OpaquePointer]?]
    private(set) var failure: RenderError?
    /// The per-user memo's folder and each file's identity in it (`FaceMemo`).
    private let memo: (folder: String, identities: [String])?
    /// Per file read from its memo: the patterns of the faces not yet opened, by index.
    private var remembered: [[Int: OpaquePointer]]
    /// Per file read by fontconfig: each face's pattern as written to a memo (nil for a file
    /// read from its memo or whole, or a pattern the memo cannot hold).
    private var encoded: [[[UInt8]?]?]
    /// The files whose faces are opened at their first font (read from the memo).
    private var deferredFiles: Set<Int> = []

    init(paths: [String], order: [Int], memo: (folder: String, identities: [String])? = nil) {
        self.paths = paths
        self.memo = memo
        waiting = order.map { (file: $0, index: 0) }
        patterns = Array(repeating: [], count: paths.count)
        wholeFiles = Array(repeating: nil, count: paths.count)
        remembered = Array(repeating: [:], count: paths.count)
        encoded = Array(repeating: nil, count: paths.count)
    }

    /// Opens and reads faces until every face is read (or one failed), with a library of its own.
    func openUntilDone() {
        condition.withLock { running += 1 }
        defer {
            condition.withLock {
                running -= 1
                condition.broadcast()
            }
        }
        guard let library = FreeTypeLibraries.take() else {
            condition.withLock { failure = failure ?? RenderError.fonts("FT_Init_FreeType failed") }
            return
        }
        defer { FreeTypeLibraries.give(library) }
        while let next = nextFace() {
            let outcome = open(next.file, next.index, in: library.pointer)
            condition.withLock {
                taken -= 1
                switch outcome {
                case .face(let pattern, let faces, let read):
                    if next.index == 0 {
                        patterns[next.file] = Array(repeating: nil, count: max(faces, 1))
                        waiting.append(contentsOf: (1..<max(faces, 1)).map { (file: next.file, index: $0) })
                        if case .remembered(let others) = read {
                            deferredFiles.insert(next.file)
                            for (i, other) in others.enumerated() { remembered[next.file][i + 1] = other }
                        } else {
                            encoded[next.file] = Array(repeating: nil, count: max(faces, 1))
                        }
                    }
                    patterns[next.file][next.index] = pattern
                    if case .readByFontconfig(let bytes) = read, encoded[next.file] != nil {
                        encoded[next.file]?[next.index] = bytes
                    }
                case .wholeFile(let read):
                    // The file is read whole: its other faces are not opened (a face already
                    // read is dropped with the file's faces, `addFiles`).
                    waiting.removeAll { $0.file == next.file }
                    for pattern in remembered[next.file].values { FcPatternDestroy(pattern) }
                    remembered[next.file] = [:]
                    encoded[next.file] = nil
                    if wholeFiles[next.file] == nil {
                        wholeFiles[next.file] = read
                    } else {
                        for pattern in read { FcPatternDestroy(pattern) }
                    }
                case .failed(let error):
                    failure = failure ?? error
                    waiting.removeAll()
                }
                condition.broadcast()
            }
        }
    }

    private enum Outcome {
        case face(OpaquePointer, faces: Int, read: Read)
        case wholeFile([OpaquePointer])
        case failed(RenderError)
    }

    /// Where a face's pattern came from.
    private enum Read {
        /// fontconfig read it; its bytes for the memo (nil when it cannot hold them).
        case readByFontconfig([UInt8]?)
        /// The memo gave it; for a file's first face, with the patterns of its others.
        case remembered([OpaquePointer])
    }

    /// The patterns of `file` from its memo, when one holds them.
    private func memoPatterns(_ file: Int) -> [OpaquePointer]? {
        guard let memo else { return nil }
        return FaceMemo.load(memo.identities[file], in: memo.folder)
    }

    /// The memo's pattern of a face other than the first, taken once.
    private func rememberedPattern(_ file: Int, _ index: Int) -> OpaquePointer? {
        condition.withLock { remembered[file].removeValue(forKey: index) }
    }

    /// A file's faces as the memo is to hold them, when fontconfig read every one of them and
    /// the memo can hold each.
    func toRemember(_ file: Int) -> [[UInt8]]? {
        condition.withLock {
            guard wholeFiles[file] == nil, let faces = encoded[file], !faces.isEmpty else { return nil }
            let all = faces.compactMap { $0 }
            return all.count == faces.count ? all : nil
        }
    }

    /// The next face to open; waits while none is left but a face being opened may add more.
    private func nextFace() -> (file: Int, index: Int)? {
        condition.withLock {
            while waiting.isEmpty && taken > 0 { condition.wait() }
            guard !waiting.isEmpty else { return nil }
            taken += 1
            return waiting.removeFirst()
        }
    }

    private func open(_ file: Int, _ index: Int, in library: FT_Library) -> Outcome {
        let path = paths[file]
        // A face the memo holds is not opened here: its pattern is the memo's, and the face is
        // opened when cairo first makes a font of it (DeferredFaces.c), so a run opens only the
        // faces it draws with. Most of a run's start was opening the twenty CJK faces, and an
        // audited hit of a Latin fixture paid that in full. A memo exists only for a file read
        // face by face, never a variable font's.
        // A memo pattern that names another file, or a face that cannot be registered, is
        // opened and read as without a memo.
        if index == 0, var all = memoPatterns(file), !all.isEmpty {
            let first = all.removeFirst()
            if deferFace(path, 0, first) { return .face(first, faces: all.count + 1, read: .remembered(all)) }
            FcPatternDestroy(first)
            for pattern in all { FcPatternDestroy(pattern) }
        }
        if index > 0, let remembered = rememberedPattern(file, index) {
            if deferFace(path, index, remembered) { return .face(remembered, faces: 0, read: .remembered([])) }
            FcPatternDestroy(remembered)
        }
        var face: FT_Face?
        var faces: Int32 = 0
        var variable: Int32 = 0
        let error = layoutsnap_freetype_open_face(library, path, Int32(index), &face, &faces, &variable)
        guard error == 0, let face else {
            return .failed(RenderError.fonts("FreeType could not open \(path) (error \(error))"))
        }
        // A variable face's named instances are patterns of their own: the whole file is read
        // by fontconfig, and cairo opens it from the file.
        if variable != 0 {
            layoutsnap_freetype_close_face(face)
            guard let set = FcFontSetCreate() else { return .failed(RenderError.fonts("FcFontSetCreate failed")) }
            defer { FcFontSetDestroy(set) }
            var count: Int32 = 0
            let read = path.withCString {
                FcFreeTypeQueryAll(
                    UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), UInt32.max, nil, &count, set)
            }
            let patterns = (0..<Int(set.pointee.nfont)).compactMap { set.pointee.fonts[$0] }
            guard read > 0, !patterns.isEmpty else {
                return .failed(RenderError.fonts("fontconfig could not load \(path)"))
            }
            // Kept past the set.
            for pattern in patterns { FcPatternReference(pattern) }
            return .wholeFile(patterns)
        }
        let pattern = path.withCString {
            FcFreeTypeQueryFace(face, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), UInt32(index), nil)
        }
        guard let pattern else {
            layoutsnap_freetype_close_face(face)
            return .failed(RenderError.fonts("fontconfig could not load \(path)"))
        }
        let read = Read.readByFontconfig(memo == nil ? nil : FaceMemo.encodePattern(pattern))
        // The face is the pattern's from here, and kept for the life of the process.
        guard FcPatternAddFTFace(pattern, FC_FT_FACE, face) != 0 else {
            FcPatternDestroy(pattern)
            layoutsnap_freetype_close_face(face)
            return .failed(RenderError.fonts("fontconfig could not add \(path)"))
        }
        // Cairo's font of the face, held for good: cairo 1.16 releases a font of a face when its
        // last font face goes, and another worker can find it in between and make it again
        // (the same race as its scaled fonts', TextEngine.pinScaledFonts), one face then used
        // under two locks. Cairo holds the face from here: it is never closed.
        guard layoutsnap_hold_cairo_ft_face(pattern) == 0 else {
            FcPatternDestroy(pattern)
            return .failed(RenderError.fonts("cairo could not open \(path)"))
        }
        return .face(pattern, faces: Int(faces), read: read)
    }

    /// Registers face `index` of `path` as opened at cairo's first font of it, when `pattern`
    /// names that file and face (a memo names the file it was read from).
    private func deferFace(_ path: String, _ index: Int, _ pattern: OpaquePointer) -> Bool {
        var named: UnsafeMutablePointer<FcChar8>?
        var face: Int32 = 0
        guard FcPatternGetString(pattern, FC_FILE, 0, &named) == FcResultMatch, let named,
            String(cString: named) == path, FcPatternGetInteger(pattern, FC_INDEX, 0, &face) == FcResultMatch,
            Int(face) == index
        else { return false }
        return path.withCString { layoutsnap_defer_face($0, Int32(index)) == 0 }
    }

    /// Waits for the helpers still opening a face; called once the calling thread's
    /// `openUntilDone` has returned, so none is left to open. A helper that starts later finds
    /// nothing to do.
    func waitForHelpers() {
        condition.withLock { while running > 0 { condition.wait() } }
    }

    /// Whether `file`'s faces came from the memo, to be opened at their first font.
    func deferred(_ file: Int) -> Bool {
        condition.withLock { deferredFiles.contains(file) }
    }

    /// A file's patterns in face order, once all are done (none missing without a failure).
    func faces(_ file: Int) -> [OpaquePointer] {
        condition.withLock { patterns[file].compactMap { $0 } }
    }

    /// A variable font's patterns, read from its file; nil for any other file.
    func wholeFile(_ file: Int) -> [OpaquePointer]? {
        condition.withLock { wholeFiles[file] }
    }

    /// Releases what was read, after a failure: none of it reached a config. The faces stay
    /// open, as cairo holds its fonts of them.
    func discard() {
        condition.withLock {
            for pattern in patterns.joined() { if let pattern { FcPatternDestroy(pattern) } }
            for pattern in wholeFiles.compactMap({ $0 }).joined() { FcPatternDestroy(pattern) }
            for pattern in remembered.flatMap(\.values) { FcPatternDestroy(pattern) }
            remembered = remembered.map { _ in [:] }
            patterns = patterns.map { _ in [] }
            wholeFiles = wholeFiles.map { _ in nil }
        }
    }
}

/// FreeType libraries for the threads that open faces: a library opens one face at a time, so
/// each opening thread takes one of its own. Kept for the life of the process, as their faces are.
private enum FreeTypeLibraries {
    struct Library: @unchecked Sendable {
        var pointer: FT_Library
    }

    private static let idle = LockedValue<[Library]>([])

    static func take() -> Library? {
        if let library = idle.withLock({ $0.popLast() }) { return library }
        var library: FT_Library?
        guard layoutsnap_freetype_new_library(&library) == 0, let library else { return nil }
        return Library(pointer: library)
    }

    static func give(_ library: Library) {
        idle.withLock { $0.append(library) }
    }
}
