import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner

/// `layoutsnap cache stats|clear`: the local result cache folder (docs/cache.md).
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache", abstract: "Show or empty the local result cache.",
        subcommands: [Stats.self, Clear.self], defaultSubcommand: Stats.self)

    struct Folder: ParsableArguments {
        @Option(
            help: ArgumentHelp(
                "The cache folder (default: layoutsnap.json's cache.folder, else .layoutsnap/cache).", valueName: "dir")
        )
        var cache: String?

        func store() throws(RunnerError) -> LocalResultStore {
            let project = try ProjectSettings.load()
            let mb = project.config.cache.maxMegabytes
            return LocalResultStore(
                folder: cache ?? project.cacheFolder, maxBytes: mb.map { $0 << 20 } ?? LocalResultStore.defaultMaxBytes)
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Entries, size against the bound, and when the oldest and newest were last used.")

        @OptionGroup var folder: Folder

        func run() throws {
            try Diagnostics.run {
                let store = try folder.store()
                let s = store.stats()
                func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
                Diagnostics.out("cache     \(store.folder)")
                Diagnostics.out("entries   \(s.entries)")
                Diagnostics.out(
                    "size      \(megabytes(s.bytes)) of \(megabytes(store.maxBytes)) (least recently used go first)")
                let format = ISO8601DateFormatter()
                if let oldest = s.oldest, let newest = s.newest {
                    Diagnostics.out("used      \(format.string(from: oldest)) to \(format.string(from: newest))")
                }
                return .passed
            }
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear",
            abstract: "Remove every entry (the next verify renders every fixture and fills it again).")

        @OptionGroup var folder: Folder

        func run() throws {
            try Diagnostics.run {
                let store = try folder.store()
                let removed = store.clear()
                Diagnostics.out("removed \(Plural.count(removed, "entry", "entries")) from \(store.folder)")
                return .passed
            }
        }
    }
}
