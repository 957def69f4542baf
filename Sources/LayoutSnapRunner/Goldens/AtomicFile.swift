import LayoutSnapSystem

/// AtomicWriter (temporary file, fsync, rename, fsync the folder) for the runner, whose
/// failures are `RunnerError.write`.
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(RunnerError) {
        do throws(AtomicWriter.Failure) { try AtomicWriter.write(bytes, to: path, durable: durable) } catch {
            throw RunnerError.write(error.description)
        }
    }

    /// A file made in pieces: see `AtomicWriter.write(to:durable:produce:)`.
    public static func write(
        to path: String, durable: Bool = true,
        produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws(RunnerError) {
        do throws(AtomicWriter.Failure) {
            try AtomicWriter.write(to: path, durable: durable, produce: produce)
        } catch {
            throw RunnerError.write(error.description)
        }
    }
}
