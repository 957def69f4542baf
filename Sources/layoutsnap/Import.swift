import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner

/// `layoutsnap import SRC...`: fixtures from captions, chat exports and Markdown.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Make fixtures from your own material: WebVTT and SRT captions become transcripts, chat exports (role/content messages) chats, Markdown files posts.",
        discussion:
            "Folders are walked in sorted order; each file keeps its place below the folder. The same input always writes the same bytes. A fixture that is already there with other contents is replaced only with --force (without it nothing is written). What a fixture cannot show is counted in a summary. An input that cannot be imported is an error naming its file and line (exit 2); the others are still imported."
    )

    @Argument(
        help: "Files or folders: .vtt, .srt, .json, .jsonl (chat exports), .md.",
        completion: .file(extensions: ImportFormat.extensions))
    var sources: [String] = []

    @Option(help: "The folder the fixtures go to (default: imported/ in the project's fixtures folder).")
    var out: String?

    @Flag(help: "Replace fixtures that are already there with other contents.")
    var force = false

    @Flag(help: "Chats: the last assistant message streams in after a thinking status row, in a few chunks.")
    var streamLast = false

    func validate() throws {
        if sources.isEmpty { throw ValidationError("give at least one file or folder to import") }
    }

    func run() throws {
        try Diagnostics.run {
            let project = try ProjectSettings.load()
            let folder = out ?? (project.fixtures.first ?? "Fixtures") + "/imported"
            let run = ImportRun(
                sources: sources, out: folder, force: force, options: Importer.Options(streamLast: streamLast))
            let report = try run.run()
            for file in report.files {
                for (n, fixture) in file.fixtures.enumerated() {
                    let from = n == 0 ? file.input : String(repeating: " ", count: file.input.count)
                    Diagnostics.out(
                        "\(from) → \(fixture.path): \(fixture.summary)\(fixture.unchanged ? " (unchanged)" : "")")
                }
                if !file.notes.isEmpty { Diagnostics.out("  not carried over: \(file.notes.description)") }
            }
            for error in report.errors { Diagnostics.printError(error.description) }
            if !report.refused.isEmpty {
                let shown = report.refused.prefix(10).joined(separator: ", ")
                let more = report.refused.count > 10 ? " and \(report.refused.count - 10) more" : ""
                Diagnostics.printError(
                    "\(Self.count(report.refused.count, "fixture is", "fixtures are")) already there with other contents: \(shown)\(more). Nothing was written; import again with --force to replace them."
                )
                return .error
            }
            let unchanged = report.files.reduce(0) { $0 + $1.fixtures.filter(\.unchanged).count }
            var line =
                "imported \(Self.count(report.files.count, "file", "files")) into \(Self.count(report.fixtureCount, "fixture", "fixtures")) in \(folder)"
            if unchanged > 0 { line += " (\(unchanged) unchanged)" }
            if report.failedInputs > 0 {
                line += "; \(Self.count(report.failedInputs, "file", "files")) could not be imported"
            }
            if report.skipped > 0 { line += "; \(Self.count(report.skipped, "file", "files")) of other types skipped" }
            Diagnostics.out(line)
            if report.files.count > 1 && !report.notes.isEmpty {
                Diagnostics.out("not carried over, in all: \(report.notes.description)")
            }
            if report.fixtureCount > unchanged { Diagnostics.out("Next: layoutsnap record \(folder)") }
            return report.errors.isEmpty ? .passed : .error
        }
    }

    /// `1 file`, `3 files`.
    static func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
}
