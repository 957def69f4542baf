import ArgumentParser
import LayoutSnapReport
import LayoutSnapRunner

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Write every frame as PNG (and each fixture's layout.json) without comparing.")

    @OptionGroup var options: BatchOptions

    @Option(help: "The output folder (frames go to OUT/<fixture>/<state>/<frame>.png).")
    var out: String

    func run() throws {
        try Diagnostics.run {
            let results = try RenderRun(
                settings: options.settings(try ProjectSettings.load()), output: out, version: LayoutSnap.version
            )
            .run(note: Diagnostics.print, progress: options.progress("render"))
            Diagnostics.print(TerminalText.render(results, output: out))
            return results.outcome
        }
    }
}
