import Testing
@testable import Recording

/// libavformat is loaded with dlopen on first use (CAVFormat's shim.h): the soname the headers
/// name is the one installed, every symbol the recorder calls resolves, and a second load is free.
@Suite struct RecordingLibraryTests {
    @Test func libavformatLoadsOnDemand() {
        #expect(RecordingLibrary.loadProblem() == nil)
        #expect(RecordingLibrary.loadProblem() == nil)
    }
}
