import Foundation

/// JUnit XML for CI test-report parsers (Jenkins, GitLab, GitHub actions such
/// as dorny/test-reporter or mikepenz/action-junit-report).
///
/// - one `<testsuite>` per fixture, named by the fixture id;
/// - one `<testcase>` per frame: `classname` = fixture id,
///   `name` = "<state> frame <index>", `time` = 0 (frames are not timed one by
///   one; the frame's animation time is in the failure text), the run's
///   duration on `<testsuites>`;
/// - `<failure>` for failed and missing frames, `<error>` for unreadable
///   frames and for fixtures that could not be used (one testcase named
///   "fixture"); similar frames pass and carry their message in `<system-out>`;
/// - run-level findings that fail the run (orphans, environment drift under --strict-env, a
///   missing shard, an empty selection) are testcases of a suite named "layoutsnap", each a
///   `<failure>` (or `<error>` for bad input), so a run can never be green in JUnit while its
///   exit code is not 0;
/// - `<skipped>` is never written.
public enum JUnitWriter {
    public static func xml(_ results: RunResults) -> String {
        var out = ""
        write(results) { out += $0 }
        return out
    }

    /// The document in pieces, one test suite at a time, so a run of any size is never held as
    /// one string. The totals come from the run's summary, the same counts every output uses.
    public static func write(_ results: RunResults, _ emit: (String) throws -> Void) rethrows {
        let s = results.summary
        let fixtureErrors = results.fixtures.notPassed.reduce(0) { $0 + ($1.error == nil ? 0 : 1) }
        let failing = results.findings.filter { $0.severity != .warning }
        let tests = s.frames + fixtureErrors + failing.count
        let failures = s.failed + s.missing + failing.filter { $0.severity == .failure }.count
        let errors = s.errors + failing.filter { $0.severity == .error }.count
        let duration = results.durationSeconds.isFinite && results.durationSeconds > 0 ? results.durationSeconds : 0
        var head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        head += "<testsuites name=\"\(attr("\(results.tool) \(results.command)"))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\" time=\"\(seconds(duration))\""
        guard !results.fixtures.isEmpty || !failing.isEmpty else { return try emit(head + "/>\n") }
        try emit(head + ">\n")
        for fixture in results.fixtures { try emit(suite(fixture) + "\n") }
        if !failing.isEmpty { try emit(findingsSuite(failing) + "\n") }
        try emit("</testsuites>\n")
    }

    /// One fixture's suite: a testcase per frame, and one for a fixture that could not be used.
    static func suite(_ fixture: FixtureEntry) -> String {
        var cases: [String] = []
        var failures = 0, errors = 0
        var suiteTime = 0.0

        if let error = fixture.error {
            errors += 1
            cases.append(
                "    <testcase classname=\"\(attr(fixture.id))\" name=\"fixture\" time=\"0\" file=\"\(attr(fixture.file))\">\n"
                + "      <error message=\"\(attr(error))\" type=\"fixture\">\(text(error + "\nfixture file: " + fixture.file))</error>\n"
                + "    </testcase>")
        }
        for state in fixture.states {
            for frame in state.frames {
                // JUnit's `time` is how long a test took; frames are not timed one by one, so
                // it is 0 (the frame's animation time is in the test's output instead).
                let time = 0.0
                suiteTime += time
                var testcase = "    <testcase classname=\"\(attr(fixture.id))\" name=\"\(attr("\(state.name) frame \(frame.index)" + (frame.pairing == .removed ? " (removed)" : "")))\" time=\"\(seconds(time))\" file=\"\(attr(fixture.file))\""
                let details = text(describe(frame, state: state.name))
                switch frame.status.outcome {
                case .passed where frame.status == .similar:
                    testcase += ">\n      <system-out>\(details)</system-out>\n    </testcase>"
                case .passed:
                    testcase += "/>"
                case .failed:
                    failures += 1
                    testcase += ">\n      <failure message=\"\(attr(summaryMessage(frame)))\" type=\"\(frame.status.rawValue)\">\(details)</failure>\n    </testcase>"
                case .error:
                    errors += 1
                    testcase += ">\n      <error message=\"\(attr(summaryMessage(frame)))\" type=\"\(frame.status.rawValue)\">\(details)</error>\n    </testcase>"
                }
                cases.append(testcase)
            }
        }
        var suite = "  <testsuite name=\"\(attr(fixture.id))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\" time=\"\(seconds(suiteTime))\" file=\"\(attr(fixture.file))\""
        if cases.isEmpty {
            suite += "/>"
        } else {
            suite += ">\n" + cases.joined(separator: "\n") + "\n  </testsuite>"
        }
        return suite
    }

    /// Run-level findings that fail the run, as the testcases of a suite named "layoutsnap".
    static func findingsSuite(_ failing: [Finding]) -> String {
        var cases: [String] = []
        var failures = 0, errors = 0
        for finding in failing {
            let element = finding.severity == .error ? "error" : "failure"
            if finding.severity == .error { errors += 1 } else { failures += 1 }
            let name = finding.subject.map { "\(finding.kind.rawValue) \($0)" } ?? finding.kind.rawValue
            cases.append("    <testcase classname=\"layoutsnap\" name=\"\(attr(name))\" time=\"0\">\n"
                         + "      <\(element) message=\"\(attr(finding.message))\" type=\"\(finding.kind.rawValue)\">\(text(finding.message))</\(element)>\n"
                         + "    </testcase>")
        }
        return "  <testsuite name=\"layoutsnap\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\" time=\"0.000\">\n"
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

    static func describe(_ frame: FrameEntry, state: String) -> String {
        var lines = ["\(frame.status.rawValue): \(summaryMessage(frame))"]
        lines.append("state: \(state), frame \(frame.index), time \(seconds(frame.time)) s, progress \(String(format: "%.3f", frame.progress.isFinite ? frame.progress : 0))")
        lines.append("golden: \(frame.golden)")
        if let m = frame.metrics {
            lines.append("different pixels: \(m.differentPixels) of \(m.width)x\(m.height) (\(String(format: "%.4f", m.ratio.isFinite ? m.ratio * 100 : 0))%), max channel difference: \(m.maxChannelDifference)")
            if !m.regions.isEmpty {
                lines.append("regions [x,y,w,h]: " + m.regions.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }.joined(separator: " "))
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
        default: true   // Swift scalars are never surrogates
        }
    }
}
