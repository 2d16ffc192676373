enum BenchError: Error, CustomStringConvertible {
    case notBuilt(String)
    case reference(String)

    var description: String {
        switch self {
        case .notBuilt(let suite): return "the \(suite) suite is not built yet"
        case .reference(let detail): return "the reference tool failed: \(detail)"
        }
    }
}
