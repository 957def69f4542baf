import Foundation
import LayoutSnapCore
import LayoutSnapSystem

/// The HTML report: one self-contained `index.html` (all CSS and JS inline,
/// no network access, works from file://) with the results embedded as JSON
/// in `<script type="application/json" id="layoutsnap-results">` and rendered
/// by vanilla JS. Images are not written here: the caller puts them in the
/// report folder, at the relative paths named by `FrameEntry.expected`,
/// `.actual` and `.diff`.
public enum HTMLReport {
    /// Writes `folder/index.html` (and nothing else), creating `folder` and its parents if
    /// needed. The page is written in pieces, the embedded results fixture by fixture, so a run
    /// of any size is never held as one string; it replaces an existing index.html atomically.
    /// A page resource that cannot be read is thrown before anything is written.
    /// `json` writes the embedded results (compact, sorted keys) to the emit it is given: by
    /// default `ResultsJSON.write`; a caller that also writes results.json passes
    /// `ResultsJSON.writeBoth` so the run is encoded once.
    public static func write(
        _ results: RunResults, to folder: URL,
        json: ((Data) throws -> Void) throws -> Void = { _ in }
    ) throws {
        let assets = try PageAssets.loaded.get()
        let target = folder.appendingPathComponent("index.html").path
        do throws(AtomicWriter.Failure) {
            // Atomic, not fsynced: a report is made again by the next run.
            try AtomicWriter.write(to: target, durable: false) { emit in
                var buffer = Data()
                try page(results, assets, json: json) { piece in
                    buffer.append(piece)
                    if buffer.count >= 1 << 20 {
                        try buffer.withUnsafeBytes { try emit($0) }
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
                try buffer.withUnsafeBytes { try emit($0) }
            }
        } catch {
            throw CocoaError(
                .fileWriteUnknown, userInfo: [NSFilePathErrorKey: target, NSLocalizedDescriptionKey: error.description])
        }
    }

    /// Whether the page's stylesheet and script can be read (else `write` throws).
    public static var canWrite: Bool { (try? PageAssets.loaded.get()) != nil }

    /// The complete page, as one string (tests and small runs). Throws when the page's
    /// stylesheet or script cannot be read.
    public static func html(_ results: RunResults) throws -> String {
        var data = Data()
        try page(results, try PageAssets.loaded.get()) { data.append($0) }
        return String(decoding: data, as: UTF8.self)
    }

    /// The page in pieces, in order.
    static func page(
        _ results: RunResults, _ assets: PageAssets, json: ((Data) throws -> Void) throws -> Void = { _ in },
        _ emit: (Data) throws -> Void
    ) throws {
        let s = results.summary
        // The badge is the run's outcome, the same value the exit code comes from: a run that
        // could not use a fixture or golden is an error (exit 2), not a failure.
        let verdict =
            switch s.outcome {
            case .passed: "passed"
            case .failed: "FAILED"
            case .error: "ERROR"
            }
        var titleParts: [String] = []
        if s.failed > 0 { titleParts.append("\(s.failed) failed") }
        if s.missing > 0 { titleParts.append("\(s.missing) missing") }
        if s.errors > 0 { titleParts.append(Plural.count(s.errors, "error")) }
        if s.orphans > 0 { titleParts.append(Plural.count(s.orphans, "orphan")) }
        if s.failingLints > 0 { titleParts.append(Plural.count(s.failingLints, "lint finding")) }
        // Each other failing finding in the terminal summary's words (`no fixtures matched`).
        titleParts += TerminalText.findingPhrases(results)
        if titleParts.isEmpty { titleParts.append(Plural.count(s.frames, "frame")) }
        let title = "\(results.tool) \(results.command.rawValue) \(verdict): " + titleParts.joined(separator: ", ")

        var out = ""
        out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<meta name=\"generator\" content=\"\(escape("\(results.tool) \(results.version)"))\">\n"
        out += "<title>\(escape(title))</title>\n"
        out += "<style>\n\(assets.reportCSS)\(assets.motionPlotCSS)\n</style>\n</head>\n<body>\n"
        out += "<noscript><div class=\"noscript\"><h1>\(escape(title))</h1><p>"
        out +=
            "passed \(s.passed) · similar \(s.similar) · failed \(s.failed) · missing \(s.missing) · errors \(s.errors) · orphans \(s.orphans) · frames \(s.frames)"
        out +=
            "</p><p>This report needs JavaScript to show fixtures and images. The full results are embedded in this file as JSON.</p></div></noscript>\n"
        out += "<div id=\"app\"></div>\n"
        out += "<script type=\"application/json\" id=\"layoutsnap-results\">"
        try emit(Data(out.utf8))
        var embedded = false
        try withoutActuallyEscaping(emit) { emit in
            try json { piece in
                embedded = true
                try emit(scriptSafe(piece))
            }
        }
        if !embedded { try ResultsJSON.write(results, pretty: false) { try emit(scriptSafe($0)) } }
        try emit(
            Data(
                "</script>\n<script>\n\(assets.wordsJS)\(assets.motionPlotJS)\(assets.reportJS)</script>\n</body>\n</html>\n"
                    .utf8))
    }

    /// Compact, sorted-keys JSON that is safe inside a `<script>` element:
    /// every `<` (which in valid JSON can only occur inside a string) is
    /// written as the JSON escape `\u003c`, so neither `</script>` nor
    /// `<!--` can appear in the element's text. JSON.parse (and
    /// `ResultsJSON.decode`) read it back unchanged.
    static func embeddedJSON(_ results: RunResults) -> String {
        var data = Data()
        ResultsJSON.write(results, pretty: false) { data.append(scriptSafe($0)) }
        return String(decoding: data, as: UTF8.self)
    }

    /// JSON made safe inside `<script type="application/json">`: `<` only occurs inside JSON
    /// strings, and its escape keeps `</script>` (and `<!--`) out of the element.
    static func scriptSafe(_ json: String) -> String {
        json.replacingOccurrences(of: "<", with: "\\u003c")
    }

    /// The same for a piece of JSON bytes (a `<` is one byte in UTF-8, never part of another
    /// character's encoding, so pieces can be escaped one by one).
    static func scriptSafe(_ json: Data) -> Data {
        // Over the bytes in place: `Data`'s iterator cost a warm run's report a millisecond.
        json.withUnsafeBytes { bytes -> Data in
            guard bytes.contains(0x3C) else { return json }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 16)
            for byte in bytes {
                if byte == 0x3C { out += Array("\\u003c".utf8) } else { out.append(byte) }
            }
            return Data(out)
        }
    }

    /// Escapes text for HTML element content and double-quoted attributes.
    static func escape(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
