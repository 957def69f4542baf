import Foundation
import LayoutSnapCore
import LayoutSnapReport
import LayoutSnapSystem
import LayoutSnapJSON

/// What one `layoutsnap review` knows and has decided: the verify run's results (replaced when
/// `--watch` verifies again), their generation, and the frames approved (written) and rejected
/// (remembered only). Decisions and re-verifies take turns (`writing`); readers see the state
/// between them.
public final class ReviewSession: Sendable {
    public struct State: Sendable {
        public var results: RunResults
        /// 0 for the results the server started with; one more after each re-verify.
        public var generation = 0
        public var approved: Set<String> = []
        public var rejected: Set<String> = []
    }

    /// What a `POST /api/decisions` asks.
    public struct Decision: Sendable, Equatable {
        public enum Kind: String, Sendable { case approve, reject }
        public var kind: Kind
        public var frames: [String]

        /// Reads the body; a body that is not this shape is a 400, with the JSON path.
        public static func decode(_ body: [UInt8]) throws(HTTPFailure) -> Decision {
            do {
                let o = try JSONElement(try JSONParser.parse(body)).object()
                let decision = try o.required("decision")
                guard let kind = Kind(rawValue: try decision.string()) else {
                    throw decision.error("expected \"approve\" or \"reject\"")
                }
                var frames: [String] = []
                for item in try o.required("frames").array() { frames.append(try item.string()) }
                try o.finish()
                return Decision(kind: kind, frames: frames)
            } catch let error as JSONSyntaxError {
                throw HTTPFailure(.badRequest, "not JSON: \(error)")
            } catch let error as JSONDecodingError {
                throw HTTPFailure(.badRequest, error.description)
            } catch {
                throw HTTPFailure(.badRequest, "\(error)")
            }
        }
    }

    public let acceptance: GoldenAcceptance
    private let state: LockedValue<State>
    private let writing = Lock()

    public init(acceptance: GoldenAcceptance, results: RunResults) {
        self.acceptance = acceptance
        state = LockedValue(State(results: results))
    }

    public var snapshot: State { state.withLock { $0 } }

    /// Applies a decision; returns the frames refused, each with its reason.
    public func decide(_ decision: Decision) -> [GoldenAcceptance.Refusal] {
        writing.withLock {
            let now = snapshot
            let approvable = GoldenAcceptance.approvable(in: now.results)
            var refused: [GoldenAcceptance.Refusal] = []
            switch decision.kind {
            case .reject:
                var rejected = Set<String>()
                for key in decision.frames {
                    if now.approved.contains(key) {
                        refused.append(
                            .init(
                                golden: key,
                                reason: "already approved: its golden is written (record or revert it to undo)"))
                    } else if approvable[key] == nil {
                        refused.append(
                            .init(golden: key, reason: "not a frame that \(acceptance.resultsPath) lists as not passed")
                        )
                    } else {
                        rejected.insert(key)
                    }
                }
                state.withLock { $0.rejected.formUnion(rejected) }
            case .approve:
                // Approving twice is not an error, and must not write again: the golden now has the
                // approved pixels, no longer the hash verify read.
                var asked: [String] = []
                for key in decision.frames where !now.approved.contains(key) && !asked.contains(key) {
                    asked.append(key)
                }
                guard !asked.isEmpty else { return [] }
                if acceptance.refusedUnderCI {
                    return asked.map { .init(golden: $0, reason: RunnerError.refusedUnderCI.description) }
                }
                do throws(RunnerError) {
                    let outcome = try acceptance.run(
                        .frames(asked.map { GoldenAcceptance.Approval(golden: $0) }, approvedBefore: now.approved),
                        results: now.results)
                    refused = outcome.problems
                    // A state accepted whole approves its frames that were not asked for too.
                    let written = Set(outcome.accepted + outcome.removed)
                    state.withLock { s in
                        s.approved.formUnion(written)
                        s.rejected.subtract(written)
                    }
                } catch {
                    // Nothing was written (the lock is held by another process, the folder is gone).
                    refused = asked.map { .init(golden: $0, reason: error.description) }
                }
            }
            return refused
        }
    }

    /// Replaces the results with what `verify` makes of them (`--watch`, after the fixture files
    /// `files` changed): the decisions about those fixtures are dropped (their frames and hashes
    /// may have changed). Returns the new generation.
    public func replaceResults(files: Set<String>, _ verify: (RunResults) throws(RunnerError) -> RunResults)
        throws(RunnerError) -> Int
    {
        try writing.withLock { () throws(RunnerError) -> Int in
            let before = snapshot.results
            let updated = try verify(before)
            let touched = (Array(before.fixtures) + Array(updated.fixtures)).filter { files.contains($0.file) }.map {
                $0.id + "/"
            }
            func kept(_ key: String) -> Bool { !touched.contains { key.hasPrefix($0) } }
            return state.withLock { s in
                s.approved = s.approved.filter(kept)
                s.rejected = s.rejected.filter(kept)
                s.results = updated
                s.generation += 1
                return s.generation
            }
        }
    }
}
