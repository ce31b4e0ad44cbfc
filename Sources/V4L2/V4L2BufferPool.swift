#if canImport(Glibc)
import Glibc
#endif
import Media
internal import CV4L2

/// The driver's buffers of one queue, capture or output, mapped into our memory (streaming I/O
/// with `V4L2_MEMORY_MMAP`, Linux media API, "Streaming I/O (Memory Mapping)"): owns the mappings
/// and unmaps them in `deinit`.
///
/// Holds its device, so the fd is closed only after the buffers are unmapped (a mapping keeps the
/// driver's file open: vivid, for one, will not come back after a disconnect until both are gone).
public final class V4L2BufferPool {
    public let device: V4L2Device
    public let type: V4L2BufferType
    private let mappings: [UnsafeMutableRawBufferPointer]
    /// The `v4l2_plane` array a multi-planar `v4l2_buffer` points at; one plane is all Camcast uses.
    private let planes: UnsafeMutablePointer<v4l2_plane>

    private static let memoryMMAP: UInt32 = 1  // V4L2_MEMORY_MMAP

    public var count: Int { mappings.count }

    /// Asks for `count` buffers and maps every one the driver granted. `type` comes from the
    /// node's capabilities (`bufferType`, `outputQueueType()`): on a queue the node lacks, the
    /// kernel answers only EINVAL.
    public init(device: V4L2Device, type: V4L2BufferType, count: Int) throws(SystemCallError) {
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = type.rawValue
        request.memory = Self.memoryMMAP
        try device.ioctl("VIDIOC_REQBUFS", cv4l2_vidioc_reqbufs(), &request)
        // Fewer than two buffers cannot stream: a user that keeps the last delivered one (Capture's
        // V4L2CaptureLoop does) would leave the driver nothing to fill.
        guard request.count >= 2 else { throw SystemCallError(call: "VIDIOC_REQBUFS", errno: ENOMEM) }

        let planes = UnsafeMutablePointer<v4l2_plane>.allocate(capacity: 1)
        planes.initialize(to: v4l2_plane())
        var mapped: [UnsafeMutableRawBufferPointer] = []
        do throws(SystemCallError) {
            for index in 0..<request.count {
                var buffer = Self.describe(index: index, type: type, planes: planes)
                try device.ioctl("VIDIOC_QUERYBUF", cv4l2_vidioc_querybuf(), &buffer)
                let length = Int(type.isMultiPlanar ? planes.pointee.length : buffer.length)
                let offset = type.isMultiPlanar ? planes.pointee.m.mem_offset : buffer.m.offset
                guard let address = cv4l2_sys_mmap(device.fd, length, off_t(offset)), cv4l2_map_failed(address) == 0 else {
                    throw SystemCallError(call: "mmap", errno: errno)
                }
                mapped.append(UnsafeMutableRawBufferPointer(start: address, count: length))
            }
        } catch {
            for mapping in mapped { _ = cv4l2_sys_munmap(mapping.baseAddress, mapping.count) }
            planes.deallocate()
            throw error
        }
        self.device = device
        self.type = type
        self.mappings = mapped
        self.planes = planes
    }

    deinit {
        for mapping in mappings { _ = cv4l2_sys_munmap(mapping.baseAddress, mapping.count) }
        planes.deallocate()
    }

    /// Hands buffer `index` to the driver to fill (a capture queue).
    public func queue(_ index: Int) throws(SystemCallError) {
        var buffer = Self.describe(index: UInt32(index), type: type, planes: planes)
        try device.ioctl("VIDIOC_QBUF", cv4l2_vidioc_qbuf(), &buffer)
    }

    /// Hands buffer `index`, whose first `bytesUsed` bytes the caller has written (`mutableBytes`),
    /// to the driver to read (an output queue). The timestamp travels with the frame: a mem2mem
    /// encoder copies it to the coded buffer it makes from it, which is how its packets are
    /// matched to their frames. A driver refuses (EINVAL) more bytes than the buffer holds.
    public func queue(_ index: Int, bytesUsed: Int, timestampNanoseconds: UInt64, field: V4L2Field = .progressive) throws(SystemCallError) {
        var buffer = Self.describe(index: UInt32(index), type: type, planes: planes)
        let used = UInt32(clamping: bytesUsed)
        if type.isMultiPlanar { planes.pointee.bytesused = used } else { buffer.bytesused = used }
        buffer.field = field.rawValue
        buffer.timestamp.tv_sec = Int(timestampNanoseconds / 1_000_000_000)
        buffer.timestamp.tv_usec = Int(timestampNanoseconds % 1_000_000_000 / 1_000)
        try device.ioctl("VIDIOC_QBUF", cv4l2_vidioc_qbuf(), &buffer)
    }

    /// Takes the oldest buffer the driver is done with: filled (capture), or read and free to be
    /// written again (output; `bytesUsed` is what was queued). nil when none is ready yet (EAGAIN:
    /// the fd is non-blocking).
    public func dequeue() throws(SystemCallError) -> V4L2DequeuedBuffer? {
        var buffer = Self.describe(index: 0, type: type, planes: planes)
        do throws(SystemCallError) {
            try device.ioctl("VIDIOC_DQBUF", cv4l2_vidioc_dqbuf(), &buffer)
        } catch {
            if error.errno == EAGAIN { return nil }
            throw error
        }
        let time = buffer.timestamp
        let nanoseconds = UInt64(max(0, time.tv_sec)) * 1_000_000_000 + UInt64(max(0, time.tv_usec)) * 1_000
        let plane = planes.pointee
        return V4L2DequeuedBuffer(
            index: Int(buffer.index),
            bytesUsed: Int(type.isMultiPlanar ? plane.bytesused - min(plane.bytesused, plane.data_offset) : buffer.bytesused),
            dataOffset: Int(type.isMultiPlanar ? plane.data_offset : 0),
            flags: buffer.flags, sequence: buffer.sequence, timestampNanoseconds: nanoseconds)
    }

    /// The mapped bytes of buffer `index`.
    public func bytes(of index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(mappings[index])
    }

    /// The mapped bytes of buffer `index`, to write a frame into while the buffer is ours (before
    /// it is queued, or after it came back dequeued).
    public func mutableBytes(of index: Int) -> UnsafeMutableRawBufferPointer {
        mappings[index]
    }

    /// A `v4l2_buffer` naming buffer `index`; multi-planar ones point at our one-plane array.
    private static func describe(index: UInt32, type: V4L2BufferType, planes: UnsafeMutablePointer<v4l2_plane>) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = type.rawValue
        buffer.memory = memoryMMAP
        if type.isMultiPlanar {
            planes.pointee = v4l2_plane()
            buffer.m.planes = planes
            buffer.length = 1
        }
        return buffer
    }
}
