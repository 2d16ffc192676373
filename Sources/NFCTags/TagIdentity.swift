import Foundation

/// What identification found out about a tag.
public struct TagIdentity: Sendable, Equatable {
    public var chip: TagChip
    /// UID in display order (Type 2: as anticollision gives it; Type 5: `E0` first).
    public var uid: Data?
    /// The GET_VERSION answer (Type 2), when the tag gave one.
    public var version: Data?
    /// The GET_SYSTEM_INFO answer (Type 5), when the tag gave one.
    public var systemInfo: Type5SystemInfo?
}
