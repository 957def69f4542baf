import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapRender
import LayoutSnapReport
import LayoutSnapRunner

struct Layout: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Print a fixture's layout (element rects, lines, scroll state) as JSON.")

    @Argument(help: "The fixture file.", completion: .file(extensions: ["json"]))
    var fixture: String

    @Option(help: "Only this state (`initial`, `01-expand`, ...).", completion: Completions.states)
    var state: String?

    @Option(help: "Only this frame index.")
    var frame: Int?

    @Option(
        help: "One of the fixture's variants (its name: `iphone-se+AX3`), instead of the fixture as written.",
        completion: Completions.variants)
    var variant: String?

    @OptionGroup var render: RenderOverrideOptions

    func run() throws {
        try Diagnostics.run {
            let ref = try FixtureDiscovery.single(
                fixture, variant: variant, project: try ProjectSettings.load())
            let layout = try LayoutComputation.layout(ref, overrides: render.overrides)
            if let state, !layout.states.contains(where: { $0.name == state }) {
                throw RunnerError.usage(
                    "\(ref.id) has no state \"\(state)\"; it has: \(layout.states.map(\.name).joined(separator: ", "))")
            }
            if let frame {
                let states = layout.states.filter { state == nil || $0.name == state }
                guard states.contains(where: { $0.frames.contains { $0.index == frame } }) else {
                    let counts = states.map { "\($0.name) has \($0.frames.count)" }.joined(separator: ", ")
                    throw RunnerError.usage("\(ref.id) has no frame \(frame) (\(counts))")
                }
            }
            FileHandle.standardOutput.write(Data(LayoutJSON.encode(layout, state: state, frame: frame)))
            return .passed
        }
    }
}
