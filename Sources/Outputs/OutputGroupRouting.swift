import Media

/// Which legs of an `OutputGroup` carry the stream now (`OutputGroup.routing`): made and ended by
/// the group's watch thread, read by the encoder's thread at every write.
struct OutputGroupRouting {
    /// Each leg's output while it is started, by the leg's position in the config.
    var legs: [(any NetworkOutput)?]
    /// Failover: the leg that carries the stream (with both, every leg does).
    var active = 0
    /// Failover: an earlier leg started beside the active one, to take over once it publishes.
    var candidate: Int?
    /// Started legs that have not had a packet yet: the next write gives them the newest run first.
    var joining: Set<Int> = []
    var run: NewestKeyframeRun
    /// The group is ending: no leg joins any more.
    var finished = false
    /// Legs whose output gave up (its reconnect policy): with both, the group fails when all have.
    var gaveUp: Set<Int> = []
    /// The newest packet's time: where a leg that is closed ends its stream.
    var lastTime: Int64 = 0

    init(legCount: Int, run: NewestKeyframeRun) {
        legs = Array(repeating: nil, count: legCount)
        self.run = run
    }

    /// Every started leg.
    var carrying: [any NetworkOutput] { legs.compactMap { $0 } }

    /// `packets` pass: they join the newest run; the legs that had packets before get them, the
    /// legs that join get the run instead (which ends with them), in that order, on the caller's thread.
    mutating func route(
        _ packets: some Collection<MediaPacket>
    ) -> (carrying: [any NetworkOutput], joining: [any NetworkOutput], run: [MediaPacket]) {
        for packet in packets {
            run.add(packet)
            lastTime = max(lastTime, packet.dts)
        }
        var carrying: [any NetworkOutput] = []
        var joiners: [any NetworkOutput] = []
        for (index, leg) in legs.enumerated() {
            guard let leg else { continue }
            if joining.contains(index) { joiners.append(leg) } else { carrying.append(leg) }
        }
        joining = []
        return (carrying, joiners, joiners.isEmpty ? [] : run.packets)
    }

    /// Leg `index` now carries `output`; it gets the newest run at the next write.
    mutating func start(_ index: Int, _ output: any NetworkOutput) -> Bool {
        guard !finished, legs[index] == nil else { return false }
        legs[index] = output
        joining.insert(index)
        gaveUp.remove(index)
        return true
    }

    /// Leg `index` no longer carries the stream; its output, for the caller to finish.
    mutating func take(_ index: Int) -> (any NetworkOutput)? {
        defer {
            legs[index] = nil
            joining.remove(index)
            if candidate == index { candidate = nil }
        }
        return legs[index]
    }

    /// The group ends: every started leg, for the caller to finish.
    mutating func takeAll() -> [any NetworkOutput] {
        finished = true
        return legs.indices.compactMap { take($0) }
    }
}
