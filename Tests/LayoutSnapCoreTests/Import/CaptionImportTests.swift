import Foundation
import LayoutSnapJSON
import XCTest

@testable import LayoutSnapCore

/// `layoutsnap import` of WebVTT and SRT captions (docs/commands.md "import"): cue times become
/// the appends' `at`, what a transcript cannot show is counted, and malformed input is an error
/// naming its line.
final class CaptionImportTests: XCTestCase {
    /// Worked example: cues starting at 1.000, 3.500 and 3.900 s. Each append's `at` is the time
    /// since the previous cue began (the first, since 0): 1, 2.5, 0.4. The third starts while
    /// the second's scroll may still run, so it is added on top of it.
    func testCueTimesBecomeStepTimes() throws {
        let vtt = """
            WEBVTT

            00:00:01.000 --> 00:00:03.000
            First line

            00:00:03.500 --> 00:00:05.000
            Second line

            00:03.900 --> 00:06.000
            Third line
            """
        let result = try Importer.convert(Array(vtt.utf8), file: "a.vtt", format: .webVTT)
        XCTAssertEqual(result.outputs.count, 1)
        XCTAssertEqual(result.outputs[0].suffix, "")
        XCTAssertEqual(result.outputs[0].summary, "3 cues from 0:01 to 0:03.9")
        XCTAssertEqual(
            String(decoding: result.outputs[0].bytes, as: UTF8.self),
            """
            {
              "kind": "transcript",
              "height": 151,
              "text": "",
              "steps": [
                {"append": "First line", "at": 1},
                {"append": "\\nSecond line", "at": 2.5},
                {"append": "\\nThird line", "at": 0.4}
              ]
            }

            """)
        // The third cue starts before the second ends: both are kept, one after the other.
        XCTAssertEqual(result.notes.description, "1 cue overlapping the previous one (appended at its start)")
        let fixture = try decode(result.outputs[0])
        let steps = try XCTUnwrap(fixture.content as? TranscriptFixture).steps
        XCTAssertEqual(steps.map(\.at), [1, 2.5, 0.4])
    }

    /// An SRT with CRLF line endings and a byte order mark; tags it can show become markup,
    /// the rest is dropped and counted.
    func testSRTWithCRLFAndBOMAndTags() throws {
        let srt =
            "\u{FEFF}1\r\n00:00:00,500 --> 00:00:02,000\r\n<i>Hello</i> there,\r\nfriend &amp; co.\r\n\r\n"
            + "2\r\n00:00:02,100 --> 00:00:04,000 X1:100 X2:200 Y1:10 Y2:50\r\n{\\an8}<font color=\"red\">General</font> <b>Kenobi</b>!\r\n"
        let result = try Importer.convert(Array(srt.utf8), file: "a.srt", format: .srt)
        let steps = try appends(result.outputs[0])
        XCTAssertEqual(steps.map(\.text), ["*Hello* there, friend & co.", "\nGeneral **Kenobi**!"])
        XCTAssertEqual(steps.map(\.at), [0.5, 1.6])
        XCTAssertEqual(
            result.notes.description,
            "1 cue's coordinates (X1 Y1 X2 Y2) dropped, 1 positioning tag ({\\an8}) dropped, 1 font tag (colour, face) dropped"
        )
    }

    /// WebVTT's blocks that are not cues, cue settings, classes, karaoke timestamps and ruby
    /// are counted; voices name the speaker when it changes.
    func testWebVTTStylingIsDroppedAndVoicesNameTheSpeaker() throws {
        let vtt = """
            WEBVTT - a title
            Kind: captions

            STYLE
            ::cue { color: yellow }

            NOTE not a cue

            intro
            00:01.000 --> 00:02.000 position:10% align:start
            <v Roger Bingham>We are in <c.yellow>New York</c> City

            00:02.000 --> 00:03.000
            <v Roger Bingham>Still <00:02.500>here, <ruby>東京<rt>とうきょう</rt></ruby>

            00:03.000 --> 00:04.000
            <v.loud Neil>Yeah&nbsp;<u>right</u>
            """
        let result = try Importer.convert(Array(vtt.utf8), file: "a.vtt", format: .webVTT)
        XCTAssertEqual(
            try appends(result.outputs[0]).map(\.text),
            ["**Roger Bingham:** We are in New York City", "\nStill here, 東京", "\n**Neil:** Yeah\u{A0}right"])
        XCTAssertEqual(
            result.notes.description,
            "1 WebVTT STYLE block (CSS) dropped, 1 cue's settings (position, line, align, size) dropped, 1 class span (<c.yellow>) dropped, 1 timestamp inside a cue (karaoke) dropped, 1 ruby annotation dropped, 1 underline dropped"
        )
    }

    /// Every malformed cue is reported with its line; the file makes no fixture.
    func testMalformedTimestampsNameTheirLines() {
        let srt = """
            1
            00:00:01,000 --> 00:00:02,000
            fine

            2
            00:00:3,000 --> 00:00:04,000
            one digit of seconds

            3
            00:00:05,000 -> 00:00:06,000
            a short arrow

            4
            00:00:07,000 --> 00:61:08,000
            sixty-one minutes

            just text
            """
        XCTAssertEqual(
            failure(srt, format: .srt),
            [
                #"a.srt:6: malformed timestamp "00:00:3,000" (expected hh:mm:ss,mmm, as in 00:00:01,000 --> 00:00:04,000)"#,
                #"a.srt:10: malformed timing line "00:00:05,000 -> 00:00:06,000" (expected 00:00:01,000 --> 00:00:04,000)"#,
                #"a.srt:14: malformed timestamp "00:61:08,000" (expected hh:mm:ss,mmm, as in 00:00:01,000 --> 00:00:04,000)"#,
                "a.srt:17: expected a cue: its number, then a timing line such as 00:00:01,000 --> 00:00:04,000",
            ])
        XCTAssertEqual(
            failure("WEBVTT\n\n00:01,000 --> 00:02.000\nx", format: .webVTT),
            [
                #"a.vtt:3: malformed timestamp "00:01,000" (expected [hh:]mm:ss.ttt, as in 00:00:01.000 --> 00:00:04.000)"#
            ])
        XCTAssertEqual(
            failure("1\n00:00:01,000 -->\nno end", format: .srt),
            ["a.srt:2: the timing line has no end time (expected 00:00:01,000 --> 00:00:04,000)"])
        XCTAssertEqual(
            failure("00:00:01.000 --> 00:00:02.000\nno header", format: .webVTT),
            ["a.vtt:1: not a WebVTT file: its first line must be WEBVTT"])
    }

    /// Hostile bytes: empty, NUL, not UTF-8 (line and column of the first bad byte), UTF-16
    /// with its byte order mark (read), a cue-less file.
    func testBytesThatAreNotUTF8Text() throws {
        XCTAssertEqual(failure(bytes: [], format: .srt), ["a.srt: the file is empty"])
        XCTAssertEqual(
            failure(bytes: Array("1\n00:00:01,000 --> 00:00:02,000\nLatin-1 caf".utf8) + [0xE9, 0x0A], format: .srt),
            [
                "a.srt:3:12: byte 0xE9 is not UTF-8; save the file as UTF-8 (iconv -f WINDOWS-1252 -t UTF-8, for example)"
            ])
        XCTAssertEqual(
            failure(bytes: [0x31, 0x00, 0x0A, 0x00], format: .srt),
            ["a.srt:1:2: a NUL byte: this is not a text file (UTF-16 without a byte order mark?)"])
        let utf16 = "1\r\n00:00:01,000 --> 00:00:02,000\r\nUTF-16 \u{1F600}\r\n"
        let little: [UInt8] = [0xFF, 0xFE] + Array(utf16.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let result = try Importer.convert(little, file: "a.srt", format: .srt)
        XCTAssertEqual(try appends(result.outputs[0]).map(\.text), ["UTF-16 \u{1F600}"])
        XCTAssertEqual(failure("WEBVTT\n\nNOTE only a note\n", format: .webVTT), ["a.vtt: no cue with text to import"])
        // Control characters go; a cue of nothing but tags is skipped.
        let controls = try Importer.convert(
            Array("WEBVTT\n\n00:01.000 --> 00:02.000\nbell\u{7}\ttab\n\n00:02.000 --> 00:03.000\n<b></b>\n".utf8),
            file: "a.vtt", format: .webVTT)
        XCTAssertEqual(try appends(controls.outputs[0]).map(\.text), ["bell tab"])
        XCTAssertEqual(controls.notes.description, "1 control character removed, 1 cue without text skipped")
    }

    /// Cues out of order are appended in start order; overlaps and cues at the same moment
    /// (`at` 0) are kept; a gap over an hour is shortened to the step limit; a very long cue cut.
    func testOrderOverlapsGapsAndLongCues() throws {
        let long = String(repeating: "word ", count: 400)
        let vtt = """
            WEBVTT

            00:00:05.000 --> 00:00:06.000
            second

            00:00:01.000 --> 00:00:08.000
            first, overlapping the second

            00:00:05.000 --> 00:00:06.000
            with the second

            02:00:00.000 --> 02:00:01.000
            \(long)
            """
        let result = try Importer.convert(Array(vtt.utf8), file: "a.vtt", format: .webVTT)
        let steps = try appends(result.outputs[0])
        XCTAssertEqual(steps.map(\.at), [1, 4, 0, 3600])
        XCTAssertEqual(steps[1].text, "\nsecond")
        XCTAssertLessThanOrEqual(steps[3].text.count, 1 + TranscriptImport.maxCueCharacters)
        XCTAssertTrue(steps[3].text.hasSuffix(" word…"), steps[3].text.suffix(10).description)
        XCTAssertEqual(
            result.notes.description,
            "1 cue out of order (appended in start order), 2 cues overlapping the previous one (appended at their start), 1 cue over 1000 characters cut, 1 gap over an hour shortened to 3600 s"
        )
    }

    /// A long file is split into parts of 50 cues, named -1, -2, ...; the first append of a
    /// part is timed from the previous part's last cue, so no `at` passes the step limit.
    func testLongFilesAreSplitIntoParts() throws {
        var srt = ""
        for i in 0..<120 {
            let ms = 1000 + i * 2500
            srt += "\(i + 1)\n\(stamp(ms)) --> \(stamp(ms + 2000))\nCue \(i + 1)\n\n"
        }
        let result = try Importer.convert(Array(srt.utf8), file: "a.srt", format: .srt)
        XCTAssertEqual(result.outputs.map(\.suffix), ["-1", "-2", "-3"])
        XCTAssertEqual(
            result.outputs.map(\.summary),
            ["50 cues from 0:01 to 2:03.5", "50 cues from 2:06 to 4:08.5", "20 cues from 4:11 to 4:58.5"])
        let second = try appends(result.outputs[1])
        XCTAssertEqual(second.first?.text, "Cue 51")
        XCTAssertEqual(second.first?.at, 2.5)
        XCTAssertEqual(Importer.suffixes(12).prefix(2), ["-01", "-02"])
    }

    /// The same bytes always make the same fixture bytes.
    func testImportIsDeterministic() throws {
        let vtt = Array("WEBVTT\n\n00:01.000 --> 00:02.000\n<v A>One\n\n00:01.500 --> 00:03.000\nTwo\n".utf8)
        let a = try Importer.convert(vtt, file: "a.vtt", format: .webVTT)
        let b = try Importer.convert(vtt, file: "a.vtt", format: .webVTT)
        XCTAssertEqual(a, b)
    }

    func testTimestamps() {
        XCTAssertEqual(CueParser.timestamp("01:02:03.004", format: .webVTT), 3_723_004)
        XCTAssertEqual(CueParser.timestamp("02:03.004", format: .webVTT), 123_004)
        XCTAssertEqual(CueParser.timestamp("100:00:00.000", format: .webVTT), 360_000_000)
        XCTAssertEqual(CueParser.timestamp("1:02:03,004", format: .srt), 3_723_004)
        XCTAssertEqual(CueParser.timestamp("01:02:03.004", format: .srt), 3_723_004)
        for bad in [
            "02:03,004", "1:2:3.004", "01:02:60.000", "01:02:03.04", "01:02:03", "a1:02:03.004", "-1:02:03.004",
        ] {
            XCTAssertNil(CueParser.timestamp(Substring(bad), format: .webVTT), bad)
        }
        XCTAssertNil(CueParser.timestamp("02:03,004", format: .srt), "SRT times have hours")
        XCTAssertNil(CueParser.timestamp("1234567:00:00,000", format: .srt), "at most six digits of hours")
    }

    // MARK: Helpers

    func decode(_ output: Importer.Output) throws -> Fixture {
        try FixtureDecoder.decode(bytes: output.bytes, id: "imported", file: "imported.json", folder: .empty())
    }

    func appends(_ output: Importer.Output) throws -> [(text: String, at: Double?)] {
        let steps = try XCTUnwrap(decode(output).content as? TranscriptFixture).steps
        return steps.map { step in
            guard case .append(let text) = step.event else { return ("", step.at) }
            return (text, step.at)
        }
    }

    func failure(_ text: String, format: ImportFormat) -> [String] {
        failure(bytes: Array(text.utf8), format: format)
    }

    func failure(bytes: [UInt8], format: ImportFormat) -> [String] {
        let name = format == .webVTT ? "a.vtt" : "a.srt"
        do {
            let result = try Importer.convert(bytes, file: name, format: format)
            return ["imported: \(result.outputs.count) fixtures"]
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    func stamp(_ ms: Int) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let f = ms % 1000
        return
            "\(two(ms / 3_600_000)):\(two(ms / 60000 % 60)):\(two(ms / 1000 % 60)),\(f < 10 ? "00" : f < 100 ? "0" : "")\(f)"
    }
}
