import Foundation
import LayoutSnapCore
import LayoutSnapRender

/// `layoutsnap lint`: every frame of every selected fixture laid out (never rendered) and linted.
public struct LintRun: Sendable {
    public var settings: BatchSettings

    public init(settings: BatchSettings) { self.settings = settings }

    /// One fixture's lints, or why it could not be linted.
    public struct Result: Sendable {
        public var ref: FixtureRef
        public var error: Diagnostic?
        public var frames = 0
        public var ranges: [LintRange] = []
        public var findings = 0
        public var ignored = 0
        /// Findings the built-in design accepts.
        public var accepted = 0
    }

    public func run(progress: (@Sendable (Int, Int) -> Void)? = nil) throws(RunnerError) -> (
        results: [Result], empty: String?
    ) {
        let selection = try settings.select()
        if let empty = selection.empty { return ([], empty.message) }
        let refs = selection.refs
        let fonts: FontSystem
        do { fonts = try FontSystem.shared() } catch { throw RunnerError.render(error) }
        let overrides = settings.overrides
        let timeout = settings.timeout
        let queue = WorkQueue<Result>(count: refs.count, order: Array(refs.indices))
        WorkerThreads.run(threads: min(settings.jobs, max(refs.count, 1))) {
            let engine = try? TextEngine(fonts: fonts)
            while let i = queue.take() {
                var result = Result(ref: refs[i])
                if let engine {
                    do {
                        let watchdog = Watchdog(seconds: timeout)
                        let (fixture, layout) = try LayoutComputation.decodeAndLayout(
                            refs[i], overrides: overrides,
                            measurer: WatchedMeasurer(base: engine, watchdog: watchdog))
                        let lints = try FixtureLints.lint(fixture, layout: layout, measurer: engine) {
                            try watchdog.check("linting (\(Plural.count(layout.frameCount, "frame")))")
                        }
                        result.frames = layout.frameCount
                        result.findings = lints.count
                        result.ignored = lints.ignored
                        result.accepted = lints.accepted
                        for (s, state) in layout.states.enumerated() {
                            result.ranges += LintRange.ranges(
                                state: state.name,
                                frames: state.frames.indices.map { (state.frames[$0].index, lints.frames[s][$0]) })
                        }
                    } catch {
                        result.error = .fixtureStage(error, ref: refs[i])
                    }
                    engine.clearCache()
                } else {
                    result.error = Diagnostic(
                        .error, .environment, file: refs[i].displayPath, message: "the text engine could not start")
                }
                queue.store(i, result, progress: progress)
            }
        }
        return (queue.results(), nil)
    }
}
