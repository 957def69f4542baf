import Foundation

/// Threads with the main thread's stack size (Pango and HarfBuzz recurse a little; GCD's worker
/// stacks are smaller), for work that renders.
enum WorkerThreads {
    /// Runs `body` for 0..<count on up to `jobs` threads; results in index order.
    static func map<T: Sendable>(count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        let slots = Slots<T>(count)
        let group = DispatchGroup()
        for _ in 0..<min(max(jobs, 1), max(count, 1)) {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                while let i = slots.take() { slots.put(i, body(i)) }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
        return slots.results.map { $0! }
    }

    private final class Slots<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        var results: [T?]

        init(_ count: Int) { results = Array(repeating: nil, count: count) }

        func take() -> Int? {
            lock.lock(); defer { lock.unlock() }
            guard next < results.count else { return nil }
            next += 1
            return next - 1
        }

        func put(_ i: Int, _ value: T) {
            lock.lock(); defer { lock.unlock() }
            results[i] = value
        }
    }
}
