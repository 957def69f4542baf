import Foundation
import LayoutSnapJSON
import XCTest

@testable import LayoutSnapCore

/// `layoutsnap import` of Markdown (docs/commands.md "import"): a post card whose title is the
/// first `#` heading, summary the first paragraph and body the rest, in the card's own Markdown.
final class MarkdownImportTests: XCTestCase {
    func testTitleSummaryAndBody() throws {
        let markdown = """
            ---
            title: Not used, there is a heading
            author: "Ann Lee"
            date: 2024-05-01
            ---

            Intro text before the title is still the summary:
            the *first* paragraph, [linked](https://example.com) and `coded`.

            # Release notes

            ## Highlights
            - Faster sync
            * __Dark mode__ everywhere
              - a nested item
            1. First

            ![a screenshot](shot.png)

            A paragraph with snake_case_name, _emphasis_ and ~~old~~ text,
            joined from two lines.  
            A hard break before this line.

            Setext heading
            --------------
            Final words.
            """
        let result = try Importer.convert(Array(markdown.utf8), file: "notes.md", format: .markdown)
        XCTAssertEqual(
            String(decoding: result.outputs[0].bytes, as: UTF8.self),
            """
            {
              "kind": "post",
              "title": "Release notes",
              "summary": "Intro text before the title is still the summary: the *first* paragraph, linked and coded.",
              "body": "# Highlights\\n- Faster sync\\n- **Dark mode** everywhere\\n- a nested item\\n1. First\\n\\nA paragraph with snake_case_name, *emphasis* and old text, joined from two lines.\\nA hard break before this line.\\n\\n# Setext heading\\nFinal words.",
              "author": "Ann Lee",
              "steps": [
                {"expand": true}
              ]
            }

            """)
        XCTAssertEqual(result.outputs[0].summary, "a card with 11 body lines")
        XCTAssertEqual(
            result.notes.description,
            "1 front matter field other than title and author ignored, 1 nested list item flattened, 1 code span kept as plain text, 1 image dropped, 1 strikethrough dropped"
        )
    }

    /// Code blocks, tables, quotes and HTML stay as plain lines; rules and comments go.
    func testWhatACardCannotShowIsKeptAsTextOrDropped() throws {
        let markdown = """
            Title
            =====

            > Quoted
            > twice

            ```swift
            let x = 1
              indented()
            ```

            | a | b |
            |---|:-:|
            | 1 | 2 |

            ***

            <!-- a comment
            over lines -->
            <div>html</div>
            """
        let result = try Importer.convert(Array(markdown.utf8), file: "notes.md", format: .markdown)
        let post = try XCTUnwrap(
            FixtureDecoder.decode(bytes: result.outputs[0].bytes, id: "x", file: "x.json", folder: .empty()).content
                as? PostFixture)
        XCTAssertEqual(post.title, "Title")
        XCTAssertEqual(post.summary, "Quoted twice")
        XCTAssertEqual(post.body, "let x = 1\n  indented()\n\n| a | b |\n| 1 | 2 |\n\n<div>html</div>")
        XCTAssertEqual(
            result.notes.description,
            "2 quoted lines kept as plain text, 1 code block kept as plain text, 1 table kept as plain lines, 1 horizontal rule dropped, 1 HTML line kept as text"
        )
    }

    /// Without a heading the front matter's title is used, else the card has none (counted);
    /// a file with nothing to show is an error.
    func testTitlesFromFrontMatterOrNone() throws {
        let front = try Importer.convert(
            Array("---\ntitle: 'From front matter'\n---\nJust a paragraph.\n".utf8), file: "a.md", format: .markdown)
        XCTAssertTrue(
            String(decoding: front.outputs[0].bytes, as: UTF8.self).contains(#""title": "From front matter""#))
        let none = try Importer.convert(
            Array("Just a paragraph.\n\nAnd another.".utf8), file: "a.md", format: .markdown)
        XCTAssertFalse(String(decoding: none.outputs[0].bytes, as: UTF8.self).contains("title"))
        XCTAssertEqual(none.notes.description, "1 document without a heading (no title)")
        do {
            _ = try Importer.convert(Array("\n\n<!-- only a comment -->\n".utf8), file: "a.md", format: .markdown)
            XCTFail("nothing to import")
        } catch {
            XCTAssertEqual(
                error.diagnostics.map(\.description), ["a.md: nothing to import: no heading, paragraph or list"])
        }
    }

    /// Hostile text stays linear: thousands of unclosed brackets, backticks and underscores.
    func testHostileInlineTextIsFast() throws {
        let line = String(repeating: "[`_a ", count: 20_000)
        let start = Date()
        let result = try Importer.convert(Array(("# T\n\n\(line)\n\nbody").utf8), file: "a.md", format: .markdown)
        XCTAssertLessThan(Date().timeIntervalSince(start), 20)
        XCTAssertEqual(result.outputs.count, 1)
    }

    func testInlineMarkdown() {
        var notes = ImportNotes()
        let cases: [(String, String)] = [
            ("[a *b*](u) and ![i](p.png)", "a *b* and "),
            ("<https://example.com> and <img src=x>", "https://example.com and "),
            ("__bold__ _it_ snake_case_x \\*literal\\*", "**bold** *it* snake_case_x *literal*"),
            ("``code with ` tick`` and `x`", "code with ` tick and x"),
            ("[ref link][1] and [unclosed", "ref link and [unclosed"),
        ]
        for (source, expected) in cases {
            XCTAssertEqual(MarkdownImport.inline(source, notes: &notes), expected, source)
        }
    }
}

/// Hostile inputs of every format, a megabyte or more each, are converted in time linear in their
/// size and within the fixture limits. Linear is asked of the times themselves, not of a clock
/// bound: each input is converted at a tenth of its size too, and the whole one may take at most
/// 40 times as long (linear is 10, quadratic 100), so that a loaded machine or a sanitizer, which
/// slow both alike, cannot fail it; a minute and a half is the bound on a run that never ends.
final class HostileImportTests: XCTestCase {
    func testLargeHostileInputsStayBounded() throws {
        let inputs: [(String, (Int) -> [UInt8], ImportFormat)] = [
            (
                "a cue of '<'",
                { Array(("WEBVTT\n\n00:01.000 --> 00:02.000\n" + String(repeating: "<b ", count: 400_000 / $0)).utf8) },
                .webVTT
            ),
            (
                "markdown openers", { Array(("# T\n\n" + String(repeating: "[`_~~<a ", count: 200_000 / $0)).utf8) },
                .markdown
            ),
            (
                "a million newlines", { Array(("# T\n\nx" + String(repeating: "\n- a", count: 500_000 / $0)).utf8) },
                .markdown
            ),
            (
                "a two-megabyte title and summary",
                {
                    Array(
                        ("# " + String(repeating: "t", count: 1_000_000 / $0) + "\n\n"
                            + String(repeating: "s ", count: 500_000 / $0)).utf8)
                },
                .markdown
            ),
            (
                "100,000 cues",
                { Array((0..<100_000 / $0).map { "\($0)\n00:00:01,000 --> 00:00:02,000\nx\n\n" }.joined().utf8) },
                .srt
            ),
            (
                "a long conversation",
                { part in
                    Array(
                        ("["
                            + Array(repeating: #"{"role": "user", "content": "*a* **b** c"}"#, count: 120_000 / part)
                            .joined(separator: ",") + "]").utf8)
                },
                .chat
            ),
        ]
        for (name, input, format) in inputs {
            var seconds: [Double] = []
            for part in [10, 1] {
                let bytes = input(part)
                let start = Date()
                let result = try Importer.convert(bytes, file: "x", format: format, options: .init(streamLast: true))
                seconds.append(Date().timeIntervalSince(start))
                XCTAssertFalse(result.outputs.isEmpty, name)
            }
            // A tenth that takes under 50 ms is timed as 50 ms: too short to be a base.
            XCTAssertLessThan(seconds[1] / max(seconds[0], 0.05), 40, "\(name): \(seconds)")
            XCTAssertLessThan(seconds[1], 90, name)
        }
    }
}
