import ArgumentParser
import Foundation
import LayoutSnapReport
import LayoutSnapRender
import LayoutSnapSystem

@main
struct LayoutSnap: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "layoutsnap",
        abstract:
            "Layout regression testing for chat-style mobile UI: every animation frame and scroll state, rendered with Pango and Cairo and compared with golden PNGs.",
        discussion:
            "Exit codes: 0 everything verified; 1 a frame differs or a golden is missing; 2 bad input (a fixture, a golden or an argument could not be used).",
        version: version,
        subcommands: [
            Init.self, Verify.self, Record.self, Accept.self, Review.self, Render.self, Layout.self, Diff.self,
            Preview.self, Import.self, Generate.self, MergeReports.self, Fuzz.self, Config.self, Lint.self,
            SchemaCommand.self, CacheCommand.self,
        ],
        defaultSubcommand: Verify.self
    )

    /// Whether the command line is one of the commands that draw (or lay out text): they start
    /// loading the rendering libraries before their arguments are parsed. verify, the default
    /// command, loads them when it needs them: at once without a cache, else when the cache's
    /// libraries memo no longer holds or a fixture renders (a warm run never does).
    static func loadsLibrariesAtStart(_ arguments: [String]) -> Bool {
        ["record", "render", "layout", "preview", "fuzz", "lint"].contains(arguments.dropFirst().first ?? "")
    }

    /// argument-parser exits 64 on a usage error; docs/outcomes.md makes every bad input exit 2.
    static func main() {
        SystemCall.growHeapsInLargeSteps()
        if loadsLibrariesAtStart(CommandLine.arguments) {
            FontSystem.pinLanguage()
            RenderLibraries.startLoading()
        }
        if let code = FastPath.run(CommandLine.arguments) { Foundation.exit(code) }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(Outcome.error.exitCode)
            }
            exit(withError: error)
        }
    }
}
