// The PCSC module; see DESIGN.md for its job.
#if canImport(CPCSCLite)
import CPCSCLite
#endif
