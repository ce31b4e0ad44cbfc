extension FLVTag {
    /// The same tag at another time. Cannot fail: the body, the only thing checked, is unchanged.
    ///
    /// A connection that starts mid-stream puts onMetaData and the sequence header at its first
    /// keyframe's timestamp, so timestamps on that connection never go backwards.
    public func retimed(to timestamp: UInt32) -> FLVTag {
        FLVTag(uncheckedType: type, timestamp: timestamp, body: body)
    }
}
