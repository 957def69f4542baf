import Foundation

/// The frame an animation writer (APNG, GIF) last stored, to store only the rectangle that changed:
/// a card that grows at the top of the canvas costs that card's rows, not the whole screen.
struct PreviousFrame {
    let width: Int
    let height: Int
    private var pixels: [UInt32]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = Array(repeating: 0, count: width * height)
    }

    /// Takes `frame` (rows `stride` pixels apart) as the new previous frame and returns the
    /// rectangle to store for it: the whole frame when it is the `first`, else the bounding box of
    /// what changed, or a single pixel when nothing did (one stored frame per frame added).
    mutating func replace(with frame: UnsafePointer<UInt32>, stride: Int, first: Bool) -> (
        x: Int, y: Int, width: Int, height: Int
    ) {
        let region = first ? (0, 0, width, height) : changedRegion(frame, stride: stride) ?? (0, 0, 1, 1)
        for row in 0..<height {
            pixels.withUnsafeMutableBufferPointer { p in
                (p.baseAddress! + row * width).update(from: frame + row * stride, count: width)
            }
        }
        return region
    }

    /// The bounding box of the pixels that differ from the previous frame, nil when none do.
    private func changedRegion(_ frame: UnsafePointer<UInt32>, stride: Int) -> (
        x: Int, y: Int, width: Int, height: Int
    )? {
        var minX = width
        var minY = height
        var maxX = -1
        var maxY = -1
        pixels.withUnsafeBufferPointer { old in
            for y in 0..<height {
                let a = old.baseAddress! + y * width
                let b = frame + y * stride
                guard memcmp(a, b, width * 4) != 0 else { continue }
                var left = 0
                while a[left] == b[left] { left += 1 }
                var right = width - 1
                while a[right] == b[right] { right -= 1 }
                minX = min(minX, left)
                maxX = max(maxX, right)
                if minY == height { minY = y }
                maxY = y
            }
        }
        guard maxY >= 0 else { return nil }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }
}
