import Foundation

// coldtap-bench SUITE [--json] [--smoke]: each suite measures ColdTap and a reference tool in
// the same run and prints both and the ratio. Release builds only (`make bench`); `--smoke`
// runs a suite at a tiny size to show that it still runs (`make test`, BenchScale.swift).
let arguments = Array(CommandLine.arguments.dropFirst())
let json = arguments.contains("--json")
let suites: [String: (Bool) async throws -> Void] = [
    "ndef": runNDEFBench,
    "rf": runRFBench,
    "chart": runChartBench,
    "archive": runArchiveBench,
    "station": runStationBench,
    "station-pages": runStationPagesBench,
    "tlog": runTransparencyLogBench,
    "fleet": runFleetBench,
]
guard let name = arguments.first(where: { !$0.hasPrefix("-") }), let suite = suites[name] else {
    FileHandle.standardError.write(Data("usage: coldtap-bench ndef|rf|chart|archive|station|station-pages|tlog|fleet [--json] [--smoke]\n".utf8))
    exit(64)
}
if BenchScale.smoke { FileHandle.standardError.write(Data("coldtap-bench \(name): \(BenchScale.note)\n".utf8)) }
do {
    try await suite(json)
} catch {
    FileHandle.standardError.write(Data("coldtap-bench \(name): \(error)\n".utf8))
    exit(1)
}
