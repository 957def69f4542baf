import Foundation
import LayoutSnapCore
import LayoutSnapDiff

/// JUnit XML for CI test-report parsers (Jenkins, GitLab, GitHub actions such
/// as dorny/test-reporter or mikepenz/action-junit-report), valid against the JUnit XSD that
/// Jenkins's xUnit plugin uses (Tests/Schemas/junit-10.xsd).
///
/// - one `<testsuite>` per fixture, named by the fixture id, with its file and its real time
///   (layout, every frame, the comparison);
/// - one `<testcase>` per state: `classname` = fixture id, `name` = the state, `time` = the
///   state's frames' real time;
/// - `<failure>` for a state with failed or missing frames, `<error>` for unreadable or
///   unwritable ones and for a fixture that could not be used (one testcase named "fixture"):
///   the message says how many frames and which differed most, the text lists every frame that
///   did not pass; a state whose frames are only similar passes and says so in `<system-out>`;
/// - the images of frames that did not pass as `[[ATTACHMENT|path]]` lines in `<system-out>`
///   (the Jenkins JUnit Attachments and GitLab convention), paths relative to the JUnit file's
///   folder (`attachments`: the report folder as seen from there);
/// - run-level findings that fail the run (orphans, environment drift under --strict-env, a
///   missing shard, an empty selection) are testcases of a suite named "layoutsnap", each a
///   `<failure>` (or `<error>` for bad input), so a run can never be green in JUnit while its
///   exit code is not 0;
/// - `<skipped>` is never written.
public enum JUnitWriter {
    public static func xml(_ results: RunResults, attachments: String? = nil) -> String {
        var out = ""
        write(results, attachments: attachments) { out += $0 }
        return out
    }

    /// The document in pieces, one test suite at a time, so a run of any size is never held as
    /// one string. The totals come from the run's summary: the same states' verdicts the suites
    /// show, counted once as the run went (a spooled run is read back once, for the suites).
    public static func write(_ results: RunResults, attachments: String? = nil, _ emit: (String) throws -> Void)
        rethrows
    {
        let s = results.summary
        let failing = results.findings.filter { $0.severity != .warning }
        let tests = s.states + s.unusableFixtures + failing.count
        let failures = s.failingStates + failing.filter { $0.severity == .failure }.count
        let errors = s.erroredStates + s.unusableFixtures + failing.filter { $0.severity == .error }.count
        let duration = results.durationSeconds.isFinite && results.durationSeconds > 0 ? results.durationSeconds : 0
        var head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        head +=
            "<testsuites name=\"\(attr("\(results.tool) \(results.command.rawValue)"))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(seconds(duration))\""
        guard !results.fixtures.isEmpty || !failing.isEmpty else { return try emit(head + "/>\n") }
        try emit(head + ">\n")
        for fixture in results.fixtures {
            try emit(suite(results.withCauses(fixture), causes: results.causes, attachments: attachments) + "\n")
        }
        if !failing.isEmpty { try emit(findingsSuite(failing) + "\n") }
        try emit("</testsuites>\n")
    }

    static func suiteCounts(_ fixture: FixtureEntry) -> (tests: Int, failures: Int, errors: Int) {
        var counts = (tests: fixture.states.count, failures: 0, errors: 0)
        if fixture.error != nil {
            counts.tests += 1
            counts.errors += 1
        }
        for state in fixture.states {
            switch state.outcome {
            case .passed: break
            case .failed: counts.failures += 1
            case .error: counts.errors += 1
            }
        }
        return counts
    }

    /// One fixture's suite: a testcase per state, and one for a fixture that could not be used.
    /// A failing state's message leads with the causes of its frames (`cause 1: message:* width +4.00`).
    static func suite(_ fixture: FixtureEntry, causes: [Cause] = [], attachments: String?) -> String {
        var cases: [String] = []
        if let error = fixture.error {
            cases.append(
                "    <testcase classname=\"\(attr(fixture.id))\" name=\"fixture\" time=\"0.000\">\n"
                    + "      <error message=\"\(attr(error))\" type=\"fixture\">\(text(error + "\nfixture file: " + fixture.file))</error>\n"
                    + "    </testcase>")
        }
        for state in fixture.states {
            var testcase =
                "    <testcase classname=\"\(attr(fixture.id))\" name=\"\(attr(state.name))\" time=\"\(seconds(state.durationSeconds ?? 0))\""
            let notPassed = state.frames.filter { $0.status != .passed }
            let lints = lintLines(state)
            guard !notPassed.isEmpty || !lints.isEmpty else {
                cases.append(testcase + "/>")
                continue
            }
            var details = notPassed.map { describe($0, state: state.name, causes: causes) } + lints
            if let motion = state.motion { details.insert("motion: " + motion.description, at: 0) }
            let files = attachmentLines(notPassed, base: attachments)
            let out = files.isEmpty ? "" : "\n      <system-out>\(text(files.joined(separator: "\n")))</system-out>"
            switch state.outcome {
            case .passed:
                testcase +=
                    ">\n      <system-out>\(text((details + files).joined(separator: "\n\n")))</system-out>\n    </testcase>"
            case .failed, .error:
                let element = state.outcome == .error ? "error" : "failure"
                // A state failing by its lints alone (--lint error) is of type "lint".
                let worst = notPassed.max { severity($0.status) < severity($1.status) }.map(\.status).flatMap {
                    severity($0) >= 2 ? $0 : nil
                }
                testcase +=
                    ">\n      <\(element) message=\"\(attr(summary(state, causes: causes)))\" type=\"\(worst?.rawValue ?? "lint")\">\(text(details.joined(separator: "\n\n")))</\(element)>"
                    + out + "\n    </testcase>"
            }
            cases.append(testcase)
        }
        let counts = suiteCounts(fixture)
        var suite =
            "  <testsuite name=\"\(attr(fixture.id))\" tests=\"\(counts.tests)\" failures=\"\(counts.failures)\" errors=\"\(counts.errors)\" skipped=\"0\" time=\"\(seconds(fixture.durationSeconds ?? 0))\" file=\"\(attr(fixture.file))\""
        if cases.isEmpty {
            suite += "/>"
        } else {
            suite += ">\n" + cases.joined(separator: "\n") + "\n  </testsuite>"
        }
        return suite
    }

    static func severity(_ status: FrameStatus) -> Int {
        switch status {
        case .unreadable, .error: 3
        case .failed, .missing: 2
        case .similar: 1
        default: 0
        }
    }

    /// "3 of 19 frames differ (most: frame 7, 2210 pixels differ (0.41%)); 2 missing".
    static func summary(_ state: StateEntry, causes: [Cause] = []) -> String {
        var parts: [String] = []
        var ids: [Int] = []
        for frame in state.frames { if let id = frame.cause, !ids.contains(id), id <= causes.count { ids.append(id) } }
        for id in ids.sorted() { parts.append("cause \(id): \(causes[id - 1].summary)") }
        let failed = state.frames.filter { $0.status == .failed }
        if !failed.isEmpty {
            let worst = failed.max {
                ($0.metrics?.differentPixels ?? Int.max) < ($1.metrics?.differentPixels ?? Int.max)
            }!
            parts.append(
                "\(failed.count) of \(Plural.count(state.frames.count, "frame")) \(Plural.word(failed.count, "differs", "differ")) (most: frame \(worst.index), \(summaryMessage(worst)))"
            )
        }
        for status in [FrameStatus.missing, .unreadable, .error, .similar] {
            let frames = state.frames.filter { $0.status == status }
            guard let first = frames.first else { continue }
            let word = status == .error ? "not written" : status.rawValue
            parts.append(
                "\(frames.count) \(word) (\(frames.count == 1 ? "frame \(first.index)" : "first: frame \(first.index)"), \(summaryMessage(first)))"
            )
        }
        if let motion = state.motion { parts.append("motion: " + motion.description) }
        let ranges = state.lintRanges
        if let first = ranges.first {
            parts.append(
                "\(Plural.count(ranges.count, "lint finding")) (\(first.worst.rule.rawValue) \(first.frames): \(first.worst.detail))"
            )
        }
        return parts.joined(separator: "; ")
    }

    /// `lint text-overlap frames 2-8: body overlaps summary by 14.2 pt`, one per range.
    static func lintLines(_ state: StateEntry) -> [String] {
        state.lintRanges.map { "lint \($0.worst.rule.rawValue) \($0.frames): \($0.worst.detail)" }
    }

    /// `[[ATTACHMENT|path]]` for each image of the frames (actual, expected, diff), relative to
    /// the JUnit file's folder; none when the JUnit file has no report folder beside it.
    static func attachmentLines(_ frames: [FrameEntry], base: String?) -> [String] {
        guard let base else { return [] }
        var seen = Set<String>()
        var lines: [String] = []
        for frame in frames {
            for path in [frame.actual, frame.diff, frame.expected].compactMap({ $0 }) where seen.insert(path).inserted {
                lines.append("[[ATTACHMENT|" + (base.isEmpty || base == "." ? path : base + "/" + path) + "]]")
            }
        }
        return lines
    }

    /// Run-level findings that fail the run, as the testcases of a suite named "layoutsnap".
    static func findingsSuite(_ failing: [Finding]) -> String {
        var cases: [String] = []
        var failures = 0
        var errors = 0
        for finding in failing {
            let element = finding.severity == .error ? "error" : "failure"
            if finding.severity == .error { errors += 1 } else { failures += 1 }
            let name = finding.subject.map { "\(finding.kind.rawValue) \($0)" } ?? finding.kind.rawValue
            cases.append(
                "    <testcase classname=\"layoutsnap\" name=\"\(attr(name))\" time=\"0\">\n"
                    + "      <\(element) message=\"\(attr(finding.message))\" type=\"\(finding.kind.rawValue)\">\(text(finding.message))</\(element)>\n"
                    + "    </testcase>")
        }
        return
            "  <testsuite name=\"layoutsnap\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\" time=\"0.000\">\n"
            + cases.joined(separator: "\n") + "\n  </testsuite>"
    }

    // MARK: - Content

    static func summaryMessage(_ frame: FrameEntry) -> String {
        if let message = frame.message, !message.isEmpty { return message }
        switch frame.status {
        case .passed: return "passed"
        case .similar: return "similar"
        case .failed: return "frame differs from golden"
        case .missing: return "missing golden: \(frame.golden)"
        case .unreadable: return "unreadable image"
        case .error: return "the frame could not be written"
        case .recorded: return "recorded"
        case .unchanged: return "unchanged"
        case .rendered: return "rendered"
        }
    }

    static func describe(_ frame: FrameEntry, state: String, causes: [Cause] = []) -> String {
        var lines = ["\(frame.status.rawValue): \(summaryMessage(frame))"]
        if let id = frame.cause, id <= causes.count { lines.insert("cause \(id): \(causes[id - 1].summary)", at: 0) }
        if let attribution = frame.attribution, !attribution.elements.isEmpty {
            lines.append(
                "attribution (\(attribution.kind.rawValue)): "
                    + attribution.elements.map(\.description).joined(separator: ", "))
        }
        lines.append(
            "state: \(state), frame \(frame.index), time \(seconds(frame.time)) s, progress \(String(format: "%.3f", frame.progress.isFinite ? frame.progress : 0))"
        )
        lines.append("golden: \(frame.golden)")
        if let m = frame.metrics {
            lines.append(
                "different pixels: \(m.differentPixels) of \(m.width)x\(m.height) (\(String(format: "%.4f", m.ratio.isFinite ? m.ratio * 100 : 0))%), max channel difference: \(m.maxChannelDifference)"
            )
            if !m.regions.isEmpty {
                lines.append(
                    "regions [x,y,w,h]: "
                        + m.regions.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }.joined(
                            separator: " "))
            }
        }
        if !frame.layoutChanges.isEmpty {
            lines.append("layout changes: " + frame.layoutChanges.joined(separator: ", "))
        }
        if let expected = frame.expected { lines.append("expected: \(expected)") }
        if let actual = frame.actual { lines.append("actual: \(actual)") }
        if let diff = frame.diff { lines.append("diff: \(diff)") }
        return lines.joined(separator: "\n")
    }

    static func seconds(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        return String(format: "%.3f", value)
    }

    // MARK: - Escaping

    /// Escapes for an attribute value in double quotes. Newlines and tabs are
    /// written as character references so parsers keep them (attribute-value
    /// normalisation would turn literal ones into spaces).
    static func attr(_ value: String) -> String { escape(value, attribute: true) }

    /// Escapes for element content.
    static func text(_ value: String) -> String { escape(value, attribute: false) }

    private static func escape(_ value: String, attribute: Bool) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars where isAllowed(scalar) {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\r": out += "&#13;"
            case "\"" where attribute: out += "&quot;"
            case "'" where attribute: out += "&apos;"
            case "\n" where attribute: out += "&#10;"
            case "\t" where attribute: out += "&#9;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// XML 1.0 Char production, minus DEL and the C1 controls (legal but
    /// rejected or mangled by some CI parsers).
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0x00...0x1F: false
        case 0x7F...0x9F: false
        case 0xFFFE, 0xFFFF: false
        default: true  // Swift scalars are never surrogates
        }
    }
}
