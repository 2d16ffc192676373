import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes a file the user named (`--out`, `-o`, `--save-dump`, report files).
/// A regular file or a new path is written all or nothing (a temporary file beside it,
/// renamed into place); a device, a FIFO or a socket (`/dev/null`, `/dev/stdout`, a named
/// pipe) is written into as it is, since renaming over it would replace the special file
/// itself; a symbolic link is refused, since the rename would replace the link and leave its
/// target unwritten (or write a target the user did not mean).
enum OutputFile {
    enum Kind: Equatable {
        case missing, regular, special, symbolicLink, folder
    }

    /// What is at `path` now, without following a final symbolic link.
    static func kind(of path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFLNK: return .symbolicLink
        case S_IFDIR: return .folder
        default: return .special
        }
    }

    /// Writes `data` to `path` as the kind of thing there allows.
    /// - Throws: `CommandError` naming the path: a symbolic link or a folder (65, nothing
    ///   written), or a write that failed (1).
    static func write(_ data: Data, to path: String, what: String = "the file") throws {
        switch kind(of: path) {
        case .symbolicLink:
            throw CommandError(
                .dataError, "'\(path)' is a symbolic link; \(what) is not written through it (give the path it points to, or another one).")
        case .folder:
            throw CommandError(.dataError, "'\(path)' is a folder; give a file's path for \(what).")
        case .special:
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw CommandError(.failure, "cannot open '\(path)' to write \(what): check the path and permissions.")
            }
            defer { try? handle.close() }
            do {
                try handle.write(contentsOf: data)
            } catch {
                throw CommandError(.failure, "cannot write \(what) to '\(path)': \(error.localizedDescription).")
            }
        case .regular, .missing:
            do {
                try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw CommandError(.failure, "cannot write \(what) to '\(path)': check the path, permissions and free space.")
            }
        }
    }
}
