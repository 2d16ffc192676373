extension Result where Failure == any Error {
    /// What `body` returned or threw, for an `async` body (the standard library's
    /// `init(catching:)` takes only a synchronous one). It runs on the caller's actor, so a
    /// view's main-actor work (the station's sign-out) can be passed without being `Sendable`.
    public init(isolation: isolated (any Actor)? = #isolation, catchingAsync body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
