// The ColdChain module; see DESIGN.md for its job.
