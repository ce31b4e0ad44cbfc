import Foundation

extension FLVFileOutput {
    /// `path` if nothing is there; otherwise the same name with the local time (and a counter if
    /// need be) before the extension, e.g. `cam.flv` → `cam-20261124-073012.flv`. A restart must
    /// never destroy the previous recording (issue 14 #9); the writer still creates with O_TRUNC,
    /// but only ever on a name that did not exist a moment before.
    static func freshPath(for path: String, now: Date = Date(), exists: (String) -> Bool = FileManager.default.fileExists(atPath:)) -> String {
        guard exists(path) else { return path }
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        let stem = String(path.dropLast(ext.isEmpty ? 0 : ext.count + 1))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stamp = formatter.string(from: now)
        let dot = ext.isEmpty ? "" : ".\(ext)"
        var candidate = "\(stem)-\(stamp)\(dot)"
        var counter = 2
        while exists(candidate) {
            candidate = "\(stem)-\(stamp)-\(counter)\(dot)"
            counter += 1
        }
        return candidate
    }
}
