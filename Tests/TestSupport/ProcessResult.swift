import Foundation

/// The output of a finished child process.
public struct ProcessResult: Sendable {
    public var status: Int32
    /// Standard output as bytes: ffmpeg writes raw video there.
    public var stdoutData: Data
    public var stderr: String
    public var seconds: Double

    public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
}
