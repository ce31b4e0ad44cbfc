import Schedule

/// `schedule:` (top level and per output), `location:`, `schedule_timezone:`, `unset_clock:` and
/// `idle:`. Windows are parsed where they are written; the schedules are made at the end, when the
/// time zone and the location are known, whatever order the file gives them in.
extension ConfigDecoder {
    static let scheduleTopLevelKeys = ["schedule", "location", "schedule_timezone", "unset_clock", "idle"]
    static let windowKeys = ["days", "from", "to"]
    static let locationKeys = ["latitude", "longitude"]

    /// A `schedule:` as written: `always`, or windows with where their bounds were written.
    enum ScheduleSpec {
        case always
        case windows([WindowSpec])
    }

    struct WindowSpec {
        var window: ScheduleWindow
        var keyPath: String
        var fromAt: SourceLocation
        var toAt: SourceLocation
    }

    /// What the walk found, turned into `config.schedule` by `makeSchedules()`.
    struct PendingSchedules {
        var stream: ScheduleSpec?
        var outputs: [(output: CamcastConfig.OutputConfig, keyPath: String, spec: ScheduleSpec)] = []
        var timeZone: ScheduleTimeZone?
    }

    /// A top-level key of the schedule's: true when `key` was one.
    mutating func decodeScheduleKey(_ key: String, _ value: YAMLNode) -> Bool {
        let at = location(of: value)
        switch key {
        case "schedule":
            given[key] = at
            pendingSchedules.stream = scheduleSpec(value, keyPath: key)
        case "location":
            decodeLocation(value)
        case "schedule_timezone":
            given[key] = at
            guard let text = scalarText(value, keyPath: key, expected: "an IANA time zone name such as Europe/Berlin") else { break }
            do {
                pendingSchedules.timeZone = try ScheduleTimeZone(identifier: text)
                config.schedule.timeZoneName = text
            } catch {
                report(key, at: at, error.description)
            }
        case "unset_clock", "idle":
            given[key] = at
            guard let text = scalarText(value, keyPath: key, expected: key == "idle" ? "close or keep" : "stream or rest") else { break }
            let names = key == "idle" ? CamcastConfig.ScheduleConfig.Idle.allCases.map(\.rawValue) : CamcastConfig.ScheduleConfig.UnsetClock.allCases.map(\.rawValue)
            switch ConfigField.oneOf(names, text) {
            case .value(let name):
                if key == "idle" { config.schedule.idle = .init(rawValue: name)! } else { config.schedule.unsetClock = .init(rawValue: name)! }
            case .problem(let message):
                report(key, at: at, message)
            }
        default:
            return false
        }
        return true
    }

    /// `schedule: always` or a list of windows; nil when it was reported as wrong.
    mutating func scheduleSpec(_ node: YAMLNode, keyPath: String) -> ScheduleSpec? {
        let at = location(of: node)
        let hint = "a list of windows such as `- {days: Mon-Fri, from: \"07:30\", to: sunset+15m}`, or `always`"
        switch node {
        case .scalar(let scalar) where !Self.isNull(node):
            guard scalar.string.lowercased() == "always" else {
                report(keyPath, at: at, "\(ValueText.quoted(scalar.string)) is not a schedule (expected \(hint))")
                return nil
            }
            return .always
        case .sequence(let items):
            guard !items.isEmpty else {
                report(keyPath, at: at, "is an empty list (expected \(hint); leave the key out to stream always)")
                return nil
            }
            var windows: [WindowSpec] = []
            var valid = true
            for (index, item) in items.enumerated() {
                if let window = windowSpec(item, keyPath: "\(keyPath)[\(index)]") { windows.append(window) } else { valid = false }
            }
            return valid ? .windows(windows) : nil
        case .mapping:
            report(keyPath, at: at, "expected a list of windows; start each window with `- `, as in `- {from: \"07:30\", to: \"18:00\"}`")
            return nil
        default:
            report(keyPath, at: at, "has no value (expected \(hint); leave the key out to stream always)")
            return nil
        }
    }

    private mutating func windowSpec(_ node: YAMLNode, keyPath: String) -> WindowSpec? {
        let at = location(of: node)
        guard case .mapping(let mapping) = node else {
            report(keyPath, at: at, "expected a window with `from:` and `to:` (and optionally `days:`), got \(describe(node))")
            return nil
        }
        var days = WeekdaySet.everyDay
        var from: (ScheduleBound, SourceLocation)?
        var to: (ScheduleBound, SourceLocation)?
        var valid = true
        for (keyNode, value) in mapping {
            let key = keyNode.scalar?.string ?? describe(keyNode)
            let path = "\(keyPath).\(key)"
            let valueAt = location(of: value)
            switch key {
            case "days":
                var items: [String] = []
                switch value {
                case .sequence(let list):
                    for item in list {
                        guard case .scalar(let scalar) = item, !Self.isNull(item) else {
                            report(path, at: location(of: item), "expected a day such as Mon or a range such as Mon-Fri, got \(describe(item))")
                            valid = false
                            continue
                        }
                        items.append(scalar.string)
                    }
                case .scalar(let scalar) where !Self.isNull(value):
                    items = [scalar.string]
                default:
                    report(path, at: valueAt, "expected days such as Mon-Fri, Sat,Sun or [Mon, Wed, Fri], got \(describe(value)); leave the key out for every day")
                    valid = false
                    continue
                }
                do {
                    days = try WeekdaySet(parsing: items)
                } catch {
                    report(path, at: valueAt, error.description)
                    valid = false
                }
            case "from", "to":
                guard let text = scalarText(value, keyPath: path, expected: "a time such as \"07:30\", or sunrise, sunset, dawn or dusk with an optional offset such as sunset+15m") else {
                    valid = false
                    continue
                }
                do {
                    let bound = try ScheduleBound(parsing: text)
                    if key == "from" { from = (bound, valueAt) } else { to = (bound, valueAt) }
                } catch {
                    report(path, at: valueAt, error.description)
                    valid = false
                }
            default:
                reportUnknownKey(key, in: keyPath, candidates: Self.windowKeys, at: location(of: keyNode))
                valid = false
            }
        }
        guard valid else { return nil }
        guard let from, let to else {
            let missing = [from == nil ? "`from`" : nil, to == nil ? "`to`" : nil].compactMap { $0 }.joined(separator: " and ")
            report(keyPath, at: at, "needs \(missing) (a window such as `{from: \"07:30\", to: sunset}`)")
            return nil
        }
        guard from.0 != to.0 else {
            report("\(keyPath).to", at: to.1, "\(ValueText.quoted(to.0.description)) is the same as `from`; a window must end at another time (leave `schedule` out to stream all day)")
            return nil
        }
        return WindowSpec(window: ScheduleWindow(days: days, from: from.0, to: to.0), keyPath: keyPath, fromAt: from.1, toAt: to.1)
    }

    private mutating func decodeLocation(_ node: YAMLNode) {
        let at = location(of: node)
        given["location"] = at
        guard case .mapping(let mapping) = node else {
            report("location", at: at, "expected a map with `latitude:` and `longitude:` (decimal degrees, north and east positive), got \(describe(node))")
            return
        }
        var latitude: Double?
        var longitude: Double?
        var valid = true
        for (keyNode, value) in mapping {
            let key = keyNode.scalar?.string ?? describe(keyNode)
            let path = "location.\(key)"
            guard Self.locationKeys.contains(key) else {
                reportUnknownKey(key, in: "location", candidates: Self.locationKeys, at: location(of: keyNode))
                valid = false
                continue
            }
            let range: ClosedRange<Double> = key == "latitude" ? -90...90 : -180...180
            guard let text = scalarText(value, keyPath: path, expected: "decimal degrees \(ValueText.range(range))") else {
                valid = false
                continue
            }
            switch ConfigField.number(text, in: range) {
            case .value(let degrees):
                if key == "latitude" { latitude = degrees } else { longitude = degrees }
            case .problem(let message):
                report(path, at: location(of: value), message + (key == "latitude" ? " (north positive, south negative)" : " (east positive, west negative)"))
                valid = false
            }
        }
        guard valid else { return }
        guard let latitude, let longitude else {
            report("location", at: at, "needs both `latitude` and `longitude` (decimal degrees, such as latitude: 52.52 and longitude: 13.41)")
            return
        }
        config.schedule.location = GeoLocation(latitude: latitude, longitude: longitude)
    }

    /// Makes the stream's and the outputs' schedules once every key is known. A sun event needs
    /// `location:`; the zone is `schedule_timezone:` or the system's.
    mutating func makeSchedules() {
        let pending = pendingSchedules
        guard pending.stream != nil || !pending.outputs.isEmpty else { return }
        let zone = pending.timeZone ?? ScheduleTimeZone.system()
        func make(_ spec: ScheduleSpec) -> Schedule? {
            guard case .windows(let windows) = spec else { return nil }
            return Schedule(windows: windows.map(\.window), location: config.schedule.location, timeZone: zone)
        }
        var specs: [ScheduleSpec] = pending.outputs.map(\.spec)
        if let stream = pending.stream { specs.append(stream) }
        if config.schedule.location == nil, given["location"] == nil {
            for case .windows(let windows) in specs {
                for window in windows {
                    for (bound, key, at) in [(window.window.from, "from", window.fromAt), (window.window.to, "to", window.toAt)] where bound.isSolar {
                        report("\(window.keyPath).\(key)", at: at,
                               "\(ValueText.quoted(bound.description)) needs `location:` with `latitude` and `longitude` (the place the sun is computed for)")
                    }
                }
            }
        }
        if let stream = pending.stream { config.schedule.stream = make(stream) }
        for (output, _, spec) in pending.outputs {
            config.schedule.outputs[output] = make(spec).map { .windows($0) } ?? .always
        }
    }
}
