import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapJSON
import LayoutSnapReport
import LayoutSnapRender
import LayoutSnapSystem

/// Where the result cache lives and how it is used (`--cache`, `--no-cache`, `--remote-cache`,
/// layoutsnap.json's `cache`): docs/cache.md.
public struct CacheSettings: Sendable, Equatable {
    /// The local folder; nil: no local store (`--no-cache`).
    public var folder: String? = LocalResultStore.defaultFolder
    public var maxBytes = LocalResultStore.defaultMaxBytes
    public var remote: String?
    public var remoteHeaders: [String] = []
    public var upload: RemoteResultStore.Upload = .always
    public var remoteTimeoutMilliseconds: Int32 = 5000
    /// The share of hits rendered anyway and compared (`--cache-audit`).
    public var auditRate = 0.02

    public init() {}

    public static let off: CacheSettings = {
        var s = CacheSettings()
        s.folder = nil
        return s
    }()

    public var isOff: Bool { folder == nil && remote == nil }

    /// The local folder when this run will render everything: no remote store that could hold
    /// results, and a folder that holds no entries and that no run of this build has opened (it
    /// writes its `libraries` memo first thing; `cache clear` removes both). Such a run sets up
    /// its fonts at once, as a run without a cache does, instead of at its first miss.
    public var newFolder: String? {
        guard remote == nil, let folder,
            SystemCall.status(folder + "/libraries", followsLinks: false) == nil,
            SystemCall.status(folder + "/packs", followsLinks: false) == nil,
            SystemCall.status(folder + "/entries", followsLinks: false) == nil
        else { return nil }
        return folder
    }
}

/// The result cache of one run: the key of each fixture as each variant, lookups and stores
/// through the configured stores, and the audit. It never decides a verdict: a hit is used only
/// when the handler finds every frame's hash equal to the goldens' manifest (else the fixture
/// runs as if there were no cache), and an audited hit is rendered and the rendering is what
/// counts.
public final class ResultCache: Sendable {
    public let store: any ResultStore
    /// The renderer's identity: version and the executable's build id.
    public let renderer: String
    /// The rendering environment's fingerprint as keys hold it: libraries, architecture, and the
    /// hash of every font but the brand fonts, which are there by name only (`brandFonts`).
    public let environment: String
    /// The hash of each brand font (layoutsnap.json's `fonts`), by its name in the environment:
    /// only a text that names a brand family reaches one (`FontSystem.isBrandFamily`), so an
    /// entry holds them when its rendering did, and a hit needs them unchanged.
    public let brandFonts: [String: String]
    /// The same, as the run compares it with the goldens' manifest (nil when made from a string).
    public let renderEnvironment: RenderEnvironment?
    public let auditRate: Double
    public let lints: Bool
    private let tally = LockedValue(Counts())
    private let local: LocalResultStore?
    private let remote: RemoteResultStore?
    /// The memo of golden file hashes, once verify asks for it (`goldenHashes()`).
    private let goldenMemo = LockedValue<FileHashMemo?>(nil)
    /// Where it is: in the local folder, else in the user's cache (`open`); nil: none.
    private let goldensMemo: String?
    /// The user's cache folder when the goldens' memo is kept there (`UserGoldenMemos`), as
    /// `open` found it: `finish` prunes its memos after writing one.
    private let userCacheFolder: String?

    public struct Counts: Sendable, Equatable {
        public var hits = 0
        public var misses = 0
        public var stored = 0
        public var audited = 0
        /// Entries found but unusable (truncated, edited, another format): warnings.
        public var refused: [String] = []
        /// Audited hits whose rendering disagreed: the run fails with these.
        public var disagreements: [String] = []
    }

    /// `remote`: the shared store, which also holds the generation's memo pack (`MemoPacks`).
    public init(
        store: any ResultStore, local: LocalResultStore?, remote: (any ResultStore)? = nil, renderer: String,
        environment: String, auditRate: Double, lints: Bool, renderEnvironment: RenderEnvironment? = nil,
        brandFonts: [String: String] = [:], goldensMemo: String? = nil, userCacheFolder: String? = nil
    ) {
        self.goldensMemo = goldensMemo ?? local.map { $0.folder + "/goldens" }
        self.userCacheFolder = local == nil ? userCacheFolder : nil
        self.store = store
        self.local = local
        self.remote = remote as? RemoteResultStore
        self.renderer = renderer
        self.environment = environment
        self.brandFonts = brandFonts
        self.renderEnvironment = renderEnvironment
        self.auditRate = auditRate
        self.lints = lints
        memoPrefix = Self.memoPrefix(renderer: renderer, environment: environment, lints: lints)
        // The packs of this build, environment and lints: their memos are this run's to find.
        let generation = memoPrefix.hex()
        let shared = remote.map {
            MemoPacks.Shared(
                store: $0, key: MemoPacks.Shared.key(generation: generation),
                puts: ($0 as? RemoteResultStore)?.upload ?? .always == .always)
        }
        memos =
            local == nil && shared == nil
            ? nil
            : MemoPacks(
                folder: local?.memosFolder, generation: String(generation.prefix(16)), shared: shared,
                folderBytes: local?.maxBytes)
        memos?.askAheadForShared()
        keyPrefix = ResultKey.prefix(renderer: renderer, environment: environment, lints: lints)
        local?.use(generation: String(keyPrefix.hex.prefix(16)))
    }

    /// The remembered keys (`rememberedKey`), with a local folder or a remote store.
    let memos: MemoPacks?

    /// The hash every key of the run starts with (`ResultKey.prefix`).
    private let keyPrefix: ResultKey.Prefix

    /// The cache `settings` describe, or nil when it is off (or this executable cannot be
    /// identified: `note` then gets a warning).
    /// `goldens`: the folder verify checks hits against (whose memo, without a local folder, is
    /// the user's for that folder).
    public static func open(
        _ settings: CacheSettings, version: String, lints: Bool, goldens: String,
        note: (TerminalText.Line) -> Void = { _ in }
    ) throws(RunnerError) -> ResultCache? {
        guard !settings.isOff else { return nil }
        guard let buildID = BuildID.current else {
            note(
                .warning(
                    "the result cache is off for this run: the layoutsnap executable cannot be read to identify its build"
                ))
            return nil
        }
        let local = settings.folder.map { LocalResultStore(folder: $0, maxBytes: settings.maxBytes) }
        let remote = try settings.remote.map { url throws(RunnerError) in
            try RemoteResultStore(
                url: url, headers: settings.remoteHeaders, upload: settings.upload,
                timeoutMilliseconds: settings.remoteTimeoutMilliseconds)
        }
        if let folder = settings.folder { FontSystem.rememberHashes(at: folder + "/fonts") }
        // Without a local folder (a remote store alone), what it would remember of the machine
        // is remembered in the user's cache, as the fonts' hashes are: loading the libraries
        // and reading every golden were most of a warm run from the remote store.
        let userFolder = settings.folder == nil ? UserCache.folder().flatMap { UserCache.writable($0) ? $0 : nil } : nil
        let memos =
            settings.folder.map { (libraries: $0 + "/libraries", goldens: $0 + "/goldens") }
            ?? userFolder.map { (libraries: $0 + "/libraries", goldens: UserGoldenMemos($0).memo(of: goldens)) }
        let environment = try RenderEnvironment.current(librariesMemo: memos.map { ($0.libraries, buildID) })
        let brandFiles: [FontSystem.FontFile]
        do {
            brandFiles = try FontSystem.files().filter { $0.family != nil }
        } catch {
            throw RunnerError.render(error)
        }
        let brandFonts = brandFiles.reduce(into: [String: String]()) { $0[$1.name] = $1.hash }
        // By name and place: the order of a family's files can choose between two faces of one
        // weight and slant.
        var keyed = environment
        for (place, file) in brandFiles.enumerated() {
            keyed.fonts[file.name] = "\(Self.brandFontInKey), brand file \(place + 1)"
        }
        return ResultCache(
            store: TieredResultStore(local: local, remote: remote), local: local, remote: remote,
            renderer: "layoutsnap \(version) \(buildID)",
            environment: String(decoding: JSONWriter(style: .compact).bytes(keyed.json), as: UTF8.self),
            auditRate: settings.auditRate, lints: lints, renderEnvironment: environment, brandFonts: brandFonts,
            goldensMemo: memos?.goldens, userCacheFolder: userFolder)
    }

    /// A brand font's hash in the key's environment: its bytes are checked per entry instead.
    static let brandFontInKey = "brand font: its hash is in the entries of renderings that name its family"

    public var counts: Counts { tally.withLock { $0 } }

    /// The file hash of each golden a hit was checked against, remembered in the local folder
    /// (else the user's cache) by what `lstat` says of the file (`FileHashMemo`), so that a warm
    /// verify stats the goldens instead of reading them; nil when there is neither. Read at the
    /// first call (verify's), so that record and render never read it; written back by `finish()`.
    public func goldenHashes() -> FileHashMemo? {
        guard let goldensMemo else { return nil }
        return goldenMemo.withLock { memo in
            if let memo { return memo }
            // Up to 64 MB: some 400,000 goldens' lines, each read far cheaper than the golden.
            // The user's (one per goldens folder, UserGoldenMemos) holds whole paths.
            let made = FileHashMemo(
                path: goldensMemo, followsLinks: false, maxBytes: 64 << 20,
                relativeTo: local == nil ? Self.workingFolder : nil)
            memo = made
            return made
        }
    }

    /// The key remembered for the fixture at `ref`, found without decoding it; nil when there
    /// is none (no local folder or remote store, never seen, its file or a file it names changed
    /// since).
    ///
    /// With a local folder or a remote store (`MemoPacks`), each key is remembered under a hash of what the decoded fixture is
    /// made from apart from the files it names (the fixture file's bytes, its id and path,
    /// defaults, variant, overrides, this build), with the hash of each file it names beside it.
    /// Decoding is a function of these, so when the file's bytes and every named file's hash
    /// are the same, so is the key. Decoding and walking the decoded fixture are most of a warm
    /// run's work. A remembered key serves lookups only (a hit is still checked against the
    /// goldens): `confirmed` works the key out before a rendering is stored under it.
    ///
    /// `memo` is what the key is filed under (nil without a local folder or when the fixture file
    /// cannot be read): hand it to `key` or `confirmed`, which file a key worked out under it.
    public func rememberedKey(
        ref: FixtureRef, overrides: FixtureOverrides, files: any InputFiles
    ) -> (key: ResultKey?, memo: ResultKey?) {
        guard memos != nil, let memo = memo(ref: ref, overrides: overrides, files: files) else { return (nil, nil) }
        guard let record = memos?.record(memo), let remembered = KeyMemo.parse(record) else {
            return (nil, memo)
        }
        for input in remembered.inputs {
            guard let read = try? files.read(input.path, upTo: Limits.maxInputFileBytes),
                read.size == read.prefix.count, SHA256.hex(of: read.prefix) == input.sha256
            else { return (nil, memo) }
        }
        return (remembered.key, memo)
    }

    /// The fixture's key, worked out from the decoded fixture and remembered (see
    /// `rememberedKey`); nil when a file it names cannot be read whole (it then runs uncached
    /// and its decoding or rendering says what is wrong).
    public func key(_ fixture: Fixture, memo: ResultKey?, files: any InputFiles) -> ResultKey? {
        guard let inputs = inputs(of: fixture, files: files) else { return nil }
        let key = exactKey(fixture, inputs: inputs)
        remember(key, memo: memo, inputs: inputs)
        return key
    }

    /// The key a rendering is stored under: a remembered one worked out again (a miss renders
    /// anyway, so the walk costs nothing noticeable), and remembered anew when it was wrong.
    public func confirmed(
        _ remembered: ResultKey, _ fixture: Fixture, memo: ResultKey?, files: any InputFiles
    ) -> ResultKey? {
        guard let inputs = inputs(of: fixture, files: files) else { return nil }
        let key = exactKey(fixture, inputs: inputs)
        if key != remembered { remember(key, memo: memo, inputs: inputs) }
        return key
    }

    private func remember(_ key: ResultKey, memo: ResultKey?, inputs: [Input]) {
        guard let memos, let memo else { return }
        let record = KeyMemo(
            key: key, inputs: inputs.map { (Self.portable($0.path), SHA256.hex(of: $0.bytes)) })
        memos.remember(record.encoded(), for: memo)
    }

    private func exactKey(_ fixture: Fixture, inputs: [Input]) -> ResultKey {
        ResultKey.of(fixture, inputs: inputs.map { ($0.written, $0.bytes) }, prefix: keyPrefix)
    }

    /// A file a fixture names: where it is read from, how the fixture writes it (what the key
    /// names it by: where the project is checked out changes no pixel), and its bytes.
    private typealias Input = (path: String, written: String, bytes: [UInt8])

    /// Every file the fixture names, whole; nil when one cannot be read so.
    private func inputs(of fixture: Fixture, files: any InputFiles) -> [Input]? {
        var inputs: [Input] = []
        for file in fixture.content.inputFiles {
            guard let read = try? files.read(file.path, upTo: Limits.maxInputFileBytes),
                read.size == read.prefix.count
            else { return nil }
            inputs.append((file.path, file.written, read.prefix))
        }
        return inputs
    }

    /// The working folder at the start, which the paths a memo holds are relative to.
    private static let workingFolder = FileManager.default.currentDirectoryPath

    /// `path` relative to the working folder when it lies below it, as a memo holds it: a memo
    /// shared through the remote store (`MemoPacks`) is read in another checkout of the project,
    /// where the same file has another absolute path. (A memo is filed under the fixture's path
    /// relative to the same folder, so it is read only where that path names the same file.)
    static func portable(_ path: String) -> String {
        FixtureDiscovery.display(path, cwd: workingFolder)
    }

    /// What the remembered key is filed under; nil when the fixture file cannot be read.
    private func memo(ref: FixtureRef, overrides: FixtureOverrides, files: any InputFiles) -> ResultKey? {
        guard let source = try? files.read(ref.path, upTo: Limits.maxFixtureFileBytes),
            source.size == source.prefix.count
        else { return nil }
        // A variant is filed under its name, which picks out one value only for the bytes it was
        // read from (`FixtureRef.variantSource`).
        if ref.variant != nil {
            guard let expected = ref.variantSource, source.prefix.withUnsafeBytes({ PixelHash.ofBytes($0) }) == expected
            else { return nil }
        }
        var hasher = memoPrefix
        for (name, text) in [("id", ref.id), ("path", Self.portable(ref.path))] {
            hasher.update("\(name)#\(text.utf8.count):\(text)")
        }
        hasher.update("settings:")
        hasher.update(settingsDigest(ref: ref, overrides: overrides))
        hasher.update("file#\(source.prefix.count):")
        hasher.update(source.prefix)
        return ResultKey(hex: hasher.hex())
    }

    /// The memo hash over what every fixture of the run shares (the environment alone is a few
    /// kilobytes), hashed once and copied for each fixture.
    private let memoPrefix: SHA256

    private static func memoPrefix(renderer: String, environment: String, lints: Bool) -> SHA256 {
        var hasher = SHA256()
        for (name, text) in [
            ("memo", "layoutsnap-key-memo 5"), ("renderer", renderer), ("environment", environment),
            ("lints", lints ? "on" : "off"),
        ] {
            hasher.update("\(name)#\(text.utf8.count):\(text)")
        }
        return hasher
    }

    /// The canonical hash of each distinct defaults value of the run (one, or one a folder with a
    /// layoutsnap.json of its own), found by `==`: the copies every fixture of a folder holds
    /// share their storage, so comparing them is quick where hashing them walks every token.
    private let defaultsDigests = LockedValue([(defaults: FixtureDefaults, digest: [UInt8])]())

    /// The canonical hash of `defaults`, as `remember(_:digest:)` takes it: a run works out the
    /// project's on a thread of its own while it finds the fixtures (`VerifyRun`), so that the
    /// first fixtures' lookups do not wait for the walk (its reflection meets each type for the
    /// first time, a few milliseconds).
    public static func digest(of defaults: FixtureDefaults) -> [UInt8] {
        var hasher = SHA256()
        CanonicalHash.update(&hasher, with: defaults)
        return hasher.finish()
    }

    /// `digest(of:)`, remembered in the local `folder` under `source` (what the defaults were
    /// decoded from: `ProjectSettings.defaultsSource`) and this build, as a fixture's key is
    /// remembered under its file: the walk was a twentieth of a warm run's CPU. Worked out
    /// without the memo when either is nil.
    public static func digest(of defaults: FixtureDefaults, source: [UInt8]?, folder: String?) -> [UInt8] {
        guard let source, let folder, let build = BuildID.current else { return digest(of: defaults) }
        var hasher = SHA256()
        hasher.update("layoutsnap-defaults-memo 1 build#\(build.utf8.count):\(build) source:")
        hasher.update(source)
        let memo = ResultKey(hex: hasher.hex())
        let store = LocalResultStore(folder: folder)
        if let record = store.rememberedRecord(memo), let digest = DefaultsMemo.parse(record) { return digest }
        let digest = digest(of: defaults)
        store.remember(DefaultsMemo.encoded(digest), for: memo)
        return digest
    }

    public func remember(_ defaults: FixtureDefaults, digest: [UInt8]) {
        defaultsDigests.withLock { known in
            if !known.contains(where: { $0.defaults == defaults }) { known.append((defaults, digest)) }
        }
    }

    private func defaultsDigest(_ defaults: FixtureDefaults) -> [UInt8] {
        // Worked out under the lock: a second worker waits for the walk instead of repeating it.
        defaultsDigests.withLock { known in
            if let digest = known.first(where: { $0.defaults == defaults })?.digest { return digest }
            let digest = Self.digest(of: defaults)
            known.append((defaults, digest))
            return digest
        }
    }

    private let overridesDigests = LockedValue([FixtureOverrides: [UInt8]]())
    private static let noOverrides: [UInt8] = {
        var hasher = SHA256()
        hasher.update("layoutsnap: no overrides")
        return hasher.finish()
    }()

    /// What the memo of a fixture is filed under besides its file: the canonical hash of its
    /// defaults and of the run's overrides, each worked out once for each distinct value (the
    /// defaults carry the project's themes, hundreds of tokens walked by reflection), and its
    /// variant's name. The name is enough: a variant is the fixture file's own (its bytes are
    /// hashed) or the defaults' (hashed here), so its name picks out one value; walking each
    /// variant, project theme and all, was a fifth of a warm run's hits.
    private func settingsDigest(ref: FixtureRef, overrides: FixtureOverrides) -> [UInt8] {
        let defaults = defaultsDigest(ref.defaults)
        // No overrides, the usual run, without the walk: its reflection meets each type of the
        // overrides for the first time (a millisecond of a warm run). Not a canonical hash's
        // bytes, so no overrides value hashes as it.
        let overridden: [UInt8]
        if overrides == FixtureOverrides() {
            overridden = Self.noOverrides
        } else if let known = overridesDigests.withLock({ $0[overrides] }) {
            overridden = known
        } else {
            var hasher = SHA256()
            CanonicalHash.update(&hasher, with: overrides)
            overridden = hasher.finish()
            overridesDigests.withLock { [overridden] in $0[overrides] = overridden }
        }
        var hasher = SHA256()
        hasher.update(ref.variant.map { "variant#\($0.name.utf8.count):\($0.name)" } ?? "variant~")
        return defaults + overridden + hasher.finish()
    }

    /// Whether lookups are worth asking for ahead of time (`prefetch`): there is a remote store.
    public var asksAhead: Bool { remote != nil }

    /// Has the remote store ask now for the entries of `keys` the local folder lacks, ahead of
    /// their lookups (`RemoteResultStore.prefetch`).
    public func prefetch(_ keys: [ResultKey]) {
        guard let remote else { return }
        remote.prefetch(keys.filter { local?.has($0) != true })
    }

    /// The stored result of `key`, nil on a miss; an entry that cannot be read is a miss with a
    /// warning.
    public func lookup(_ key: ResultKey) -> CachedResult? {
        guard let value = entry(key) else { return nil }
        guard let used = value.brandFonts, used != brandFonts else { return value }
        // Rendered with other brand fonts: the rendering with these, if one was stored.
        let branded = brandedKey(key)
        guard var found = entry(branded), found.brandFonts == brandFonts else { return nil }
        found.key = key.hex
        return found
    }

    /// A rendering whose texts named a brand family is also stored under this key, made of its
    /// key and the brand fonts' hashes, so that the renderings of several versions of a brand
    /// font (two branches, two CI jobs on one store) stay side by side; under `key` itself is
    /// the latest, which names the brand fonts it was made with.
    func brandedKey(_ key: ResultKey) -> ResultKey {
        var hasher = SHA256()
        hasher.update("layoutsnap-branded-key 1\nkey \(key.hex)\n")
        for name in brandFonts.keys.sorted() {
            hasher.update("brand \(name.utf8.count):\(name) \(brandFonts[name]!)\n")
        }
        return ResultKey(hex: hasher.hex())
    }

    private func brandedCopy(_ value: CachedResult, _ key: ResultKey) -> (key: ResultKey, bytes: [UInt8]) {
        var branded = value
        branded.key = brandedKey(key).hex
        return (brandedKey(key), branded.encoded())
    }

    private func entry(_ key: ResultKey) -> CachedResult? {
        guard let bytes = store.get(key) else { return nil }
        switch CachedResult.decode(bytes, key: key.hex) {
        case .success(let value): return value
        case .failure(let error):
            tally.withLock {
                if $0.refused.count < 20 { $0.refused.append("cache entry \(key.hex.prefix(12))… refused: \(error)") }
            }
            return nil
        }
    }

    /// Whether the hit of fixture `index` of the run is rendered anyway: as the run's plan
    /// (`use(_:)`) drew, else with probability `auditRate`.
    public func audits(fixture index: Int) -> Bool {
        if let plan = auditPlan.withLock({ $0 }), plan.audited.indices.contains(index) { return plan.audited[index] }
        return AuditPlan.draw(auditRate)
    }

    /// Which fixtures this run audits when they are hits, drawn before the run.
    public func use(_ plan: AuditPlan) { auditPlan.withLock { $0 = plan } }

    private let auditPlan = LockedValue<AuditPlan?>(nil)

    public func counted(hit: Bool) { tally.withLock { if hit { $0.hits += 1 } else { $0.misses += 1 } } }

    /// Stores what a rendering produced (a fixture that rendered every frame, whatever its
    /// verdict); with `audited`, the hit it is checked against first.
    public func store(_ key: ResultKey, _ result: FixtureResult, audited: CachedResult? = nil) {
        guard result.error == nil, var value = CachedResult(key: key, result) else { return }
        if result.usedBrandFonts { value.brandFonts = brandFonts }
        if let audited {
            tally.withLock { $0.audited += 1 }
            if let difference = audited.difference(from: value) {
                tally.withLock {
                    $0.disagreements.append(
                        "\(result.ref.id): the cached result of key \(key.hex.prefix(12))… disagrees with a rendering (\(difference)): an unsound key or a poisoned store; the rendering was used and the entry replaced"
                    )
                }
            } else {
                return
            }
        }
        let bytes = value.encoded()
        let copy = value.brandFonts == nil ? nil : brandedCopy(value, key)
        tally.withLock { $0.stored += 1 }
        // Written on a queue of its own: the worker goes on to its next fixture at once.
        writing.enter()
        writer.async {
            defer { self.writing.leave() }
            self.store.put(key, bytes)
            if let copy { self.store.put(copy.key, copy.bytes) }
        }
    }

    private let writer = DispatchQueue(label: "layoutsnap.result-cache.writes")
    private let writing = DispatchGroup()

    /// Warnings for the run: stores that failed, entries refused. Each once.
    public var warnings: [String] { store.problems + counts.refused }

    /// The run's findings: each warning, and each audit disagreement as a failure.
    public var findings: [Finding] {
        warnings.map { Finding(kind: .cache, severity: .warning, message: $0) }
            + counts.disagreements.map { Finding(kind: .cacheAudit, severity: .failure, message: $0) }
    }

    private let finished = LockedValue(false)

    /// After the run (once): the remote uploads drained, the local folder back within its bound.
    public func finish() {
        guard
            !finished.withLock({ done in
                defer { done = true }
                return done
            })
        else { return }
        writing.wait()
        // Queued before the remote store's uploads are drained.
        memos?.finishShared()
        store.finish()
        local?.finish(memos)
        if let local, local.entriesWritten > 0 { local.evict() }
        if goldenMemo.withLock({ $0 })?.save() == true, let userCacheFolder {
            UserGoldenMemos(userCacheFolder).prune()
        }
    }
}

extension CachedResult {
    /// The value of a fixture that rendered every frame (each with its pixel hash), nil otherwise.
    init?(key: ResultKey, _ result: FixtureResult) {
        guard let canvas = result.canvas, let layout = result.layoutHash else { return nil }
        var frames: [Frame] = []
        for f in result.frames {
            guard let hash = f.pixelHash else { return nil }
            frames.append(
                Frame(
                    state: f.state, index: f.index, time: f.time, progress: f.progress, pixels: PixelHash.hex(hash),
                    lints: f.lints))
        }
        self.init(key: key.hex, layout: layout, canvas: canvas, lintsIgnored: result.lintsIgnored, frames: frames)
    }

    /// What differs from `other`, nil when they agree on everything a verdict reads.
    func difference(from other: CachedResult) -> String? {
        if layout != other.layout { return "layout \(layout) against \(other.layout)" }
        if frames.count != other.frames.count { return "\(frames.count) frames against \(other.frames.count)" }
        for (a, b) in zip(frames, other.frames) {
            if a.state != b.state || a.index != b.index {
                return "frame \(a.state)/\(a.index) against \(b.state)/\(b.index)"
            }
            if a.pixels != b.pixels { return "\(a.state) frame \(a.index): pixels \(a.pixels) against \(b.pixels)" }
            if a.lints != b.lints { return "\(a.state) frame \(a.index): lint findings" }
        }
        // An entry that says no brand family was named, for a rendering that named one, was
        // kept without the brand fonts' hashes it depends on.
        if (brandFonts == nil) != (other.brandFonts == nil) {
            return brandFonts == nil
                ? "a brand family named only by the rendering" : "a brand family named only by the entry"
        }
        return nil
    }
}

/// The executable's identity: its GNU build id (a hash the linker writes of the program), read
/// from the ELF notes of /proc/self/exe; without one, the XXH3 of the whole file.
public enum BuildID {
    /// nil when the executable cannot be read: the cache is then off (a key without the
    /// renderer's identity would be shared by every build).
    public static let current: String? = {
        for path in ["/proc/self/exe", ResourceLocator.executablePath()].compactMap({ $0 }) {
            if let head = try? SystemCall.readPrefix(path, upTo: 1 << 16).bytes, let id = gnuBuildID(head) { return id }
            if let hash = try? SystemCall.withMappedFile(path, { PixelHash.hex(PixelHash.ofBytes($0)) }) {
                return "xxh3-" + hash
            }
        }
        return nil
    }()

    /// The NT_GNU_BUILD_ID note of a little-endian ELF64 file whose program headers and notes
    /// are within `bytes`.
    static func gnuBuildID(_ bytes: [UInt8]) -> String? {
        func u16(_ o: Int) -> Int? { o + 2 <= bytes.count ? Int(bytes[o]) | Int(bytes[o + 1]) << 8 : nil }
        func u32(_ o: Int) -> Int? {
            guard o + 4 <= bytes.count else { return nil }
            return (0..<4).reduce(0) { $0 | Int(bytes[o + $1]) << (8 * $1) }
        }
        func u64(_ o: Int) -> Int? {
            guard o + 8 <= bytes.count else { return nil }
            let v = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[o + $1]) << (8 * UInt64($1)) }
            return v <= UInt64(Int.max) ? Int(v) : nil
        }
        guard bytes.count >= 64, bytes[0..<4] == [0x7F, 0x45, 0x4C, 0x46], bytes[4] == 2, bytes[5] == 1,
            let phoff = u64(32), let phentsize = u16(54), let phnum = u16(56)
        else { return nil }
        for i in 0..<phnum {
            let ph = phoff + i * phentsize
            guard let type = u32(ph), type == 4, let offset = u64(ph + 8), let size = u64(ph + 32) else { continue }
            var note = offset
            while note + 12 <= offset + size {
                guard let nameSize = u32(note), let descSize = u32(note + 4), let noteType = u32(note + 8) else {
                    return nil
                }
                let name = note + 12
                let desc = name + (nameSize + 3) / 4 * 4
                guard desc + descSize <= bytes.count else { return nil }
                if noteType == 3, nameSize == 4, bytes[name..<name + 3] == [0x47, 0x4E, 0x55] {
                    return "gnu-" + SHA256.hex(Array(bytes[desc..<desc + descSize]))
                }
                note = desc + (descSize + 3) / 4 * 4
            }
        }
        return nil
    }
}

/// Which fixtures of a run are audited if they are hits, drawn before the run, each with
/// probability `rate`, as a draw at each hit would be: a run that will audit knows it before its
/// first lookup, and sets up its fonts from the start (a warm run's audit was most of its time).
public struct AuditPlan: Sendable, Equatable {
    public let audited: [Bool]

    public init(rate: Double, count: Int) {
        audited = (0..<max(count, 0)).map { _ in Self.draw(rate) }
    }

    public init(audited: [Bool]) { self.audited = audited }

    /// Whether any fixture is drawn.
    public var any: Bool { audited.contains(true) }

    static func draw(_ rate: Double) -> Bool {
        rate >= 1 || (rate > 0 && Double.random(in: 0..<1) < rate)
    }
}
