import ArgumentParser
import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapRunner
import LayoutSnapSystem

/// The one place where errors become messages on stderr and exit codes (docs/outcomes.md: 2 for bad input).
enum Diagnostics {
    static func run(_ body: () throws -> Outcome) throws {
        let outcome: Outcome
        do {
            outcome = try body()
        } catch let error as RunnerError {
            // A file with several errors: one line each, so editors can jump to every one.
            switch error {
            case .fixture(let d), .input(let d): for one in d.all { printError(one.description) }
            case .goldens(let d): for one in d.all { printError(RunnerError.goldens(one).description) }
            default: printError(error.description)
            }
            outcome = .error
        } catch let error as ExitCode {
            throw error
        } catch {
            printError("\(error)")
            outcome = .error
        }
        if outcome != .passed { throw ExitCode(outcome.exitCode) }
    }

    /// Prints lines drawn from a run (`TerminalText`): results on stdout, diagnostics on stderr.
    static func print(_ lines: [TerminalText.Line]) {
        for line in lines { print(line) }
    }

    static func print(_ line: TerminalText.Line) {
        switch line {
        case .out(let text): out(text)
        case .error(let text): printError(text)
        case .warning(let text): printWarning(text)
        case .info(let text): err(text)
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    }

    static func printWarning(_ message: String) {
        FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
    }

    /// A line of information on stderr (stdout stays the results).
    static func err(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// A progress bar on stderr, only when stderr is a terminal.
final class ProgressBar: Sendable {
    private let enabled: Bool
    /// Held while a line is written, so two workers' updates never interleave.
    private let writing = Lock()
    private let label: String

    init(label: String, enabled: Bool) {
        self.label = label
        self.enabled = enabled && isatty(STDERR_FILENO) != 0
    }

    func update(_ done: Int, _ total: Int) {
        guard enabled else { return }
        writing.withLock { draw(done, total) }
    }

    private func draw(_ done: Int, _ total: Int) {
        let width = 30
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(done)/\(Plural.count(total, "fixture"))".utf8))
        if done == total { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
