import Foundation

func runRFBench(json: Bool) async throws {
    throw BenchError.notBuilt("RF")
}
