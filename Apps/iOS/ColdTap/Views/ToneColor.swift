import AppViewModels

#if canImport(SwiftUI)
    import SwiftUI
#else
    import SwiftUIStandIn  // Linux type check only (scripts/test-ios-app-typecheck.sh)
#endif

extension Tone {
    /// The colour a value of this tone is shown in.
    var color: Color {
        switch self {
        case .good: return .green
        case .alarm: return .red
        case .caution: return .orange
        case .secondary: return .secondary
        case .plain: return .primary
        }
    }
}
