/// The quick readers of documents layoutsnap writes itself (the goldens' manifest, cache entries)
/// read a string straight from the bytes when it is the common kind, and leave every other string
/// (escapes, text beyond ASCII, which the full parse makes stream-safe) to JSONParser.
public enum PlainString {
    /// The string of printable ASCII without escapes that starts at `i` (its opening quote), with
    /// `i` moved past its closing quote; nil, `i` unmoved, for anything else.
    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, at i: inout Int) -> String? {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
        let start = i + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            guard bytes[end] >= 0x20, bytes[end] < 0x7F, bytes[end] != UInt8(ascii: "\\") else { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        i = end + 1
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}
