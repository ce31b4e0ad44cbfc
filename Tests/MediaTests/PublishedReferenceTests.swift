import Testing
import Media

/// The encoder session's slot: read on every frame without a lock (issue 26).
@Suite struct PublishedReferenceTests {
    final class Box: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test("a replacement is what the next read gets; the replaced object lives on for a reader still holding its pointer")
    func replaceKeepsTheOldAlive() {
        var first: Box? = Box(1)
        weak let watched = first
        let slot = PublishedReference(first!)
        first = nil
        #expect(slot.value.value == 1)
        slot.replace(with: Box(2))
        #expect(slot.value.value == 2)
        #expect(watched != nil, "released while a frame may still be using it")
    }

    @Test("everything it kept goes with it")
    func releasesAtTheEnd() {
        weak var kept: Box?
        weak var current: Box?
        do {
            let old = Box(1)
            let new = Box(2)
            (kept, current) = (old, new)
            let slot = PublishedReference(old)
            slot.replace(with: new)
        }
        #expect(kept == nil)
        #expect(current == nil)
    }
}
