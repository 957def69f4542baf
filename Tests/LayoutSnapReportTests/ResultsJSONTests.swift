import Foundation
import LayoutSnapCore
import XCTest
@testable import LayoutSnapReport

final class ResultsJSONTests: XCTestCase {
    func testRoundTrip() throws {
        var results = Samples.small()
        results.fixtures[0].states[0].frames[0].message = "ünïcödé ✓ \"quoted\" </script> \u{2028}"
        let data = ResultsJSON.encode(results)
        let decoded = try ResultsJSON.decode(data)
        XCTAssertEqual(decoded, results)
        // Stable: encoding the decoded value gives the same bytes.
        XCTAssertEqual(ResultsJSON.encode(decoded), data)
    }

    /// A run large enough for fixtures to be encoded in batches on two threads: the same document
    /// as one encoder writing them in order, and it reads back as the run.
    func testBatchesOnTwoThreadsWriteTheSameBytes() throws {
        let one = Samples.small().fixtures[0]
        var results = Samples.small()
        results.fixtures = FixtureEntries(
            (0..<600).map { i in
                var f = one
                f.id = "cards/c\(i)"
                f.cached = i % 3 == 0 ? true : nil
                return f
            })
        let data = ResultsJSON.encode(results)
        XCTAssertEqual(try ResultsJSON.decode(data), results)
        // The fixtures array, each element as a single encoder writes it in order.
        let encoder = ResultsJSON.makeEncoder(pretty: true)
        let sequential = results.fixtures.map {
            ResultsJSON.encoded(results.withCauses($0), depth: 2, pretty: true, encoder: encoder)
        }
        let text = String(decoding: data, as: UTF8.self)
        var searchFrom = text.startIndex
        for piece in sequential {
            let range = try XCTUnwrap(
                text.range(of: String(decoding: piece, as: UTF8.self), range: searchFrom..<text.endIndex))
            searchFrom = range.upperBound
        }
    }

    /// The report encodes a run once for index.html (compact) and results.json (re-indented):
    /// byte for byte what each setting of `write` gives, for runs small, large, with hostile
    /// strings and with none.
    func testEncodingOnceForBothFilesWritesTheSameBytes() throws {
        var tricky = Samples.small()
        tricky.fixtures[0].states[0].frames[0].message = #"a "quoted" \ , : { } [ ] \" end"#
        var empty = Samples.small()
        empty.fixtures = FixtureEntries([])
        for results in [Samples.small(), Samples.large(fixtureCount: 300, framesPerAnimation: 3), tricky, empty] {
            var compact = Data()
            var pretty = Data()
            try ResultsJSON.writeBoth(results, compact: { compact.append($0) }, pretty: { pretty.append($0) })
            XCTAssertEqual(compact, ResultsJSON.encode(results, pretty: false))
            XCTAssertEqual(
                String(decoding: pretty, as: UTF8.self), String(decoding: ResultsJSON.encode(results), as: UTF8.self))
        }
    }

    /// The re-indenting does not depend on where the compact JSON is cut into pieces: cut
    /// anywhere (inside a string, an escape, a number, between a bracket and its closer), every
    /// cut gives the encoder's own pretty bytes.
    func testReindentingIsTheSameWhereverThePiecesAreCut() throws {
        var tricky = Samples.small()
        tricky.fixtures[0].states[0].frames[0].message = #"a "quoted" \ , : { } [ ] \" end \\"#
        tricky.fixtures[0].states[0].frames[0].layoutChanges = []
        let compact = [UInt8](ResultsJSON.encode(tricky, pretty: false))
        let expected = ResultsJSON.encode(tricky)
        for size in [1, 2, 3, 5, 64] {
            var printer = ResultsJSON.PrettyPrinter()
            var pretty = Data()
            var at = 0
            while at < compact.count {
                let end = min(at + size, compact.count)
                pretty.append(printer.indent(Data(compact[at..<end])))
                at = end
            }
            pretty.append(Data("\n".utf8))
            XCTAssertEqual(
                String(decoding: pretty, as: UTF8.self), String(decoding: expected, as: UTF8.self), "\(size)")
        }
    }

    /// results.json is written on a thread of its own, at most a few megabytes behind the page:
    /// a slow writer holds the encoding back (the same bytes), an error there reaches the caller,
    /// and an error writing the page ends that thread. None of them hangs.
    func testEncodingOnceForBothFilesWaitsForAndStopsAtEitherFile() throws {
        struct Full: Error {}
        let results = Samples.large(fixtureCount: 3000, framesPerAnimation: 3)
        var compact = Data()
        var pretty = Data()
        try ResultsJSON.writeBoth(results, compact: { compact.append($0) }, pretty: { pretty.append($0) })
        XCTAssertEqual(pretty, ResultsJSON.encode(results))
        // A slow writer with little room: the sender waits for it, batch by batch.
        var slowest = Data()
        let writer = ResultsJSON.IndentingWriter(
            { piece in
                usleep(2_000)
                slowest.append(piece)
            }, maxWaitingBytes: 1)
        var printer = ResultsJSON.PrettyPrinter()
        var expected = Data()
        var sent = 0
        try ResultsJSON.write(results, pretty: false) { piece in
            try writer.send(piece)
            expected.append(printer.indent(piece))
            sent += piece.count
        }
        try writer.close()
        XCTAssertGreaterThan(sent, 20 * ResultsJSON.IndentingWriter.batchBytes)
        XCTAssertEqual(slowest, expected + Data("\n".utf8))

        var written = 0
        XCTAssertThrowsError(
            try ResultsJSON.writeBoth(
                results, compact: { _ in },
                pretty: { piece in
                    written += piece.count
                    if written > 100_000 { throw Full() }
                })
        ) { XCTAssertTrue($0 is Full, "\($0)") }
        var pages = 0
        XCTAssertThrowsError(
            try ResultsJSON.writeBoth(
                results,
                compact: { _ in
                    pages += 1
                    if pages == 500 { throw Full() }
                }, pretty: { _ in })
        ) { XCTAssertTrue($0 is Full, "\($0)") }
        XCTAssertEqual(pages, 500, "the page stops at its error")

        // results.json fails while the page's last batch is still being made: the error reaches
        // the caller at the end (and the writer lets the caller's closure go).
        let small = Samples.large(fixtureCount: 130, framesPerAnimation: 3)
        var paged = 0
        var paused = false
        XCTAssertThrowsError(
            try ResultsJSON.writeBoth(
                small,
                compact: { piece in
                    paged += piece.count
                    if paged > ResultsJSON.IndentingWriter.batchBytes + 4096 && !paused {
                        paused = true
                        usleep(200_000)
                    }
                }, pretty: { _ in throw Full() })
        ) { XCTAssertTrue($0 is Full, "\($0)") }
        XCTAssertTrue(paused)
        XCTAssertLessThan(paged, 2 * ResultsJSON.IndentingWriter.batchBytes, "one batch handed over, the last not")

        // However it ends, the writer lets go of the closure it was lent (`writeBoth` lends it
        // only for its own call).
        final class Token {}
        var token: Token? = Token()
        weak let lent = token
        let failing = ResultsJSON.IndentingWriter { [token] _ in
            withExtendedLifetime(token) {}
            throw Full()
        }
        token = nil
        try failing.send(Data(count: ResultsJSON.IndentingWriter.batchBytes))
        usleep(100_000)
        try failing.send(Data("{}".utf8))
        XCTAssertThrowsError(try failing.close()) { XCTAssertTrue($0 is Full, "\($0)") }
        XCTAssertNil(lent, "the closure is let go once the writer is closed")
        withExtendedLifetime(failing) {}
    }

    func testOutputIsPrettySortedAndOmitsNils() throws {
        let text = String(decoding: ResultsJSON.encode(Samples.small()), as: UTF8.self)
        XCTAssertTrue(text.hasSuffix("}\n"))
        XCTAssertTrue(text.contains("\n  \"command\" : \"verify\""), text.prefix(300).description)
        // Sorted keys at the top level.
        let keys = ["command", "durationSeconds", "environmentDifferences", "fixtures", "summary", "tool", "version"]
        let positions = keys.map { text.range(of: "\n  \"\($0)\" :")?.lowerBound }
        XCTAssertFalse(positions.contains(nil))
        XCTAssertEqual(positions.compactMap { $0 }, positions.compactMap { $0 }.sorted())
        // Slashes are not escaped, nils are omitted.
        XCTAssertTrue(text.contains("\"posts/long-body\""))
        XCTAssertFalse(text.contains("null"))
        // Field names are the schema.
        for key in [
            "durationSeconds", "environmentDifferences", "layoutChanges", "maxChannelDifference", "differentPixels",
            "golden", "progress",
        ] {
            XCTAssertTrue(text.contains("\"\(key)\""), key)
        }
    }

    func testNonFiniteNumbersDoNotBreakEncoding() throws {
        var results = Samples.small()
        results.durationSeconds = .infinity
        results.fixtures[2].states[1].frames[7].metrics?.ratio = .nan
        let decoded = try ResultsJSON.decode(ResultsJSON.encode(results))
        XCTAssertEqual(decoded.durationSeconds, .infinity)
        XCTAssertTrue(decoded.fixtures[2].states[1].frames[7].metrics!.ratio.isNaN)
    }

    func testDecodeErrorsNameThePath() {
        func error(_ json: String) -> ResultsJSONError? {
            do {
                _ = try ResultsJSON.decode(Data(json.utf8))
                return nil
            } catch { return error }
        }
        XCTAssertEqual(error("")?.description, "results.json: $: empty input, expected a JSON object")
        XCTAssertEqual(error("{ not json")?.path, "$")
        XCTAssertTrue(error("{ not json")?.message.hasPrefix("not valid JSON") ?? false)

        var object = try! JSONSerialization.jsonObject(with: ResultsJSON.encode(Samples.small())) as! [String: Any]
        object.removeValue(forKey: "summary")
        let missing = error(String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        XCTAssertEqual(missing?.description, "results.json: $: missing required key \"summary\"")

        let text = String(decoding: ResultsJSON.encode(Samples.small()), as: UTF8.self)
        let badStatus = error(
            text.replacingOccurrences(of: "\"status\" : \"failed\"", with: "\"status\" : \"exploded\""))
        XCTAssertEqual(badStatus?.path, "$.fixtures[2].states[1].frames[7].status")
        XCTAssertEqual(
            badStatus?.message,
            "unknown frame status \"exploded\" (expected one of: passed, similar, failed, missing, unreadable, error, recorded, unchanged, rendered)"
        )

        let badType = error(
            text.replacingOccurrences(of: "\"differentPixels\" : 2210", with: "\"differentPixels\" : \"many\""))
        XCTAssertEqual(
            badType?.description,
            "results.json: $.fixtures[2].states[1].frames[7].metrics.differentPixels: expected an integer")

        let badCommand = error(
            text.replacingOccurrences(of: "\"command\" : \"verify\"", with: "\"command\" : \"approve\""))
        XCTAssertEqual(
            badCommand?.description,
            "results.json: $.command: unknown command \"approve\" (expected one of: verify, record, render)")

        // A lint rule is read as one of the rules, never taken for text-overlap.
        var linted = Samples.small()
        let finding = LintFinding(
            rule: .contrast, elements: ["body"], detail: "2.1:1", rect: Rect(x: 0, y: 0, width: 1, height: 1),
            amount: 2.4)
        linted.fixtures[2].states[1].frames[7].lints = [LintEntry(finding, severity: .warning)]
        let lintText = String(decoding: ResultsJSON.encode(linted), as: UTF8.self)
        XCTAssertEqual(
            try ResultsJSON.decode(Data(lintText.utf8)).fixtures[2].states[1].frames[7].lints?.first?.finding.rule,
            .contrast)
        let badRule = error(lintText.replacingOccurrences(of: "\"rule\" : \"contrast\"", with: "\"rule\" : \"glare\""))
        XCTAssertEqual(badRule?.path, "$.fixtures[2].states[1].frames[7].lints[0].rule")
        XCTAssertEqual(
            badRule?.message,
            "unknown lint rule \"glare\" (expected one of: text-overlap, outside-container, clipped-text, contrast, caret-hidden)"
        )
    }

    /// The report page reads which statuses and severities fail from the file, once per run.
    func testTheOutcomeOfEachStatusAndSeverityIsWritten() throws {
        let object = try JSONSerialization.jsonObject(with: ResultsJSON.encode(Samples.small())) as! [String: Any]
        let table = try XCTUnwrap(object["outcomeOf"] as? [String: [String: String]])
        XCTAssertEqual(
            table["status"],
            Dictionary(uniqueKeysWithValues: FrameStatus.allCases.map { ($0.rawValue, $0.outcome.rawValue) }))
        XCTAssertEqual(table["status"]?["missing"], "failed")
        XCTAssertEqual(table["status"]?["similar"], "passed")
        XCTAssertEqual(table["severity"], ["warning": "passed", "failure": "failed", "error": "error"])
    }

    /// A fixture entry holds one diagnostic; `error` is its line, still written, and read alone
    /// from files that have no diagnostic.
    func testAFixtureEntryHoldsOneDiagnosticAndStillWritesItsLine() throws {
        let line = "Fixtures/broken/bad-json.json:3:14: $.states[0].steps: expected an array"
        let text = String(decoding: ResultsJSON.encode(Samples.small()), as: UTF8.self)
        XCTAssertTrue(text.contains("\"error\" : \"\(line)\""), text)
        let decoded = try ResultsJSON.decode(Data(text.utf8))
        XCTAssertEqual(decoded.fixtures[5].diagnostic?.line, 3)
        XCTAssertEqual(decoded.fixtures[5].diagnostic?.path, "$.states[0].steps")
        XCTAssertEqual(decoded.fixtures[5].error, line)

        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var fixtures = try XCTUnwrap(object["fixtures"] as? [[String: Any]])
        fixtures[5].removeValue(forKey: "diagnostic")
        object["fixtures"] = fixtures
        let older = try ResultsJSON.decode(JSONSerialization.data(withJSONObject: object))
        XCTAssertEqual(older.fixtures[5].error, line)
        XCTAssertEqual(older.fixtures[5].outcome, .error)
    }

    func testUnknownKeysAreIgnored() throws {
        let text = String(decoding: ResultsJSON.encode(Samples.small()), as: UTF8.self)
            .replacingOccurrences(
                of: "\"tool\" : \"layoutsnap\"", with: "\"tool\" : \"layoutsnap\", \"futureField\" : [1, 2]")
        XCTAssertEqual(try ResultsJSON.decode(Data(text.utf8)), Samples.small())
    }
}

/// results.json is written in pieces; it must say exactly what the whole value encodes to.
final class ResultsJSONStreamingTests: XCTestCase {
    func testThePiecesSayWhatTheWholeValueSays() throws {
        for results in [
            Samples.small(), Samples.large(fixtureCount: 12, framesPerAnimation: 5),
            RunResults(version: "1", durationSeconds: 0, fixtures: []),
        ] {
            let whole = try JSONEncoder().encode(results)
            for pretty in [true, false] {
                let pieces = ResultsJSON.encode(results, pretty: pretty)
                let a = try JSONSerialization.jsonObject(with: whole) as! NSDictionary
                let b = try JSONSerialization.jsonObject(with: pieces) as! NSDictionary
                XCTAssertEqual(a, b, "pretty: \(pretty)")
            }
            XCTAssertFalse(
                String(decoding: ResultsJSON.encode(results), as: UTF8.self).contains(" \n"), "no trailing spaces")
        }
    }
}
