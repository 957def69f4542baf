import ArgumentParser

@main
struct LayoutSnap: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "layoutsnap",
        abstract: "Layout regression testing for chat-style mobile UI: every animation frame and scroll state, rendered with Pango and Cairo and compared with golden PNGs.",
        version: version,
        subcommands: [Verify.self, Record.self, Render.self, Layout.self],
        defaultSubcommand: Verify.self
    )
}
