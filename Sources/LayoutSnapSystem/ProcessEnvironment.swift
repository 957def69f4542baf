import Glibc

/// Variables of the process's environment, read one by one.
public enum ProcessEnvironment {
    /// The values of those of `names` that are set. `ProcessInfo`'s `environment` copies every
    /// variable into a dictionary at each call: three calls for two variables were a tenth of
    /// opening the cache in a warm run. (Read only; the one writer, `FontSystem.pinLanguage`,
    /// is called before each command starts its threads, and writes nothing when called again.)
    public static func values(_ names: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }
}
