import Foundation
import LayoutSnapCore
import LayoutSnapJSON

/// The per-fixture time limit (`--timeout`): a fixture that runs longer is stopped with an error
/// and the batch goes on. Checked cooperatively: before every text measurement (the rules
/// measure at every step, so a fixture with thousands of edits is stopped mid-layout) and before
/// every frame is rendered. A single call into a library (one Pango layout of a 1 MB text, one
/// regular-expression match) is not interrupted; the limits of docs/fixtures/README.md "Limits" bound those.
public struct Watchdog: Sendable {
    public let seconds: Double
    let start: DispatchTime

    public static let defaultSeconds = 120.0

    public init(seconds: Double) {
        self.seconds = seconds
        start = .now()
    }

    public var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }

    /// Throws once the limit has passed; `doing` says what was under way ("laying out text").
    public func check(_ doing: @autoclosure () -> String) throws(WatchdogExpired) {
        if elapsed > seconds { throw WatchdogExpired(seconds: seconds, doing: doing()) }
    }
}

public struct WatchdogExpired: Error, Sendable, CustomStringConvertible {
    public var seconds: Double
    public var doing: String
    public var description: String {
        "stopped after \(JSONWriter.formatNumber(seconds)) s (the --timeout limit) while \(doing)"
    }
}

/// Measures through `base`, checking the watchdog first.
struct WatchedMeasurer<Base: TextMeasuring>: TextMeasuring {
    let base: Base
    let watchdog: Watchdog

    func measure(_ text: StyledText) throws -> MeasuredText {
        try watchdog.check("laying out text")
        return try base.measure(text)
    }

    func caret(in text: StyledText, at offset: Int) throws -> CaretPosition {
        try watchdog.check("laying out text")
        return try base.caret(in: text, at: offset)
    }

    func spans(in text: StyledText, from start: Int, to end: Int) throws -> [LineSpan] {
        try watchdog.check("laying out text")
        return try base.spans(in: text, from: start, to: end)
    }
}
