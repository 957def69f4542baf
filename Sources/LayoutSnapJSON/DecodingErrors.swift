import Synchronization

/// The errors a decoder went past, so that one run reports every mistake of a file (up to a
/// limit) rather than the first: unknown fields (`ObjectReader.finish` records them all), and
/// array elements read with `JSONElement.each` that could not be read (skipped, the rest read).
/// Outside `collecting`, every error is thrown at once, as before.
public final class DecodingErrors: Sendable {
    @TaskLocal static var current: DecodingErrors?

    private struct State {
        var errors: [JSONDecodingError] = []
        /// An element was skipped: what fails afterwards may only be its consequence.
        var skipped = false
    }
    private let state = Mutex(State())
    let limit: Int

    private init(limit: Int) { self.limit = limit }

    /// Runs `decode`, collecting; returns its value when nothing went wrong, else every error in
    /// source order (at most `limit`). The error that stopped decoding is left out when it may
    /// only follow from one recorded before: after an element was skipped (a step naming a
    /// message that is gone), or about a value with a recorded mistake inside (a variants matrix
    /// "without a device" that spells it "devices").
    public static func collecting<Value>(
        limit: Int, _ decode: () throws(JSONDecodingError) -> Value
    ) throws(Collected) -> Value {
        let collector = DecodingErrors(limit: limit)
        let result = $current.withValue(collector) { Result { () throws(JSONDecodingError) in try decode() } }
        var (errors, skipped) = collector.state.withLock { ($0.errors, $0.skipped) }
        switch result {
        case .success(let value) where errors.isEmpty: return value
        case .failure(let error) where errors.isEmpty: errors.append(error)
        case .failure(let error) where !skipped && !errors.contains(where: { $0.path.starts(within: error.path) }):
            errors.append(error)
        default: break
        }
        var seen = Set<String>()
        let ordered = errors.enumerated().sorted { a, b in
            let (pa, pb) = (a.element.position, b.element.position)
            if let pa, let pb, (pa.line, pa.column) != (pb.line, pb.column) {
                return (pa.line, pa.column) < (pb.line, pb.column)
            }
            return a.offset < b.offset
        }.map(\.element).filter { seen.insert($0.description).inserted }
        throw Collected(errors: Array(ordered.prefix(limit)))
    }

    /// Every error of a decoding, in source order; never empty.
    public struct Collected: Error, Sendable {
        public var errors: [JSONDecodingError]
    }

    /// Records `error` and says whether decoding may go on past it (false once the limit is
    /// reached, so a file of a million mistakes stops early).
    func record(_ error: JSONDecodingError, skipping: Bool = false) -> Bool {
        state.withLock {
            $0.errors.append(error)
            if skipping { $0.skipped = true }
            return $0.errors.count < limit
        }
    }
}

extension JSONElement {
    /// The array's elements read by `read`. While errors are being collected, an element that
    /// cannot be read is recorded and left out, and the others are still read.
    public func each<Value>(_ read: (JSONElement) throws(JSONDecodingError) -> Value) throws(JSONDecodingError)
        -> [Value]
    {
        try enumeratedEach { (_, item) throws(JSONDecodingError) in try read(item) }
    }

    /// `each`, with the element's index.
    public func enumeratedEach<Value>(_ read: (Int, JSONElement) throws(JSONDecodingError) -> Value)
        throws(JSONDecodingError) -> [Value]
    {
        var values: [Value] = []
        for (index, item) in try array().enumerated() {
            do {
                values.append(try read(index, item))
            } catch {
                guard let collector = DecodingErrors.current, collector.record(error, skipping: true) else {
                    throw error
                }
            }
        }
        return values
    }
}
