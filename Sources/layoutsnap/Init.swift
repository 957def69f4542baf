import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner

/// `layoutsnap init [DIR]`: a new project, ready to record and verify.
struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract:
            "Start a project: layoutsnap.json, the JSON Schemas, one starter fixture per kind, .layoutsnap/ in .gitignore and the VS Code schema setting.",
        discussion:
            "Overwrites nothing: a file that is already there with other contents stops it before anything is written (exit 2); one with the same contents is left as it is, so running it again changes nothing. .gitignore and .vscode/settings.json are added to, not replaced."
    )

    @Argument(help: "The project folder (default: the working directory; made when missing).", completion: .directory)
    var dir: String = "."

    func run() throws {
        try Diagnostics.run {
            let result = try ProjectInit.run(in: dir)
            let created = result.created.filter { !result.merged.contains($0) }
            if !created.isEmpty { Diagnostics.out("created \(created.joined(separator: ", "))") }
            if result.merged.contains(ProjectInit.gitignorePath) {
                Diagnostics.out("added \(StarterProject.ignoreLine) to \(ProjectInit.gitignorePath)")
            }
            if result.merged.contains(ProjectInit.settingsPath) {
                Diagnostics.out("added the fixture and layoutsnap.json schemas to \(ProjectInit.settingsPath)")
            }
            if result.created.isEmpty && result.merged.isEmpty {
                Diagnostics.out("nothing to do: every file is already there as init writes it")
            } else if !result.unchanged.isEmpty {
                Diagnostics.out("already there as init writes them: \(result.unchanged.joined(separator: ", "))")
            }
            if let reason = result.settingsRefused {
                Diagnostics.printWarning(
                    "\(ProjectInit.settingsPath) is left as it is: \(reason). Add this to it yourself:\n\(StarterProject.settingsSnippet)"
                )
            }
            Diagnostics.out("Next:")
            if dir != "." { Diagnostics.out("  cd \(dir)") }
            Diagnostics.out(
                "  layoutsnap record    # render every frame of the starter fixtures and write their goldens")
            Diagnostics.out("  layoutsnap verify    # render them again and compare every frame with its golden")
            Diagnostics.out("  open .layoutsnap/report/index.html    # the report verify wrote (xdg-open on Linux)")
            Diagnostics.out(
                "Then change a fixture in Fixtures/ and verify again; layoutsnap import makes fixtures from captions, chat exports and Markdown."
            )
            return .passed
        }
    }
}
