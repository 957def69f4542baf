import ArgumentParser
import Foundation
import LayoutSnapBenchmarks

/// For the benchmark's child processes: runs a program and records its own peak memory (see `PeakOf`). Not shown in help.
struct PeakOfCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peak-of",
        abstract: "Run a program and write its peak resident memory (KB) and wall time (s) to a file.",
        shouldDisplay: false)

    @Argument(help: "Where the peak goes.") var peakFile: String
    @Argument(help: "The program.") var program: String
    @Argument(parsing: .captureForPassthrough, help: "Its arguments.") var arguments: [String] = []

    func run() throws {
        try Diagnostics.run { try PeakOf.run(peakFile: peakFile, program: program, arguments: arguments) }
    }
}
