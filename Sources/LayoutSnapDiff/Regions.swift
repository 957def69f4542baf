// Connected clusters (8-connectivity) of the counted differing pixels, found in one streaming pass
// without any per-pixel buffer. Pixels arrive in raster order and are packed into horizontal runs;
// each run is joined to the runs of the previous row it touches (diagonals included) with a small
// union-find over cluster ids. A cluster that has no run in the current row can no longer grow: it
// is finished, its bounding box is handed to a bounded "smallest 100" heap, and its id is recycled.
// Memory is O(width + 100), whatever the number of differing pixels or clusters.

import LayoutSnapCore

struct RegionCollector {
    struct Cluster {
        var parent: Int32
        var x0: Int32, y0: Int32, x1: Int32, y1: Int32
        var aliveRow: Int32  // last row in which a run of this (root) cluster was seen
        var stamp: Int32  // de-duplication mark for the end-of-row pass
    }

    struct Run {
        var x0: Int32
        var x1: Int32
        var id: Int32
    }

    let cap: Int
    private var clusters: [Cluster] = []
    private var freeIDs: [Int32] = []
    private var prev: [Run] = []  // runs of row curY - 1 (labels are roots)
    private var cur: [Run] = []  // closed runs of row curY
    private var touched: [Int32] = []  // ids that may change state at the end of this row
    private var finishedScratch: [Int32] = []
    private var curY: Int32 = -2
    private var openX0: Int32 = -1
    private var openX1: Int32 = -2
    private var prevScan = 0  // monotone pointer into `prev` while closing runs of this row
    private var stampCounter: Int32 = 0

    private var heap: [PixelRegion] = []  // max-heap by `regionOrder` of the smallest `cap` boxes
    private var tail: PixelRegion? = nil  // union of the boxes pushed out of the heap
    private(set) var clusterCount = 0

    init(cap: Int) {
        precondition(cap >= 1)
        self.cap = cap
    }

    /// Adds the pixel (x, y). Pixels must arrive in raster order.
    @inline(__always)
    mutating func add(x: Int, y: Int) {
        let x32 = Int32(truncatingIfNeeded: x)
        let y32 = Int32(truncatingIfNeeded: y)
        if y32 == curY && x32 == openX1 &+ 1 {
            openX1 = x32
            return
        }
        addSlow(x: x32, y: y32)
    }

    private mutating func addSlow(x: Int32, y: Int32) {
        if y != curY {
            if curY >= 0 {
                finishRow()
                if y != curY &+ 1 {
                    // a row without differences in between: everything still open is finished
                    curY &+= 1
                    finishRow()
                }
            }
            curY = y
            prevScan = 0
        } else {
            closeOpenRun()
        }
        openX0 = x
        openX1 = x
    }

    /// The bounding boxes sorted by (y, x, height, width), at most `cap` (the last one then
    /// covers every remaining cluster), and the number of clusters.
    mutating func finish() -> (regions: [PixelRegion], clusterCount: Int) {
        if curY >= 0 {
            finishRow()
            curY &+= 1
            finishRow()
            curY = -2
        }
        var sorted = heap.sorted(by: regionOrder)
        if let t = tail, let last = sorted.popLast() {
            sorted.append(union(last, t))
        }
        return (sorted, clusterCount)
    }

    // MARK: - rows

    private mutating func closeOpenRun() {
        guard openX0 >= 0 else { return }
        let x0 = openX0
        let x1 = openX1
        openX0 = -1
        openX1 = -2
        var id: Int32 = -1
        var p = prevScan
        // previous runs ending left of x0 - 1 cannot touch this run or any later one
        while p < prev.count && prev[p].x1 < x0 &- 1 { p &+= 1 }
        prevScan = p
        var q = p
        while q < prev.count && prev[q].x0 <= x1 &+ 1 {
            let r = find(prev[q].id)
            if id < 0 {
                id = r
            } else if r != id {
                merge(r, into: id)
            }
            q &+= 1
        }
        if id < 0 {
            id = newCluster(x0: x0, x1: x1, y: curY)
        } else {
            clusters[Int(id)].x0 = min(clusters[Int(id)].x0, x0)
            clusters[Int(id)].x1 = max(clusters[Int(id)].x1, x1)
            clusters[Int(id)].y1 = curY
        }
        cur.append(Run(x0: x0, x1: x1, id: id))
    }

    /// Ends row `curY`: labels its runs with roots, finishes the clusters that did not reach this
    /// row, recycles ids nobody refers to any more, and makes this row the previous one.
    private mutating func finishRow() {
        closeOpenRun()
        stampCounter &+= 1
        let stamp = stampCounter
        for i in cur.indices {
            let r = find(cur[i].id)
            cur[i].id = r
            clusters[Int(r)].aliveRow = curY
        }
        // Every id that can be finished or merged this row is in `touched`: the labels of the
        // previous row's runs and the ids created in this row. Decide all before freeing any.
        finishedScratch.removeAll(keepingCapacity: true)
        for t in touched.indices {
            let id = touched[t]
            if clusters[Int(id)].stamp == stamp { continue }
            clusters[Int(id)].stamp = stamp
            if clusters[Int(id)].parent != id {
                freeIDs.append(id)  // merged into another cluster; no run refers to it any more
            } else if clusters[Int(id)].aliveRow != curY {
                finishedScratch.append(id)
            }
        }
        for f in finishedScratch.indices {
            let id = finishedScratch[f]
            let c = clusters[Int(id)]
            emit(
                PixelRegion(
                    x: Int(c.x0), y: Int(c.y0), width: Int(c.x1 - c.x0) + 1, height: Int(c.y1 - c.y0) + 1))
            freeIDs.append(id)
        }
        touched.removeAll(keepingCapacity: true)
        for i in cur.indices {
            let id = cur[i].id
            if clusters[Int(id)].stamp == stamp &+ 1 { continue }
            clusters[Int(id)].stamp = stamp &+ 1  // de-duplicate; the next pass uses a newer stamp
            touched.append(id)
        }
        stampCounter &+= 1
        swap(&prev, &cur)
        cur.removeAll(keepingCapacity: true)
        prevScan = 0
    }

    // MARK: - union-find

    @inline(__always)
    private mutating func find(_ id: Int32) -> Int32 {
        var i = id
        while clusters[Int(i)].parent != i {
            let grand = clusters[Int(clusters[Int(i)].parent)].parent
            clusters[Int(i)].parent = grand
            i = grand
        }
        return i
    }

    private mutating func merge(_ r: Int32, into id: Int32) {
        let c = clusters[Int(r)]
        clusters[Int(id)].x0 = min(clusters[Int(id)].x0, c.x0)
        clusters[Int(id)].y0 = min(clusters[Int(id)].y0, c.y0)
        clusters[Int(id)].x1 = max(clusters[Int(id)].x1, c.x1)
        clusters[Int(id)].y1 = max(clusters[Int(id)].y1, c.y1)
        clusters[Int(r)].parent = id
    }

    private mutating func newCluster(x0: Int32, x1: Int32, y: Int32) -> Int32 {
        let c = Cluster(parent: 0, x0: x0, y0: y, x1: x1, y1: y, aliveRow: -1, stamp: 0)
        let id: Int32
        if let reused = freeIDs.popLast() {
            id = reused
            clusters[Int(id)] = c
        } else {
            id = Int32(truncatingIfNeeded: clusters.count)
            clusters.append(c)
        }
        clusters[Int(id)].parent = id
        touched.append(id)
        return id
    }

    // MARK: - the smallest `cap` boxes

    private mutating func emit(_ box: PixelRegion) {
        clusterCount &+= 1
        if heap.count < cap {
            heap.append(box)
            siftUp(heap.count - 1)
        } else if regionOrder(box, heap[0]) {
            let out = heap[0]
            heap[0] = box
            siftDown(0)
            tail = tail.map { union($0, out) } ?? out
        } else {
            tail = tail.map { union($0, box) } ?? box
        }
    }

    private mutating func siftUp(_ i: Int) {
        var i = i
        while i > 0 {
            let parent = (i - 1) / 2
            guard regionOrder(heap[parent], heap[i]) else { return }
            heap.swapAt(parent, i)
            i = parent
        }
    }

    private mutating func siftDown(_ i: Int) {
        var i = i
        while true {
            let l = 2 * i + 1
            let r = l + 1
            var largest = i
            if l < heap.count && regionOrder(heap[largest], heap[l]) { largest = l }
            if r < heap.count && regionOrder(heap[largest], heap[r]) { largest = r }
            if largest == i { return }
            heap.swapAt(i, largest)
            i = largest
        }
    }
}

/// Order of the reported regions: by y, then x, then height, then width.
@inline(__always)
func regionOrder(_ l: PixelRegion, _ r: PixelRegion) -> Bool {
    if l.y != r.y { return l.y < r.y }
    if l.x != r.x { return l.x < r.x }
    if l.height != r.height { return l.height < r.height }
    return l.width < r.width
}

@inline(__always)
func union(_ a: PixelRegion, _ b: PixelRegion) -> PixelRegion {
    let x0 = min(a.x, b.x)
    let y0 = min(a.y, b.y)
    let x1 = max(a.x + a.width, b.x + b.width)
    let y1 = max(a.y + a.height, b.y + b.height)
    return PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
}
