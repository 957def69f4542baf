import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapRender
import LayoutSnapSystem

/// Runs fixtures on a pool of worker threads. Each worker owns a TextEngine (its own Pango font
/// maps and contexts over the shared private fontconfig) and reuses it for every fixture it takes.
/// Fixtures are weighed first (decoded on every core, only their cost kept) and handed out most
/// frames x pixels first, so the workers stay busy to the end; a worker decodes its fixture again
/// when it takes it. Decoding is a small part of a fixture's cost, and holding every decoded
/// fixture at once is not: memory stays flat in the number of fixtures.
public struct BatchRunner: Sendable {
    public var jobs: Int
    public var overrides: FixtureOverrides
    /// Seconds a fixture may take (layout and every frame) before it is stopped with an error.
    public var timeout: Double
    /// Whether every frame's layout is linted too (its findings go with the frame's result).
    public var lint: LintMode
    /// The result cache (docs/cache.md): hits the handler accepts are not rendered; every
    /// rendering is stored.
    public var cache: ResultCache?

    public init(
        jobs: Int, overrides: FixtureOverrides = FixtureOverrides(), timeout: Double = Watchdog.defaultSeconds,
        lint: LintMode = .off
    ) {
        self.jobs = max(1, jobs)
        self.overrides = overrides
        self.timeout = timeout
        self.lint = lint
    }

    public static var defaultJobs: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Runs `refs` and hands each fixture's result to `finished` (from worker threads, at the
    /// same time, in the order they finish, with the ref's index). Nothing is kept here: what a caller
    /// keeps of each result is its choice. `progress` is called (serialised) after each fixture
    /// with (done, total). `costs`, when given, weighs `refs` (a shard's real frame counts).
    public func run(
        _ refs: [FixtureRef], costs given: [Double]? = nil, handler: some FrameHandler,
        finished: @escaping @Sendable (Int, FixtureResult) -> Void,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(RunnerError) {
        // Without a cache every fixture renders: fonts that cannot be set up stop the run
        // before the first rendering. With one, they are set up once the weighing meets a miss
        // (a run of hits needs none), unless the project has fonts of its own: a brand file
        // fontconfig cannot use is the user's one mistake, reported once rather than as every
        // fixture's error. Either way they are built while the fixtures are weighed.
        let fontsFirst = cache == nil || FontSystem.hasProjectFonts
        if fontsFirst { FontSystem.startBuilding() }
        precondition(given == nil || given?.count == refs.count, "BatchRunner: one cost per ref")
        let overrides = overrides
        let timeout = timeout
        let lint = lint
        let cache = cache
        let done = LockedValue(0)
        @Sendable func store(_ i: Int, _ result: FixtureResult) {
            finished(i, result)
            done.withLock {
                $0 += 1
                progress?($0, refs.count)
            }
        }
        // With a remote store, every key first, on every core, so that the store asks for their
        // entries all at once while the weighing starts (one round trip for many lookups
        // instead of one each): the remembered ones, and those of the fixtures without a memo
        // (a cold run's, a changed fixture's), decoded for it. The weighing keeps what was read
        // for them, and a decoded fixture's cost, so that none is decoded twice.
        let early: [Remembered]? =
            cache.flatMap { cache in
                guard cache.asksAhead else { return nil }
                let early = WorkerThreads.map(count: refs.count, jobs: jobs) { i in
                    let files = ReadFiles()
                    let (key, memo) = cache.rememberedKey(ref: refs[i], overrides: overrides, files: files)
                    // A fixture without a remembered key is new or changed, and will most likely
                    // render: the fonts are set up from now on, beside this pass, as a run
                    // without a cache sets them up from its start (not after the pass and the
                    // lookups: in strace a cold run's first font file opened 45 ms later). A hit
                    // without a memo (a suite beyond the shared memo pack) sets them up for
                    // nothing, a cost small next to such a run.
                    if key == nil { FontSystem.startBuilding() }
                    guard key == nil, case .success(let fixture) = overrides.decode(refs[i], files: files) else {
                        return Remembered(files: files, key: key, memo: memo)
                    }
                    let worked = cache.key(fixture, memo: files.changed() ? nil : memo, files: files)
                    return Remembered(
                        files: files, key: nil, memo: memo, worked: worked, cost: given?[i] ?? fixture.estimatedCost)
                }
                cache.prefetch(early.compactMap { $0.key ?? $0.worked })
                return early
            }
        // Weighing (decoded on every core, only the cost kept) is also the cache's lookup: a hit
        // the handler takes is finished here, and only the rest are weighed and rendered.
        let plans: [Plan] =
            cache == nil && given != nil
            ? given!.map { Plan.render(cost: $0, key: nil, audited: nil, reads: [:]) }
            : WorkerThreads.map(count: refs.count, jobs: jobs) { i in
                // A remembered key is found without decoding; a fixture is decoded only when
                // it will be rendered, or to work out its key. Every file is read through `files`:
                // a key is filed under the memo only when the fixture file decoded is the one the
                // memo was made from (not saved in between).
                let files = early?[i].files ?? ReadFiles()
                let (remembered, memo) =
                    early.map { ($0[i].key, $0[i].memo) }
                    ?? cache?.rememberedKey(ref: refs[i], overrides: overrides, files: files) ?? (nil, nil)
                var decoded: Result<Fixture, FixtureError>?
                func fixture() -> Fixture? {
                    if decoded == nil { decoded = overrides.decode(refs[i], files: files) }
                    return try? decoded?.get()
                }
                func filedUnder() -> ResultKey? { files.changed() ? nil : memo }
                // Without a remembered key the pass before decoded it: its key and cost, or
                // that it does not decode, are taken from there rather than decoded again.
                let decodedAhead = early.map { $0[i].key == nil } ?? false
                func render(key: ResultKey?, audited: CachedResult?) -> Plan {
                    FontSystem.startBuilding()
                    if decodedAhead {
                        guard let cost = early?[i].cost else {
                            return .render(cost: 0, key: nil, audited: nil, reads: [:])
                        }
                        return .render(
                            cost: cost, key: files.changed() ? nil : key, audited: audited, reads: files.hashes)
                    }
                    guard let fixture = fixture() else { return .render(cost: 0, key: nil, audited: nil, reads: [:]) }
                    let key =
                        key.flatMap { known in
                            known == remembered
                                ? cache?.confirmed(known, fixture, memo: filedUnder(), files: files)
                                : known
                        }
                    return .render(
                        cost: given?[i] ?? fixture.estimatedCost, key: files.changed() ? nil : key, audited: audited,
                        reads: files.hashes)
                }
                guard let cache else { return render(key: nil, audited: nil) }
                guard
                    let key = remembered
                        ?? (decodedAhead
                            ? early?[i].worked : fixture().flatMap({ cache.key($0, memo: filedUnder(), files: files) }))
                else { return render(key: nil, audited: nil) }
                guard let hit = cache.lookup(key), let frames = handler.cachedFrames(id: refs[i].id, hit) else {
                    cache.counted(hit: false)
                    return render(key: key, audited: nil)
                }
                cache.counted(hit: true)
                // An audited hit is rendered and compared with it.
                if cache.audits(fixture: i) { return render(key: key, audited: hit) }
                var result = FixtureResult(ref: refs[i], frames: frames)
                result.cached = true
                result.canvas = hit.canvas
                result.lintsIgnored = hit.lintsIgnored
                result.layoutHash = hit.layout
                store(i, result)
                return .done
            }
        if fontsFirst {
            do { _ = try FontSystem.shared() } catch { throw RunnerError.render(error) }
        }
        var costs: [Int: Double] = [:]
        for (i, plan) in plans.enumerated() { if case .render(let cost, _, _, _) = plan { costs[i] = cost } }
        let order = costs.keys.sorted { costs[$0]! != costs[$1]! ? costs[$0]! > costs[$1]! : $0 < $1 }
        let queue = WorkQueue<Void>(count: order.count, order: order)
        WorkerThreads.run(threads: min(jobs, max(order.count, 1))) {
            // Each worker owns its text engine for every fixture it takes, taken at its first (a
            // finished worker's, or a new one) and given back at its end.
            var made: Result<TextEngine, RenderError>?
            func engine() -> Result<TextEngine, RenderError> {
                if let made { return made }
                let engine = Result { () throws(RenderError) in try TextEngine.take(fonts: FontSystem.shared()) }
                made = engine
                return engine
            }
            while let i = queue.take() {
                guard case .render(_, let key, let audited, let reads) = plans[i] else { continue }
                let files = ReadFiles()
                let decoded = overrides.decode(refs[i], files: files)
                var result: FixtureResult
                switch engine() {
                case .failure(let error):
                    result = FixtureResult(
                        ref: refs[i],
                        error: Diagnostic(.error, .environment, file: refs[i].displayPath, message: "\(error)"))
                case .success(let engine):
                    guard let cache, let key else {
                        store(
                            i,
                            Self.process(
                                refs[i], decoded: decoded, engine: engine, handler: handler, timeout: timeout,
                                lint: lint))
                        continue
                    }
                    // A cache whose entries hold lint findings gets them from a run without lints
                    // too (record): linted for the entry, the run's own result left without them.
                    let lintForCache = cache.lints && lint == .off
                    result = Self.process(
                        refs[i], decoded: decoded, engine: engine, handler: handler, timeout: timeout,
                        lint: lintForCache ? .warn : lint, hashing: true)
                    // What was rendered is what the key was worked out from, unless a file it
                    // read was saved since (read again after rendering: the renderer reads a
                    // post's image itself): then the result is this run's alone.
                    if !files.changed(since: reads), ReadFiles.stillRead(reads) {
                        cache.store(key, result, audited: audited)
                    }
                    if lintForCache {
                        for f in result.frames.indices { result.frames[f].lints = [] }
                        result.lintsIgnored = 0
                    }
                }
                store(i, result)
            }
            if case .success(let engine) = made { TextEngine.giveBack(engine) }
        }
    }

    /// A fixture's key found before the weighing, with the files read to find it: remembered
    /// (`key`), or, for a fixture without a memo, worked out from its decoding (`worked`: nil
    /// when a file it names cannot be read whole), with its cost (nil: it does not decode).
    private struct Remembered: Sendable {
        var files: ReadFiles
        var key: ResultKey?
        var memo: ResultKey?
        var worked: ResultKey?
        var cost: Double?
    }

    /// What the weighing decided for a fixture: finished from the cache, or rendered (its cost,
    /// its cache key, and the hit to compare with when the audit picked it).
    private enum Plan: Sendable {
        case done
        /// `reads`: the XXH3 of each file read while weighing, by path.
        case render(cost: Double, key: ResultKey?, audited: CachedResult?, reads: [String: UInt64])
    }

    /// Results in the order of `refs`, all kept (small batches, tests, bench).
    public func run(
        _ refs: [FixtureRef], handler: some FrameHandler,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(RunnerError) -> [FixtureResult] {
        let results = Collected<FixtureResult>(count: refs.count)
        try run(refs, handler: handler, finished: { results.put($0, $1) }, progress: progress)
        return results.all()
    }

    /// One fixture, start to end: decode, lay out (text once per fixture), render every frame,
    /// hand each to the handler. Any failure becomes the fixture's error; the batch goes on.
    public static func process(
        _ ref: FixtureRef, decoded: Result<Fixture, FixtureError>, engine: TextEngine,
        handler: some FrameHandler, timeout: Double = Watchdog.defaultSeconds, lint: LintMode = .off,
        hashing: Bool = false
    ) -> FixtureResult {
        var result = FixtureResult(ref: ref)
        let started = DispatchTime.now()
        defer { engine.clearCache() }
        func since(_ start: DispatchTime) -> Double {
            Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        }
        let fixture: Fixture
        switch decoded {
        case .success(let f): fixture = f
        case .failure(let error):
            result.error = error.diagnostic
            return result
        }
        let watchdog = Watchdog(seconds: timeout)
        do {
            let layout = try LayoutEngine.layout(fixture, measurer: WatchedMeasurer(base: engine, watchdog: watchdog))
            let renderer = try FrameRenderer(canvas: fixture.canvas, engine: engine)
            try handler.fixtureStarted(fixture, layout: layout)
            // From the layout alone (text measured once per text, cached): no pixels.
            let lints =
                lint == .off
                ? nil
                : try FixtureLints.lint(fixture, layout: layout, measurer: engine) {
                    try watchdog.check("linting (\(Plural.count(layout.frameCount, "frame")))")
                }
            result.lintsIgnored = lints?.ignored ?? 0
            result.canvas = layout.canvas
            if hashing {
                result.layoutHash = LayoutJSON.digestBytes(layout).withUnsafeBytes {
                    PixelHash.hex(PixelHash.ofBytes($0))
                }
            }
            for (s, state) in layout.states.enumerated() {
                for (f, frame) in state.frames.enumerated() {
                    try watchdog.check(
                        "rendering \(state.name) frame \(frame.index) of \(state.frames.count) (\(Plural.count(layout.frameCount, "frame")) in all)"
                    )
                    let frameStarted = DispatchTime.now()
                    var pixels = try renderer.render(frame)
                    if hashing { pixels.knownHash = pixels.hash }
                    var frameResult = handler.handle(fixture, state: state.name, frame: frame, pixels: pixels)
                    frameResult.pixelHash = pixels.knownHash
                    frameResult.time = frame.time
                    frameResult.progress = frame.progress
                    frameResult.seconds = since(frameStarted)
                    frameResult.lints = lints?.frames[s][f] ?? []
                    result.frames.append(frameResult)
                }
            }
            if let note = try handler.fixtureFinished(fixture, layout: layout, frames: &result.frames) {
                result.notes.append(note)
            }
            result.seconds = since(started)
        } catch {
            result.error = .fixtureStage(error, ref: ref, fixture: fixture, otherwise: .environment)
        }
        result.usedBrandFonts = engine.usedBrandFonts
        return result
    }
}

/// Results put by index from any thread, read back in order.
final class Collected<T: Sendable>: Sendable {
    private let items: LockedValue<[T?]>

    init(count: Int) { items = LockedValue(Array(repeating: nil, count: count)) }

    func put(_ index: Int, _ item: T) { items.withLock { $0[index] = item } }

    func all() -> [T] { items.withLock { $0.map { $0! } } }
}
