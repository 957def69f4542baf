#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value shared between threads behind a pthread mutex: `withLock` is the only way to it. The
/// types that share state hold one of these and are plainly `Sendable`; this box is the one
/// `@unchecked Sendable` they rely on.
///
/// Not the standard library's `Mutex`: on Linux it waits on futexes that ThreadSanitizer does not
/// see, so `.ci/tsan` reported every access made under it as a race. A pthread mutex it follows.
public final class LockedValue<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, the lock held; what `body` returns or throws passes through.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        try lock.withLock { () throws(Failure) in try body(&value) }
    }
}

/// A pthread mutex around a critical section that guards no Swift value (a C library's state,
/// or spawning a child without leaking another thread's descriptors). For a value, `LockedValue`.
public final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        // Only ENOMEM or EAGAIN can fail here; a process that cannot make a mutex cannot go on.
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held; what `body` returns or throws passes through.
    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
