/// Where a long word must be cut into separate Pango items.
///
/// Pango 1.50 lays out a word wider than the line (wrapped by character) in quadratic time: for
/// every line it breaks off, it reshapes the rest of the item with HarfBuzz. A 40,000-letter
/// word took 22 s and a 1 MB one would take hours, inside one uninterruptible call. An attribute
/// boundary ends a Pango item, so alternate chunks of a long word get a letter spacing of 0,
/// which changes no glyph position (measured: identical character extents) but caps every item
/// at `chunk` grapheme clusters. The same 1 MB word then takes about 2 s.
///
/// Only runs of at least `minimum` clusters without whitespace are cut, so ordinary text keeps
/// its items (and its kerning) exactly as before; cuts fall between grapheme clusters, so no
/// emoji sequence or combining mark is split from its base.
public enum UnbrokenRuns {
    public static let minimum = 256
    public static let chunk = 128

    /// UTF-8 byte ranges of every other chunk of each long run (the ones that get the attribute).
    public static func alternateChunks(in text: String, minimum: Int = minimum, chunk: Int = chunk) -> [Range<Int>] {
        var result: [Range<Int>] = []
        // Boundaries (byte offsets) of the clusters of the current run of non-whitespace.
        var run: [Int] = []
        var offset = 0
        func close() {
            defer { run.removeAll(keepingCapacity: true) }
            let clusters = run.count - 1
            guard clusters >= minimum else { return }
            var start = 0
            while start < clusters {
                let end = min(start + chunk, clusters)
                result.append(run[start]..<run[end])
                start += 2 * chunk
            }
        }
        for character in text {
            let length = character.utf8.count
            if character.isWhitespace {
                close()
            } else {
                if run.isEmpty { run.append(offset) }
                run.append(offset + length)
            }
            offset += length
        }
        close()
        return result
    }
}
