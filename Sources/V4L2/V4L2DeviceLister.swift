#if canImport(Glibc)
import Glibc
#endif

/// Finds the V4L2 device nodes on this machine and describes them (`camcast devices`).
public enum V4L2DeviceLister {
    /// Every `/dev/videoN`, in numeric order, with identity, stable links and (for capture nodes)
    /// every format, size and frame interval. A node that cannot be opened is listed with `error`.
    public static func list(devDirectory: String = "/dev") -> [V4L2DeviceInfo] {
        let nodes = entries(of: devDirectory)
            .compactMap { name -> (Int, String)? in
                guard name.hasPrefix("video"), let number = Int(name.dropFirst(5)) else { return nil }
                return (number, devDirectory + "/" + name)
            }
            .sorted { $0.0 < $1.0 }
            .map(\.1)
        let links = stableLinks(in: ["\(devDirectory)/v4l/by-id", "\(devDirectory)/v4l/by-path"])
        return nodes.map { path in info(path: path, stablePaths: links[resolved(path) ?? path] ?? []) }
    }

    /// Describes one node (also usable on a `/dev/v4l/by-id/…` link).
    public static func info(path: String, stablePaths: [String] = []) -> V4L2DeviceInfo {
        let device: V4L2Device
        do {
            device = try V4L2Device(path: path)
        } catch {
            return V4L2DeviceInfo(
                path: path, stablePaths: stablePaths, driver: "", card: "", busInfo: "", capabilities: [],
                canCapture: false, formats: [], error: error.description)
        }
        let caps = device.capabilities
        let canCapture = caps.canCapture && caps.canStream
        var formats: [V4L2FormatInfo] = []
        var problem: String?
        if caps.canCapture {
            do {
                formats = try device.formats(type: caps.bufferType).map(\.info)
            } catch {
                problem = error.description
            }
        }
        return V4L2DeviceInfo(
            path: path, stablePaths: stablePaths, driver: caps.driver, card: caps.card, busInfo: caps.busInfo,
            capabilities: caps.names, canCapture: canCapture, formats: formats, error: problem)
    }

    /// The listing as people read it: one block per device, one line per format and size.
    public static func describe(_ devices: [V4L2DeviceInfo]) -> String {
        guard !devices.isEmpty else { return "no V4L2 devices found\n" }
        var text = ""
        for device in devices {
            text += "\(device.path)"
            if let error = device.error {
                text += ": \(error)\n\n"
                continue
            }
            text += ": \(device.card) (driver \(device.driver), bus \(device.busInfo))\n"
            for link in device.stablePaths { text += "  stable path: \(link)\n" }
            text += "  capabilities: \(device.capabilities.joined(separator: ", "))\n"
            if !device.canCapture { text += "  not a video capture node\n" }
            for format in device.formats {
                let notes = [format.compressed ? "compressed" : nil, format.supported ? nil : "not supported by Camcast"].compactMap { $0 }
                text += "  \(format.fourCC)  \(format.description)\(notes.isEmpty ? "" : " [\(notes.joined(separator: ", "))]")\n"
                for size in format.sizes {
                    let rates = size.frameIntervals.map(\.description).joined(separator: ", ")
                    text += "      \(sizeText(size))\(rates.isEmpty ? "" : "  @ \(rates) fps")\n"
                }
            }
            text += "\n"
        }
        return text
    }

    static func sizeText(_ size: V4L2FrameSizeInfo) -> String {
        switch size.kind {
        case .discrete:
            return "\(size.width)x\(size.height)"
        case .stepwise, .continuous:
            let steps = size.kind == .stepwise ? " step \(size.stepWidth ?? 1)x\(size.stepHeight ?? 1)" : ""
            return "\(size.width)x\(size.height) to \(size.maxWidth ?? size.width)x\(size.maxHeight ?? size.height)\(steps)"
        }
    }

    /// Maps each node's real path to the udev links that point at it.
    private static func stableLinks(in directories: [String]) -> [String: [String]] {
        var links: [String: [String]] = [:]
        for directory in directories {
            for name in entries(of: directory).sorted() {
                let link = directory + "/" + name
                if let target = resolved(link) { links[target, default: []].append(link) }
            }
        }
        return links
    }

    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    private static func entries(of directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
