import Foundation
import LayoutSnapTestSupport
import XCTest

/// README.md and every page under docs/ name only what exists: each relative link's file, each
/// anchor's heading (GitHub's slugs), and each repository path written in a code span. Fenced code
/// blocks are examples (terminal output, other people's files) and are not read.
final class DocsLinkTests: XCTestCase {
    /// Where a path in a code span is taken for a repository path. `Goldens/` is left out on
    /// purpose: the docs name the goldens folder's run-time files and examples
    /// (`Goldens/.layoutsnap.lock`, `Goldens/<fixture id>/...`), not files of the tree.
    static let repositoryRoots = [
        "Sources/", "Tests/", "Fixtures/", "docs/", ".ci/", "schema/", "Benchmarks/", "Tools/", "Fuzz/",
    ]

    func testEveryLinkAnchorAndPathExists() throws {
        let root = TestPaths.packageRoot
        var problems: [String] = []
        for page in try Self.pages(root: root) {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            let prose = Self.withoutFencedBlocks(text)
            let folder = (page as NSString).deletingLastPathComponent
            for target in Self.links(in: prose) {
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(
                    String.init)
                let file = parts[0]
                let anchor = parts.count > 1 ? parts[1] : nil
                let resolved = file.isEmpty ? page : Self.normalised((folder as NSString).appendingPathComponent(file))
                guard FileManager.default.fileExists(atPath: root.appendingPathComponent(resolved).path) else {
                    problems.append("\(page): the link \(target) names \(resolved), which does not exist")
                    continue
                }
                if let anchor, resolved.hasSuffix(".md") {
                    let headings = Self.slugs(
                        of: try String(contentsOf: root.appendingPathComponent(resolved), encoding: .utf8))
                    if !headings.contains(anchor) {
                        problems.append("\(page): the link \(target): \(resolved) has no heading #\(anchor)")
                    }
                }
            }
            for path in Self.repositoryPaths(in: prose)
            where !FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) {
                problems.append("\(page): `\(path)` is not in the tree")
            }
        }
        XCTAssertEqual(problems, [], problems.joined(separator: "\n"))
    }

    func testSlugsFollowGitHubsRules() {
        XCTAssertEqual(
            Self.slug("Variants: devices, Dynamic Type sizes, appearances and directions"),
            "variants-devices-dynamic-type-sizes-appearances-and-directions")
        XCTAssertEqual(Self.slug("render, layout"), "render-layout")
        XCTAssertEqual(Self.slug("`post`: a card that expands"), "post-a-card-that-expands")
        XCTAssertEqual(
            Self.slug("Coverage-guided fuzzing, sanitizers and load"), "coverage-guided-fuzzing-sanitizers-and-load")
        XCTAssertEqual(Self.slug("snake_case [a link](x.md) here"), "snake_case-a-link-here")
        XCTAssertEqual(Self.slugs(of: "# A\n```\n# not a heading\n```\n## A\n"), ["a", "a-1"])
    }

    func testPathsInCodeSpansSkipPlaceholdersAndGlobs() {
        let prose =
            "`Sources/LayoutSnapCore/Kinds/`, `docs/fixtures/<kind>.md`, `Fixtures/**/*.json`, `Goldens/x.png`, `.ci/run`, `run Tools/x.py [DIR]`, `Sources/A.swift:12`."
        XCTAssertEqual(
            Self.repositoryPaths(in: prose),
            ["Sources/LayoutSnapCore/Kinds", ".ci/run", "Tools/x.py", "Sources/A.swift"])
    }

    // MARK: Reading Markdown

    static func pages(root: URL) throws -> [String] {
        var pages = ["README.md"]
        let docs = root.appendingPathComponent("docs")
        let walker = FileManager.default.enumerator(atPath: docs.path)
        while let file = walker?.nextObject() as? String {
            if file.hasSuffix(".md") { pages.append("docs/" + file) }
        }
        return pages.sorted()
    }

    /// The text with every fenced code block (``` or ~~~) blanked out, line count kept.
    static func withoutFencedBlocks(_ text: String) -> String {
        var inFence = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            let trimmed = line.drop(while: { $0 == " " })
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                inFence.toggle()
                return ""
            }
            return inFence ? "" : line
        }.joined(separator: "\n")
    }

    /// The targets of `[text](target)` and `![alt](target)` links.
    static func links(in prose: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        let ns = prose as NSString
        return pattern.matches(in: prose, range: NSRange(location: 0, length: ns.length)).map {
            ns.substring(with: $0.range(at: 1))
        }
    }

    /// Repository paths written in code spans: a word of the span that starts with one of
    /// `repositoryRoots`. Skipped: placeholders and globs (`<`, `>`, `*`, `?`, `{`, `$`, `[`, `...`,
    /// `…`). A trailing `/`, `:line` or punctuation is dropped.
    static func repositoryPaths(in prose: String) -> [String] {
        let spans = try! NSRegularExpression(pattern: "`([^`]+)`")
        let ns = prose as NSString
        var paths: [String] = []
        for match in spans.matches(in: prose, range: NSRange(location: 0, length: ns.length)) {
            for word in ns.substring(with: match.range(at: 1)).split(whereSeparator: {
                $0 == " " || $0 == "\n" || $0 == "(" || $0 == "="
            }) {
                var path = String(word)
                guard repositoryRoots.contains(where: { path.hasPrefix($0) }) else { continue }
                if path.contains(where: { "<>*?{$[".contains($0) }) || path.contains("...") || path.contains("…") {
                    continue
                }
                if let colon = path.firstIndex(of: ":") { path = String(path[..<colon]) }
                while let last = path.last, ",.;)/'\"".contains(last) { path.removeLast() }
                paths.append(path)
            }
        }
        return paths
    }

    /// The anchors of a page's headings, as GitHub makes them (a repeated heading gets `-1`, `-2`).
    static func slugs(of text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var result: Set<String> = []
        for line in withoutFencedBlocks(text).split(separator: "\n") where line.hasPrefix("#") {
            let title = line.drop(while: { $0 == "#" })
            guard title.first == " " else { continue }
            let base = slug(String(title))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            result.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return result
    }

    /// GitHub's heading anchor: the heading's text (a link's text, not its target), lower-cased,
    /// punctuation other than `-` and `_` dropped, each space a `-`.
    static func slug(_ heading: String) -> String {
        let linkText = try! NSRegularExpression(pattern: #"\[([^\]]*)\]\([^)]*\)"#)
        let ns = heading as NSString
        let text = linkText.stringByReplacingMatches(
            in: heading, range: NSRange(location: 0, length: ns.length), withTemplate: "$1"
        )
        .trimmingCharacters(in: .whitespaces).lowercased()
        return String(
            text.unicodeScalars.compactMap { scalar -> Character? in
                if scalar == " " { return "-" }
                if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) {
                    return Character(scalar)
                }
                return nil
            })
    }

    /// `a/./b/../c` → `a/c`.
    static func normalised(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }
}
