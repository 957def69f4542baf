import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapRunner

/// Shell completions that need the project: the shell calls the binary back with the words
/// typed so far (argument-parser's custom completion), and these answer from the fixtures on
/// disk. A failure completes nothing rather than printing an error into the shell.
enum Completions {
    /// `--variant`: the variant names the fixtures declare (of the files named on the line, or
    /// under Fixtures/).
    static let variants = CompletionKind.custom { words, _, prefix in
        // The fixture files and folders on the line: not the program, not an option's value.
        let paths = words.indices.dropFirst().filter { i in !words[i - 1].hasPrefix("--") && !words[i].hasPrefix("-") }
            .map { words[$0] }.filter { $0.hasSuffix(".json") || FileManager.default.fileExists(atPath: $0 + "/") }
        guard let refs = try? FixtureDiscovery.discover(paths: paths, project: try? ProjectSettings.load()) else {
            return []
        }
        return Set(refs.compactMap { $0.variant?.name }).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// `layout --state`: the states of the fixture file on the line.
    static let states = CompletionKind.custom { words, _, prefix in
        guard let file = words.first(where: { $0.hasSuffix(".json") }),
            let ref = try? FixtureDiscovery.single(file, variant: nil, project: try? ProjectSettings.load()),
            let layout = try? LayoutComputation.layout(ref)
        else { return [] }
        return layout.states.map(\.name).filter { $0.hasPrefix(prefix) }
    }
}
