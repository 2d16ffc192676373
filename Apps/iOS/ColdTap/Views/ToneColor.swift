import AppViewModels
import SwiftUI

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
