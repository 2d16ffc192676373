// The CairoCanvas module; see DESIGN.md for its job.
#if canImport(CCairo)
import CCairo
#endif
