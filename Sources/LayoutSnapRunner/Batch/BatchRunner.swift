import Foundation
import LayoutSnapCore
import LayoutSnapRender

/// Runs fixtures on a pool of worker threads. Each worker owns a TextEngine (its own Pango font
/// map and context over the shared private fontconfig) and reuses it for every fixture it takes.
/// Fixtures are decoded first (cheap) so they can be handed out one at a time, most frames x
/// pixels first, and the workers stay busy to the end.
public struct BatchRunner: Sendable {
    public var jobs: Int
    public var overrides: FixtureOverrides
    /// Seconds a fixture may take (layout and every frame) before it is stopped with an error.
    public var timeout: Double

    public init(jobs: Int, overrides: FixtureOverrides = FixtureOverrides(), timeout: Double = Watchdog.defaultSeconds) {
        self.jobs = max(1, jobs)
        self.overrides = overrides
        self.timeout = timeout
    }

    public static var defaultJobs: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Results in the order of `refs`. `progress` is called (from worker threads, serialised) after
    /// each fixture with (done, total).
    /// `decoded`, when given, holds `refs` already decoded with these overrides (a shard's
    /// selection), so they are not read again.
    public func run(_ refs: [FixtureRef], decoded given: consuming [Result<Fixture, FixtureError>]? = nil, handler: some FrameHandler,
                    progress: (@Sendable (Int, Int) -> Void)? = nil) throws(RunnerError) -> [FixtureResult] {
        let fonts: FontSystem
        do {
            fonts = try FontSystem.shared()
        } catch {
            throw RunnerError.environment(error.description)
        }
        precondition(given == nil || given?.count == refs.count, "BatchRunner: one decoded fixture per ref")
        let all = (consume given) ?? overrides.decode(refs, jobs: jobs)
        let costs = all.map { (try? $0.get().estimatedCost) ?? 0 }
        let order = refs.indices.sorted { costs[$0] != costs[$1] ? costs[$0] > costs[$1] : $0 < $1 }
        // Each decoded fixture is let go once its worker has taken it: memory stays flat in the
        // number of fixtures (a 3,000-message chat weighs megabytes).
        let decoded = TakeOnce(consume all)
        let queue = WorkQueue<FixtureResult>(count: refs.count, order: order)
        let timeout = timeout
        WorkerThreads.run(threads: min(jobs, max(refs.count, 1))) {
            // Each worker owns its text engine for every fixture it takes.
            let engine: TextEngine
            do {
                engine = try TextEngine(fonts: fonts)
            } catch {
                while let i = queue.take() {
                    queue.store(i, FixtureResult(ref: refs[i], error: Diagnostic(.error, .environment, file: refs[i].displayPath, message: "\(error)")),
                                progress: progress)
                }
                return
            }
            while let i = queue.take() {
                queue.store(i, Self.process(refs[i], decoded: decoded.take(i), engine: engine, handler: handler, timeout: timeout), progress: progress)
            }
        }
        return queue.results()
    }

    /// One fixture, start to end: decode, lay out (text once per fixture), render every frame,
    /// hand each to the handler. Any failure becomes the fixture's error; the batch goes on.
    public static func process(_ ref: FixtureRef, decoded: Result<Fixture, FixtureError>, engine: TextEngine,
                               handler: some FrameHandler, timeout: Double = Watchdog.defaultSeconds) -> FixtureResult {
        var result = FixtureResult(ref: ref)
        defer { engine.clearCache() }
        let fixture: Fixture
        switch decoded {
        case let .success(f): fixture = f
        case let .failure(error):
            result.error = error.diagnostic
            return result
        }
        let watchdog = Watchdog(seconds: timeout)
        do {
            let layout = try LayoutEngine.layout(fixture, measurer: WatchedMeasurer(base: engine, watchdog: watchdog))
            let renderer = try FrameRenderer(canvas: fixture.canvas, engine: engine)
            try handler.fixtureStarted(fixture, layout: layout)
            for state in layout.states {
                for frame in state.frames {
                    try watchdog.check("rendering \(state.name) frame \(frame.index) of \(state.frames.count) (\(layout.frameCount) frames in all)")
                    let pixels = try renderer.render(frame)
                    var frameResult = handler.handle(fixture, state: state.name, frame: frame, pixels: pixels)
                    frameResult.time = frame.time
                    frameResult.progress = frame.progress
                    result.frames.append(frameResult)
                }
            }
            if let note = try handler.fixtureFinished(fixture, layout: layout, frames: &result.frames) { result.notes.append(note) }
        } catch let error as WatchdogExpired {
            result.error = Diagnostic(.error, .watchdog, file: ref.displayPath, message: error.description)
        } catch let error as LayoutError {
            result.error = Diagnostic(.error, .fixture, file: ref.displayPath, path: error.path, message: error.message)
        } catch let error as RenderError {
            if case let .image(path, reason) = error {
                let source = fixture.imageSource(path: path)
                result.error = Diagnostic(.error, .fixture, file: ref.displayPath, line: source?.line, column: source?.column,
                                          path: "$.image.path", message: "image \(source?.written ?? path): \(reason)")
            } else {
                result.error = Diagnostic(.error, .render, file: ref.displayPath, message: error.description)
            }
        } catch let error as RunnerError {
            result.error = error.diagnostic(file: ref.displayPath)
        } catch {
            result.error = Diagnostic(.error, .environment, file: ref.displayPath, message: "\(error)")
        }
        return result
    }
}

/// Values handed out once each, by index, and let go as they are taken.
final class TakeOnce<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T?]

    init(_ items: consuming [T]) {
        self.items = items.map(Optional.some)
    }

    func take(_ index: Int) -> T {
        lock.withLock {
            defer { items[index] = nil }
            return items[index]!
        }
    }
}
