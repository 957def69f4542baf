import Foundation
import LayoutSnapSystem

/// The one thread pool: threads with the main thread's stack size (Pango and HarfBuzz recurse a
/// little; GCD's worker stacks are smaller), taking indices from a shared queue. The batch runner,
/// preview, decoding and generation all run on it.
enum WorkerThreads {
    /// Runs `body` on `threads` threads at once and waits for all of them.
    static func run(threads: Int, _ body: @escaping @Sendable () -> Void) {
        let group = DispatchGroup()
        for _ in 0..<max(threads, 1) {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                body()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
    }

    /// Runs `body` for 0..<count on up to `jobs` threads; results in index order.
    static func map<T: Sendable>(count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        let queue = WorkQueue<T>(count: count, order: Array(0..<count))
        run(threads: min(max(jobs, 1), max(count, 1))) {
            while let i = queue.take() { queue.store(i, body(i)) }
        }
        return queue.results()
    }
}

/// Hands out indices in a given order and collects one result each, under one lock.
final class WorkQueue<T: Sendable>: Sendable {
    private struct State {
        var nextPosition = 0
        var slots: [T?]
        var done = 0
    }

    private let order: [Int]
    private let state: LockedValue<State>

    init(count: Int, order: [Int]) {
        self.order = order
        state = LockedValue(State(slots: Array(repeating: nil, count: count)))
    }

    func take() -> Int? {
        state.withLock { s in
            guard s.nextPosition < order.count else { return nil }
            defer { s.nextPosition += 1 }
            return order[s.nextPosition]
        }
    }

    /// Stores the result for `index`; `progress` is called with (done, total) under the lock, so
    /// its calls never overlap.
    func store(_ index: Int, _ result: T, progress: ((Int, Int) -> Void)? = nil) {
        state.withLock { s in
            s.slots[index] = result
            s.done += 1
            progress?(s.done, s.slots.count)
        }
    }

    /// Marks one item done without storing it; `progress` is called as by `store`.
    func complete(progress: ((Int, Int) -> Void)? = nil) {
        state.withLock { s in
            s.done += 1
            progress?(s.done, s.slots.count)
        }
    }

    func results() -> [T] {
        state.withLock { s in s.slots.map { $0! } }
    }
}
