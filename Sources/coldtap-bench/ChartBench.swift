import Foundation

func runChartBench(json: Bool) async throws {
    throw BenchError.notBuilt("Chart")
}
