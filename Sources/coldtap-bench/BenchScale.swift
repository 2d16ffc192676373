import Foundation

/// How large a bench runs. `--smoke` (what `make test` runs, on the debug build) runs every
/// suite once at a tiny size, so a suite that breaks — a page that now needs a sign-in, a
/// changed API, a reference tool gone — fails CI instead of waiting for the next `make bench`.
/// Its figures mean nothing and are labelled as such; only the full sizes are measurements.
enum BenchScale {
    static let smoke = CommandLine.arguments.contains("--smoke")

    /// `full` normally, `tiny` in a smoke run.
    static func pick<T>(_ full: T, smoke tiny: T) -> T { smoke ? tiny : full }

    /// The note a smoke run prints before its figures.
    static let note = "smoke run (--smoke): tiny sizes to prove the suite still runs; these figures are no measurement"
}
