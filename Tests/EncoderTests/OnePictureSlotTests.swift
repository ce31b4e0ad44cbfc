@testable import Encoder
import Testing

/// The slot x264 and x265 share: a send runs the library call only when the slot is empty and the
/// input open, a receive hands back the waiting picture first, and only after the end asks the
/// backend's drain, until it has nothing.
@Suite struct OnePictureSlotTests {
    static func picture(_ pts: Int64) -> EncoderBackendOutput {
        EncoderBackendOutput(units: [[0x65, UInt8(pts)]], isKeyframe: pts == 0, pts: pts, dts: pts)
    }

    static func pts(_ status: EncoderReceiveStatus) -> Int64? {
        if case .picture(let picture) = status { return picture.pts }
        return nil
    }

    static func isNeedsInput(_ status: EncoderReceiveStatus) -> Bool {
        if case .needsInput = status { return true }
        return false
    }

    static func isDrained(_ status: EncoderReceiveStatus) -> Bool {
        if case .drained = status { return true }
        return false
    }

    static func unexpectedDrain() throws(EncoderError) -> EncoderBackendOutput? {
        Issue.record("drained before the end of the input")
        return nil
    }

    @Test func aSendFillsTheSlotAndASecondSendIsRefusedWithoutCallingTheLibrary() throws {
        var slot = OnePictureSlot()
        var calls = 0
        #expect(try slot.send { calls += 1; return Self.picture(0) } == .accepted)
        #expect(try slot.send { calls += 1; return Self.picture(1) } == .full)
        #expect(calls == 1)
        #expect(Self.pts(try slot.receive(draining: Self.unexpectedDrain)) == 0)
        #expect(Self.isNeedsInput(try slot.receive(draining: Self.unexpectedDrain)))
        #expect(try slot.send { calls += 1; return Self.picture(1) } == .accepted)
        #expect(slot.take()?.pts == 1)
        #expect(slot.take() == nil)
        #expect(calls == 2)
    }

    @Test func aSendThatProducedNothingLeavesTheSlotEmpty() throws {
        var slot = OnePictureSlot()
        #expect(try slot.send { nil } == .accepted)
        #expect(Self.isNeedsInput(try slot.receive(draining: Self.unexpectedDrain)))
        #expect(try slot.send { Self.picture(3) } == .accepted)
    }

    @Test func afterTheEndTheWaitingPictureComesFirstThenTheDrainUntilItIsEmpty() throws {
        var slot = OnePictureSlot()
        #expect(try slot.send { Self.picture(0) } == .accepted)
        #expect(!slot.isEnded)
        slot.end()
        #expect(slot.isEnded)
        var held: [Int64] = [40, 80]
        let drain = { () throws(EncoderError) -> EncoderBackendOutput? in
            held.isEmpty ? nil : Self.picture(held.removeFirst())
        }
        var received: [Int64] = []
        while true {
            let status = try slot.receive(draining: drain)
            guard let pts = Self.pts(status) else {
                #expect(Self.isDrained(status))
                break
            }
            received.append(pts)
        }
        #expect(received == [0, 40, 80])
    }

    @Test func noSendAfterTheEndAndTheLibraryIsNotCalled() {
        var slot = OnePictureSlot()
        slot.end()
        var called = false
        #expect(throws: EncoderError.closed) { try slot.send { called = true; return nil } }
        #expect(!called)
    }

    @Test func aFailedDrainIsTheReceivesError() {
        var slot = OnePictureSlot()
        slot.end()
        #expect(throws: EncoderError.encodeFailed(status: -1)) {
            try slot.receive { () throws(EncoderError) -> EncoderBackendOutput? in throw .encodeFailed(status: -1) }
        }
    }
}
