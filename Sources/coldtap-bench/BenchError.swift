/// Why a benchmark could not produce a trustworthy figure.
enum BenchError: Error, CustomStringConvertible {
    /// A reference tool or a self-check failed; the detail says which.
    case reference(String)

    var description: String {
        switch self {
        case .reference(let detail): return "the reference tool failed: \(detail)"
        }
    }
}
