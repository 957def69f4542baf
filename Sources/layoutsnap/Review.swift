import ArgumentParser
import Dispatch
import Foundation
import LayoutSnapRender
import LayoutSnapReport
import LayoutSnapRunner

struct Review: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Serve a verify report on 127.0.0.1 to approve or reject its failing frames (docs/review.md).",
        discussion:
            "Prints the address to open (with its token) and serves until Ctrl-C. An approval writes the frame's golden with the transaction accept uses, only while the golden is still the one verify read. Refuses to write goldens when CI is set, unless --allow-ci is given."
    )

    @Option(help: "The report folder verify wrote (default: layoutsnap.json's report, else .layoutsnap/report).")
    var report: String?

    @Option(help: "The port on 127.0.0.1 (default 0: a free one, printed).")
    var port: Int = 0

    @Flag(help: "Verify a fixture again when its file changes, and update the page.")
    var watch = false

    @Option(help: "The goldens folder (default: the one the verify run checked).")
    var goldens: String?

    @Option(help: "Fixtures rendered in parallel when --watch verifies again (default: all cores).")
    var jobs: Int = BatchRunner.defaultJobs

    @Flag(help: "Write approved goldens even though CI is set.")
    var allowCI = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        try ArgumentChecks.jobs(jobs)
    }

    func run() throws {
        // Before the server's and the watcher's threads: the watcher renders, and the language
        // is set in the environment, which no other thread may read meanwhile.
        FontSystem.pinLanguage()
        try Diagnostics.run {
            let project = try ProjectSettings.load()
            let acceptance = GoldenAcceptance(
                resultsPath: (report ?? project.report) + "/results.json",
                goldens: goldens ?? (project.file != nil ? project.goldens : nil), allowCI: allowCI)
            let server = try ReviewServer(acceptance: acceptance, port: UInt16(port), watching: watch)
            // Ctrl-C and SIGTERM stop the server between requests: an approval being written
            // finishes first.
            var sources: [any DispatchSourceSignal] = []
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler { server.stop() }
                source.resume()
                sources.append(source)
            }
            if acceptance.refusedUnderCI {
                Diagnostics.printWarning("CI is set: approvals will be refused (--allow-ci writes them)")
            }
            Diagnostics.out("Review: \(server.url)")
            if watch {
                let watcher = ReviewWatch(defaults: project.config.defaults, jobs: jobs, version: LayoutSnap.version)
                Thread.detachNewThread { watcher.run(server, note: { Diagnostics.err($0) }) }
            }
            server.serve()
            withExtendedLifetime(sources) {}
            return .passed
        }
    }
}
