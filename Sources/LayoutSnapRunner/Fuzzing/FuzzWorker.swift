import Foundation
import LayoutSnapCore
import LayoutSnapImaging
import LayoutSnapRender
import LayoutSnapReport
import LayoutSnapJSON

/// What one hostile fixture did to the whole pipeline.
public struct FuzzOutcome: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Every frame rendered (and the first one survived a PNG round trip).
        case rendered
        /// Refused with an error naming the file and the JSON path (or, for broken JSON, line and column).
        case rejected
        /// Stopped by the per-fixture watchdog, with an error naming the file.
        case stopped
        /// An error that does not say where: a finding, like a crash.
        case unclear
    }

    public var kind: Kind
    public var frames: Int
    public var message: String

    public init(kind: Kind, frames: Int = 0, message: String = "") {
        self.kind = kind
        self.frames = frames
        self.message = message
    }
}

/// Runs fuzz cases in this process, through the same code as `render`: decode, lay out (behind
/// the watchdog), render every frame, encode and decode a frame as PNG, write the layout JSON.
/// Crashes and hangs are the parent's business (`FuzzCampaign`): a worker only has to survive
/// or die.
public final class FuzzWorker {
    public let mutator: FixtureMutator
    /// Each base's folder, so a post's image paths still resolve after mutation.
    let directories: [String]
    let engine: TextEngine
    let timeout: Double

    public init(bases: FuzzBases, seed: UInt64, timeout: Double) throws(RunnerError) {
        mutator = FixtureMutator(bases: bases.trees, seed: seed)
        directories = bases.directories
        do {
            engine = try TextEngine(fonts: FontSystem.shared())
        } catch {
            throw RunnerError.render(error)
        }
        self.timeout = timeout
    }

    /// The name a case's file has in messages and among the findings.
    public static func fileName(seed: UInt64, index: Int) -> String { "case-\(seed)-\(index).json" }

    public func run(_ index: Int) -> (FixtureMutator.Case, FuzzOutcome) {
        let fuzzCase = mutator.makeCase(index)
        return (fuzzCase, run(fuzzCase))
    }

    public func run(_ fuzzCase: FixtureMutator.Case) -> FuzzOutcome {
        let file = Self.fileName(seed: mutator.seed, index: fuzzCase.index)
        let ref = FixtureRef(id: "case-\(fuzzCase.index)", path: file, displayPath: file)
        let decoded: Result<Fixture, FixtureError>
        do {
            decoded = .success(
                try FixtureDecoder.decode(
                    bytes: fuzzCase.bytes, id: ref.id, file: file, folder: .local(directories[fuzzCase.base])))
        } catch {
            return Self.classify(error.diagnostic, file: file)
        }
        let result = BatchRunner.process(
            ref, decoded: decoded, engine: engine, handler: FuzzFrameHandler(), timeout: timeout)
        if let error = result.error {
            return Self.classify(error, file: file)
        }
        if let bad = result.frames.first(where: { $0.status != .rendered }) {
            return FuzzOutcome(
                kind: .unclear, frames: result.frames.count,
                message: "\(file): \(bad.state) frame \(bad.index): \(bad.detail ?? bad.status.rawValue)")
        }
        return FuzzOutcome(kind: .rendered, frames: result.frames.count)
    }

    /// An error is clear when it names the file and says where in it (a JSON path, or line and
    /// column); the watchdog's stop names the file and what it was doing. Decided from the
    /// diagnostic's fields, never from its text.
    static func classify(_ error: Diagnostic, file: String, frames: Int = 0) -> FuzzOutcome {
        guard error.file == file else { return FuzzOutcome(kind: .unclear, frames: frames, message: error.description) }
        if error.category == .watchdog {
            return FuzzOutcome(kind: .stopped, frames: frames, message: error.description)
        }
        if error.category == .fixture && error.isLocated {
            return FuzzOutcome(kind: .rejected, frames: frames, message: error.description)
        }
        return FuzzOutcome(kind: .unclear, frames: frames, message: error.description)
    }
}

/// Checks each frame as a verify would see it, without goldens: the first frame goes through a
/// PNG encode and decode and must come back with the same pixels; the layout JSON is written.
struct FuzzFrameHandler: FrameHandler {
    func handle(_ fixture: Fixture, state: String, frame: LayoutFrame, pixels: FramePixels) -> FrameResult {
        var result = FrameResult(state: state, index: frame.index, status: .rendered, goldenKey: "")
        guard state == "initial", frame.index == 0 else { return result }
        let png = PNGEncoder.encode(
            pixels: pixels.pixels.baseAddress!, width: pixels.width, height: pixels.height, stride: pixels.width)
        do {
            let image = try PNGDecoder.decode(png)
            let hash = image.pixels.withUnsafeBufferPointer { PixelHash.of($0) }
            if image.width != pixels.width || image.height != pixels.height || hash != pixels.hash {
                result.status = .error
                result.detail = "the PNG round trip changed the frame"
            }
        } catch {
            result.status = .error
            result.detail = "the PNG round trip failed: \(error)"
        }
        return result
    }

    func fixtureFinished(_ fixture: Fixture, layout: FixtureLayout, frames: inout [FrameResult]) throws(RunnerError)
        -> FixtureNote?
    {
        _ = LayoutJSON.encode(layout)
        return nil
    }
}

/// The valid fixtures a campaign mutates, read and parsed once.
public struct FuzzBases: Sendable {
    public var refs: [FixtureRef]
    public var trees: [FixtureMutator.Base]
    public var directories: [String]

    /// Every fixture file under `paths`; each must be valid JSON (they are the starting points).
    /// Mutations are of a file's bytes: its variants are the same file, so they are not bases.
    public static func load(paths: [String]) throws(RunnerError) -> FuzzBases {
        let refs = try FixtureDiscovery.discover(paths: paths).filter { $0.variant == nil }
        guard !refs.isEmpty else {
            throw RunnerError.usage("fuzz: no fixtures to start from under \(paths.joined(separator: ", "))")
        }
        var bases = FuzzBases(refs: refs, trees: [], directories: [])
        for ref in refs {
            guard let data = FileManager.default.contents(atPath: ref.path) else {
                throw RunnerError.usage("\(ref.displayPath): cannot be read")
            }
            let root: JSONNode
            do {
                root = try JSONParser.parse([UInt8](data))
            } catch {
                throw RunnerError.usage(
                    "\(ref.displayPath):\(error.position.line):\(error.position.column): a fuzz base must be valid JSON: \(error.message)"
                )
            }
            bases.trees.append(FixtureMutator.Base(name: ref.id, tree: FuzzJSON(root)))
            bases.directories.append((ref.path as NSString).deletingLastPathComponent)
        }
        return bases
    }
}
