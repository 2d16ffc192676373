import Testing

extension Tag {
    /// Tests that take seconds rather than milliseconds (sweeps over many damaged inputs,
    /// big rasterisations, a headless browser, real-time reader timing). They stay in
    /// `make test`; Xcode's test navigator can leave them out by tag while iterating.
    @Tag public static var slow: Self
}
