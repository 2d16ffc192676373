import Foundation

/// Public files the project reads in place and never copies into the repository (GS1's EPCIS
/// schema, vendors' sample reports): the workspace's `shared/` folder, beside the repository
/// (`../shared`), or where `COLDTAP_SHARED` points (`.ci/run` sets it, since it tests a clone
/// in a folder of its own).
public enum SharedFacts {
    /// The repository's root (PyHanko's, the one place that works it out from this folder).
    public static let repository = PyHanko.repository

    /// The shared folder, or `nil` where there is none.
    public static var folder: URL? {
        var candidates: [URL] = []
        if let given = ProcessInfo.processInfo.environment["COLDTAP_SHARED"], !given.isEmpty {
            candidates.append(URL(fileURLWithPath: given))
        }
        candidates.append(repository.deletingLastPathComponent().appendingPathComponent("shared"))
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// `shared/PATH`, or `nil` with the sentence a test prints when it is absent.
    public static func file(_ path: String) -> (url: URL?, absent: String) {
        let absent =
            "the public file shared/\(path) is not here (looked in COLDTAP_SHARED and \(repository.deletingLastPathComponent().path)/shared); the check against it was not run"
        guard let url = folder?.appendingPathComponent(path), FileManager.default.fileExists(atPath: url.path) else { return (nil, absent) }
        return (url, absent)
    }
}
