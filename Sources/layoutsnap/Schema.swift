import ArgumentParser
import Foundation
import LayoutSnapCore

/// `layoutsnap schema fixture|config`: the JSON Schemas the decoders are checked against, as
/// schema/fixture.schema.json and schema/config.schema.json hold them.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of fixtures or of layoutsnap.json.",
        discussion:
            "Written from the decoders' own field tables; the repository's schema/ folder holds the same bytes. Point an editor at it for completion and errors as you type."
    )

    enum Document: String, ExpressibleByArgument, CaseIterable {
        case fixture, config
    }

    @Argument(help: "fixture or config.")
    var document: Document

    func run() throws {
        let bytes = document == .fixture ? FixtureSchema.document.bytes() : ProjectConfig.document.bytes()
        FileHandle.standardOutput.write(Data(bytes))
    }
}
