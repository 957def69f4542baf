import Foundation

/// A value worked out on a thread of its own while the caller does other work: `value` waits for
/// it. For start-up work that needs no result of the caller's (a run reads the goldens' manifest
/// and opens its cache while it finds the fixtures), so a second core is not idle at the start.
/// A thread of its own, started at once: the global dispatch queue adds a second thread only
/// after a few milliseconds, most of what this saves.
public final class Background<Value: Sendable>: Sendable {
    private let done = DispatchGroup()
    private let result = LockedValue<Value?>(nil)

    public init(_ work: @escaping @Sendable () -> Value) {
        done.enter()
        Thread.detachNewThread { [result, done] in
            let value = work()
            result.withLock { $0 = value }
            done.leave()
        }
    }

    /// The value, once the work has ended.
    public var value: Value {
        done.wait()
        return result.withLock { $0! }
    }
}
